"""Whole-process speed: endpoints-checker vs the official checker on the same packages.

Builds fixtures/valid (8 points) and a 32-point curve in a temporary directory, then times each
command N times as a separate process (what a user or CI pays, interpreter start-up included),
interleaved, and prints median wall and CPU time. Beside the two checkers it times the floor
(``bench/floor.py``): a fresh Python process that only reads and parses every file of the package
with C loaders (msgspec, PyYAML's CSafeLoader). The official checker (endpoints-submission-cli==1.5.3.0) is installed
into its own virtual environment, bench/.venv-official, the first time, unless the checkout already has
one at .venv-official (what ``make official`` creates); set BENCH_NO_OFFICIAL=1 to skip it, or
BENCH_OFFICIAL=/path/to/endpoints-submission-cli to use another install.

Target (issue 24): the plain 32-point check takes at most 0.75x the official tool's time, judged by
CPU time (user + system of the process and its children) because the development machine is shared;
wall time and the floor ratio are printed beside it. ``uptime`` is printed before and after.

With the official checker inside (issue 34: ENDPOINTS_CHECKER_WEEK0=official and
ENDPOINTS_CHECKER_OFFICIAL_PYTHON the official's own interpreter, its child process counted in our CPU time) the 32-point check takes at most 1.0x the official
tool's own time; the plain rows run ``--week0 model``. What the official adds per submission is the
difference of the two rows.
"""
from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "fixtures"))

OFFICIAL_VERSION = "endpoints-submission-cli==1.5.3.0"
RUNS = int(os.environ.get("BENCH_RUNS", "15"))


def official_exe() -> str | None:
    if os.environ.get("BENCH_NO_OFFICIAL"):
        return None
    if os.environ.get("BENCH_OFFICIAL"):
        return os.environ["BENCH_OFFICIAL"]
    checkout = os.path.join(REPO, ".venv-official", "bin", "endpoints-submission-cli")
    if os.path.exists(checkout):
        return checkout
    venv = os.path.join(HERE, ".venv-official")
    exe = os.path.join(venv, "bin", "endpoints-submission-cli")
    if not os.path.exists(exe):
        print(f"installing {OFFICIAL_VERSION} into {venv} ...", flush=True)
        try:
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", OFFICIAL_VERSION], check=True,
                           timeout=600)
        except (subprocess.SubprocessError, OSError) as exc:
            print(f"could not install the official checker ({exc}); timing ours only")
            return None
    return exe


def ours_cmd() -> list[str]:
    """endpoints-checker as a user gets it: a regular (non-editable) install, bytecode compiled.

    Installed afresh from this checkout into bench/.venv-ours on every run (BENCH_EDITABLE=1 times the
    development install instead)."""
    if os.environ.get("BENCH_EDITABLE"):
        exe = shutil.which("endpoints-checker", path=os.path.dirname(sys.executable))
        return [exe] if exe else [sys.executable, "-m", "checker"]
    venv = os.path.join(HERE, ".venv-ours")
    if not os.path.exists(os.path.join(venv, "bin", "python")):
        subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--force-reinstall", "--no-deps", REPO],
                   check=True, timeout=600, env=_env())
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", REPO], check=True, timeout=600, env=_env())
    return [os.path.join(venv, "bin", "endpoints-checker")]


def _env() -> dict:
    """Timed processes run as on a user's machine: bytecode caching on."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def time_cmds(cmds: dict[str, list[str]], runs: int = RUNS) -> dict[str, dict]:
    """Run every command ``runs`` times, interleaved (one of each per round, so a shared machine's load
    falls on all alike); per command: median and min wall time, median CPU time (user + system, from
    wait4) and the last exit code."""
    walls: dict[str, list[float]] = {k: [] for k in cmds}
    cpus: dict[str, list[float]] = {k: [] for k in cmds}
    rcs: dict[str, int] = {}
    for _ in range(runs):
        for key, cmd in cmds.items():
            t0 = time.perf_counter()
            p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
            _, status, usage = os.wait4(p.pid, 0)
            walls[key].append(time.perf_counter() - t0)
            cpus[key].append(usage.ru_utime + usage.ru_stime)
            rcs[key] = os.waitstatus_to_exitcode(status)
    return {k: {"median": statistics.median(walls[k]), "min": min(walls[k]), "cpu": statistics.median(cpus[k]),
                "rc": rcs[k]} for k in cmds}


def _uptime() -> str:
    """The load line of ``uptime`` (the machine is shared: every figure is quoted with it)."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average %.2f %.2f %.2f" % os.getloadavg()


def _cell(t: dict | None) -> str:
    return f"{t['median']:6.3f} ({t['cpu']:5.3f})" if t else f"{'-':>14}"


def main() -> int:
    import make_valid

    tmp = tempfile.mkdtemp(prefix="ec-bench-")
    try:
        pkgs = {
            "valid (8 points)": os.path.join(REPO, "fixtures", "valid"),
            "32 points": os.path.join(tmp, "sub-32"),
        }
        make_valid.build(pkgs["32 points"], make_valid.spread_points(32))
        official = official_exe()
        ours = ours_cmd()
        # the floor runs on the interpreter and site-packages ours runs on (msgspec and PyYAML are dependencies)
        py = os.path.join(os.path.dirname(ours[0]), "python")
        floor = [py if os.path.exists(py) else sys.executable, os.path.join(HERE, "floor.py")]
        time_cmds({"warm": ours + ["--version"]}, runs=2)  # warm the bytecode cache
        load = os.getloadavg()
        print("uptime before:", _uptime())
        rows = []
        # the official named as a user names it once for all runs (the environment), so the console script starts it first
        inside = ["env", "ENDPOINTS_CHECKER_WEEK0=official",
                  f"ENDPOINTS_CHECKER_OFFICIAL_PYTHON={os.path.join(os.path.dirname(official), 'python')}"] \
            if official else []
        for label, path in pkgs.items():
            cmds = {"ours": ours + ["check", path, "-q", "--week0", "model"],
                    "json": ours + ["check", path, "-f", "json", "-o", os.path.join(tmp, "r.json"), "--week0", "model"],
                    "floor": floor + [path]}
            if official:
                cmds["official"] = [official, "check-submission", path, "-q"]
                cmds["inside"] = inside + ours + ["check", path, "-q"]
            t = time_cmds(cmds)
            rows.append((label, "text -q", t["ours"], t.get("official"), t["floor"]))
            rows.append((label, "-f json -o", t["json"], t.get("official"), t["floor"]))
            if official:
                rows.append((label, "+official", t["inside"], t["official"], t["floor"]))
        print(f"\nwhole processes, {RUNS} interleaved runs each; median wall s (median CPU s); "
              f"load average before: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
        print(f"{'package':<17} {'ours':<11} {'endpoints-checker':>17} {'official 1.5.3.0':>16} {'floor':>14} "
              f"{'/official':>9} {'/floor':>6} {'rc':>3}")
        for label, mode, o, f, fl in rows:
            r_off = f"{o['median'] / f['median']:9.2f}" if f else f"{'-':>9}"
            print(f"{label:<17} {mode:<11} {_cell(o):>17} {_cell(f):>16} {_cell(fl):>14} {r_off} "
                  f"{o['median'] / fl['median']:6.2f} {o['rc']:>3}")
        print("uptime after:", _uptime())
        plain = [r for r in rows if r[0] == "32 points" and r[1] == "text -q"][0]
        o, f, fl = plain[2], plain[3], plain[4]
        print(f"32-point ratio to the floor (medians): {o['median'] / fl['median']:.2f} wall, "
              f"{o['cpu'] / fl['cpu']:.2f} CPU (issue 14's quiet-machine aim: <= 2.00)")
        if f:
            ratio = o['cpu'] / f['cpu']
            print(f"\n32-point ratio to the official tool (medians): {o['median'] / f['median']:.2f} wall, "
                  f"{ratio:.2f} CPU (target <= 0.75 by CPU): {'met' if ratio <= 0.75 else 'NOT met'}")
            w = [r for r in rows if r[0] == "32 points" and r[1] == "+official"][0][2]
            inside_ratio = w['cpu'] / f['cpu']
            print(f"32-point check with the official inside: {w['median'] / f['median']:.2f} wall, {inside_ratio:.2f} CPU "
                  f"of the official tool's own (target <= 1.0): {'met' if inside_ratio <= 1.0 else 'NOT met'}; "
                  f"the official adds {w['median'] - o['median']:+.3f} s wall, {w['cpu'] - o['cpu']:+.3f} s CPU")
            return 0 if ratio <= 0.75 and inside_ratio <= 1.0 else 1
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
