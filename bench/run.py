"""Whole-process speed: endpoints-checker vs the official checker on the same packages.

Builds fixtures/valid (8 points) and a 32-point curve in a temporary directory, then times each
command N times as a separate process (what a user or CI pays, interpreter start-up included) and
prints min/median wall time. The official checker (endpoints-submission-cli==1.5.3.0) is installed
into its own virtual environment, bench/.venv-official, the first time (set BENCH_NO_OFFICIAL=1 to
skip it, or BENCH_OFFICIAL=/path/to/endpoints-submission-cli to use another install).

Target (DEVELOPERS.md): the 32-point check takes at most half of the official tool's time.
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


def time_cmd(cmd: list[str], runs: int = RUNS) -> tuple[float, float, int]:
    walls = []
    rc = 0
    for _ in range(runs):
        t0 = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env())
        walls.append(time.perf_counter() - t0)
        rc = p.returncode
    return min(walls), statistics.median(walls), rc


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
        time_cmd(ours + ["--version"], runs=2)  # warm the bytecode cache
        rows = []
        for label, path in pkgs.items():
            o_min, o_med, o_rc = time_cmd(ours + ["check", path, "-q"])
            rows.append((label, "endpoints-checker", o_min, o_med, o_rc))
            j_min, j_med, j_rc = time_cmd(ours + ["check", path, "-f", "json", "-o", os.path.join(tmp, "r.json")])
            rows.append((label, "endpoints-checker -f json", j_min, j_med, j_rc))
            if official:
                f_min, f_med, f_rc = time_cmd([official, "check-submission", path, "-q"])
                rows.append((label, "official 1.5.3.0", f_min, f_med, f_rc))
        print(f"\n{'package':<18} {'tool':<28} {'min s':>7} {'median s':>9} {'rc':>3}")
        for label, tool, mn, med, rc in rows:
            print(f"{label:<18} {tool:<28} {mn:7.3f} {med:9.3f} {rc:>3}")
        if official:
            ours = next(r for r in rows if r[0] == "32 points" and r[1] == "endpoints-checker")
            theirs = next(r for r in rows if r[0] == "32 points" and r[1] == "official 1.5.3.0")
            ratio = ours[3] / theirs[3]
            print(f"\n32-point ratio (ours / official, medians): {ratio:.2f} (target <= 0.50)")
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
