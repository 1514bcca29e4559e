"""Report memory: a cohort's JSON report written to a file and to standard output, peak memory of each.

Builds a cohort of N submissions x P points (``cohort_bench.build_cohort``), then runs
``endpoints-checker check COHORT -f json`` twice: with ``-o report.json``, and with standard output a pipe
this script drains (what a CI runner or ``subprocess`` gives). Reports each run's peak RSS (the largest
single process, the parent or a worker, from ``RUSAGE_CHILDREN``), the report's size, and that the two
reports are the same bytes (``generated_at`` aside). ``--scaling`` repeats it for 15 / 30 / 60 / N
submissions: memory should grow with the findings the parent holds, not with the report's text.

    python bench/report_memory_bench.py                   # 120 x 8, jobs = cores
    BENCH_SUBS=120 BENCH_POINTS=32 python bench/report_memory_bench.py
    python bench/report_memory_bench.py --scaling

Target (issue 38): the stdout run's peak within 1.2x of the file run's, and under 300 MB, for 120 x 8.
"""
from __future__ import annotations

import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from cohort_bench import _env, build_cohort, exe, uptime  # noqa: E402

_STAMP = re.compile(rb'\n  "generated_at": "[^"]*",')


def _peak_after(run) -> tuple[float, float, int]:
    """(wall seconds, peak RSS MiB of the largest process run() waited for, exit code)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    rc = run()
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if after <= before:
        print(f"  (note: this run's peak is at most the earlier runs' {before / 1024:.0f} MiB: "
              "RUSAGE_CHILDREN keeps the largest; run one measurement per process to compare)")
    return wall, after / 1024.0, rc


def to_file(cohort: str, out: str, jobs: int) -> tuple[float, float, int]:
    cmd = exe() + ["check", cohort, "-f", "json", "-o", out, "--jobs", str(jobs)]
    return _peak_after(lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                              env=_env()).returncode)


def to_stdout(cohort: str, out: str, jobs: int) -> tuple[float, float, int]:
    """Standard output a pipe, drained by this process into ``out``."""
    cmd = exe() + ["check", cohort, "-f", "json", "--jobs", str(jobs)]

    def run() -> int:
        with open(out, "wb") as sink:
            proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env())
            while True:
                chunk = proc.stdout.read(1 << 20)
                if not chunk:
                    break
                sink.write(chunk)
            return proc.wait()
    return _peak_after(run)


def measure(cohort: str, jobs: int, which: str) -> None:
    """One measurement per process (RUSAGE_CHILDREN is a maximum over every child waited for)."""
    import hashlib

    with tempfile.TemporaryDirectory(prefix="report-memory-") as tmp:
        out = os.path.join(tmp, "report.json")
        wall, peak, rc = (to_file if which == "file" else to_stdout)(cohort, out, jobs)
        with open(out, "rb") as fh:
            data = _STAMP.sub(b"", fh.read())
        print(f"RESULT {which} {peak:.1f} {wall:.2f} {rc} {len(data)} {hashlib.sha256(data).hexdigest()}", flush=True)


def one(subs: int, points: int, jobs: int) -> dict:
    got = {}
    with tempfile.TemporaryDirectory(prefix="report-memory-") as tmp:
        build_cohort(tmp, subs, points)
        cohort = os.path.join(tmp, "cohort")
        for which in ("file", "stdout"):
            proc = subprocess.run([sys.executable, __file__, "--one", which, cohort, str(jobs)],
                                  capture_output=True, text=True)
            line = [ln for ln in proc.stdout.splitlines() if ln.startswith("RESULT ")]
            if not line:
                raise SystemExit(f"measurement failed: {proc.stdout[-2000:]}{proc.stderr[-2000:]}")
            _, _, peak, wall, rc, size, digest = line[0].split()
            got[which] = (float(peak), float(wall), int(rc), int(size), digest)
            print(f"  {subs} x {points} to {which:>6}: peak {float(peak):.0f} MiB, wall {float(wall):.1f} s, "
                  f"exit {rc}, report {int(size) / 1e6:.1f} MB", flush=True)
    same = got["file"][4] == got["stdout"][4]
    ratio = got["stdout"][0] / got["file"][0]
    print(f"  same report bytes: {same}; stdout / file peak: {ratio:.2f}x", flush=True)
    got["same"], got["ratio"] = same, ratio
    return got


def main() -> int:
    if sys.argv[1:2] == ["--one"]:
        measure(sys.argv[3], int(sys.argv[4]), sys.argv[2])
        return 0
    subs = int(os.environ.get("BENCH_SUBS", "120"))
    points = int(os.environ.get("BENCH_POINTS", "8"))
    jobs = int(os.environ.get("BENCH_JOBS", "0")) or len(os.sched_getaffinity(0))
    print(f"cores: {len(os.sched_getaffinity(0))}; {uptime()}", flush=True)
    if "--scaling" in sys.argv:
        for n in sorted({15, 30, 60, subs}):
            one(n, points, jobs)
        return 0
    got = one(subs, points, jobs)
    peak = got["stdout"][0]
    ok = got["same"] and got["ratio"] <= 1.2 and peak <= 300
    print(f"target (stdout within 1.2x of file, under 300 MB, same bytes): {'met' if ok else 'NOT met'}")
    print(f"  {uptime()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
