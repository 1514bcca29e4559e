"""Cohort speed: a generated cohort of N submissions x P points, checked as one process.

Builds one P-point submission with fixtures/make_valid.py (``build(root, spread_points(P))``) and
copies it N times under <tmp>/<org>/<submission_id>/ (10 organisations), then runs
``endpoints-checker check COHORT -f json -o report.json --jobs J`` as a separate process and
reports wall time, CPU time (user + system of the process and its workers) and peak memory (the
process and its workers, from ``resource``'s RUSAGE values: the largest single process, since
workers run side by side). ``uptime`` is printed before and after: on a shared machine the CPU
time is the figure to judge by (CPU / jobs is what the wall time would be if the workers kept
every core busy and nothing else ran).

    python bench/cohort_bench.py                 # 100 x 32, jobs = cores
    BENCH_SUBS=50 BENCH_POINTS=16 BENCH_JOBS=1 python bench/cohort_bench.py
    python bench/cohort_bench.py --scaling       # 100 x {8, 16, 32}: time grows linearly with points

Target (issue 10): 100 submissions x 32 points under 10 s wall on 2 cores, under 1 GB. With
BENCH_WEEK0=official (issue 34) every submission also gets the official checker's own verdict, run in a
child process of each worker (the official's interpreter: BENCH_OFFICIAL_PYTHON, else .venv-official's);
the default, BENCH_WEEK0=model, predicts it. BENCH_WEEK0=both times the two interleaved.
"""
from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "fixtures"))


def build_cohort(root: str, subs: int, points: int, orgs: int = 10) -> None:
    import make_valid

    template = os.path.join(root, "_template")
    make_valid.build(template, make_valid.spread_points(points))
    for i in range(subs):
        dest = os.path.join(root, "cohort", f"org{i % orgs:02d}", f"sub{i:03d}")
        shutil.copytree(template, dest)
    shutil.rmtree(template)


def exe() -> list[str]:
    found = shutil.which("endpoints-checker", path=os.path.dirname(sys.executable))
    return [found] if found else [sys.executable, "-m", "checker"]


def _env() -> dict:
    """The check runs as on a user's machine: bytecode caching on (a development shell's
    PYTHONDONTWRITEBYTECODE=1 would make every run compile ~150 modules in the parent)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def uptime() -> str:
    """The load line of ``uptime``."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average %.2f %.2f %.2f" % os.getloadavg()


def week0_args(mode: str) -> list[str]:
    """``--week0 model``, or the official from its own interpreter."""
    if mode != "official":
        return ["--week0", "model"]
    python = os.environ.get("BENCH_OFFICIAL_PYTHON") or os.path.join(REPO, ".venv-official", "bin", "python")
    return ["--week0", "official", "--official-python", python]


def run_once(cohort: str, jobs: int, out: str, week0: str = "model") -> tuple[float, float, float, int]:
    """(wall seconds, CPU seconds of the process and its workers, peak RSS MiB of the largest
    process, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(exe() + ["check", cohort, "-f", "json", "-o", out, "--jobs", str(jobs), *week0_args(week0)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=_env())
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"check failed ({proc.returncode}): {proc.stderr[-2000:]}")
    peak = max(after.ru_maxrss, before.ru_maxrss) / 1024.0
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, cpu, peak, proc.returncode


def bench(subs: int, points: int, jobs: int, runs: int, modes: tuple = ("model",)) -> dict[str, tuple]:
    """{week0 mode: (min wall, min CPU, peak RSS)}; with several modes their runs are interleaved."""
    with tempfile.TemporaryDirectory(prefix="cohort-bench-") as tmp:
        t0 = time.perf_counter()
        build_cohort(tmp, subs, points)
        built = time.perf_counter() - t0
        cohort = os.path.join(tmp, "cohort")
        out = os.path.join(tmp, "report.json")
        subprocess.run(exe() + ["--version"], stdout=subprocess.DEVNULL, env=_env())  # warm the bytecode cache
        walls = {m: [] for m in modes}
        cpus = {m: [] for m in modes}
        peaks = {m: [] for m in modes}
        rcs = {}
        for _ in range(runs):
            for mode in modes:
                print("  uptime:", uptime(), flush=True)
                wall, cpu, peak, rcs[mode] = run_once(cohort, jobs, out, mode)
                print(f"  run (--week0 {mode}): wall {wall:.2f} s, CPU {cpu:.2f} s (process + workers)", flush=True)
                walls[mode].append(wall)
                cpus[mode].append(cpu)
                peaks[mode].append(peak)
        print("  uptime:", uptime(), flush=True)
        size = os.path.getsize(out) / 1e6
        out_rows = {}
        for mode in modes:
            w, c = walls[mode], cpus[mode]
            print(f"{subs} submissions x {points} points, jobs={jobs}, --week0 {mode}: wall min {min(w):.2f} s, "
                  f"median {sorted(w)[len(w) // 2]:.2f} s; CPU min {min(c):.2f} s, "
                  f"median {sorted(c)[len(c) // 2]:.2f} s; peak RSS {max(peaks[mode]):.0f} MiB; "
                  f"report {size:.1f} MB; exit {rcs[mode]}; (cohort built in {built:.1f} s)")
            out_rows[mode] = (min(w), min(c), max(peaks[mode]))
        if len(modes) == 2:
            (w0, c0, _p0), (w1, c1, _p1) = out_rows[modes[0]], out_rows[modes[1]]
            print(f"the official adds {w1 - w0:+.2f} s wall, {c1 - c0:+.2f} s CPU to the cohort "
                  f"({(c1 - c0) / subs * 1000:+.0f} ms CPU per submission)")
        return out_rows


def main() -> int:
    subs = int(os.environ.get("BENCH_SUBS", "100"))
    points = int(os.environ.get("BENCH_POINTS", "32"))
    jobs = int(os.environ.get("BENCH_JOBS", "0")) or len(os.sched_getaffinity(0))
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    print(f"cores: {len(os.sched_getaffinity(0))}; load average {os.getloadavg()}")
    week0 = os.environ.get("BENCH_WEEK0", "model")
    modes = ("model", "official") if week0 == "both" else (week0,)
    if "--scaling" in sys.argv:
        rows = [(p, bench(subs, p, jobs, runs)["model"][0]) for p in (8, 16, 32)]
        base_p, base_t = rows[0]
        for p, t in rows:
            print(f"  {p:>2} points: {t:.2f} s ({t / base_t:.2f}x time for {p / base_p:.1f}x points)")
        return 0
    ok = True
    for mode, (wall, cpu, peak) in bench(subs, points, jobs, runs, modes).items():
        met = wall < 10.0 and peak < 1024
        ok = ok and met
        print(f"target (under 10 s, under 1 GB), --week0 {mode}: {'met' if met else 'NOT met'} by wall time; "
              f"CPU {cpu:.2f} s over {jobs} cores = {cpu / jobs:.2f} s if every core were the check's")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
