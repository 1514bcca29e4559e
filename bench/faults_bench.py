"""Signals soak: SIGINT, SIGTERM and SIGKILL to the parent of a ``-j 2`` cohort at random moments, and SIGKILL
to an HTML folder being written, counting what the tests check once (tests/cli/test_faults.py).

Per signal, N runs of ``check COHORT -f json -o report.json -j 2`` (a cohort of fixtures/valid copies), each
signalled at a random moment of its run: the exit code, the seconds from the signal until ``communicate()``
returns, processes of the run still alive after it (orphaned workers), temporary files left, and whether
report.json still holds the previous run's bytes or a whole new report. Then N runs writing an HTML folder
over an earlier one, SIGKILLed at a random moment: a folder mixing two runs is counted.

    python bench/faults_bench.py            # 20 runs per case
    BENCH_RUNS=5 BENCH_SUBS=24 python bench/faults_bench.py

Target (issue 38): SIGINT/SIGTERM exit 130/143 within a second or two, no process left after any signal,
no temporary file after SIGINT/SIGTERM, the old report kept or a whole new one, no HTML folder mixed.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "tests", "support"))

from faultproc import alive_in_session, cohort, handles_sigterm, kill_session, temporaries  # noqa: E402

from cohort_bench import exe, uptime  # noqa: E402


def run_once(path: str, report: str, sig: int, delay: float) -> dict:
    """One run signalled ``delay`` seconds after the check started (its own SIGTERM handler installed: before
    that, during the interpreter's start-up, a signal is Python's)."""
    proc = subprocess.Popen(exe() + ["check", path, "-f", "json", "-o", report, "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    while not handles_sigterm(proc.pid) and proc.poll() is None:
        time.sleep(0.001)
    time.sleep(delay)
    ended_before = proc.poll() is not None
    t0 = time.monotonic()
    if not ended_before:
        os.kill(proc.pid, sig)
    try:
        proc.communicate(timeout=60)
        took = time.monotonic() - t0
    except subprocess.TimeoutExpired:
        took = None
    time.sleep(1.0)
    left = alive_in_session(proc.pid)
    kill_session(proc.pid)
    return {"rc": proc.returncode, "took": took, "left": len(left), "ended_before": ended_before}


def signals(root: str, runs: int, subs: int) -> bool:
    path = cohort(root, subs)
    report = os.path.join(root, "report.json")
    proc = subprocess.Popen(exe() + ["check", path, "-f", "json", "-o", report, "-j", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not handles_sigterm(proc.pid) and proc.poll() is None:
        time.sleep(0.001)
    t0 = time.monotonic()
    proc.wait()
    whole = time.monotonic() - t0  # from the check's start to its end
    ok = True
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGKILL):
        rows = []
        for _ in range(runs):
            with open(report, "w") as fh:
                fh.write("OLD\n")
            rows.append(run_once(path, report, sig, random.uniform(0.0, whole * 0.9)))
            with open(report) as fh:
                kept = fh.read()
            rows[-1]["report"] = "old" if kept == "OLD\n" else ("new" if kept.startswith("{") and
                                                                  kept.rstrip().endswith("}") else "MIXED")
            rows[-1]["temporaries"] = len(temporaries(root, ".part"))
            for t in temporaries(root, ".part"):  # a SIGKILL's leftover: the next run would remove it
                os.unlink(t)
        # a signal that lands while the process is already exiting finds a finished run (exit 0 or 1)
        hit = [r for r in rows if not r["ended_before"] and r["rc"] not in (0, 1)]
        codes = sorted({r["rc"] for r in hit})
        tooks = sorted(r["took"] for r in hit if r["took"] is not None)
        hung = sum(1 for r in hit if r["took"] is None)
        orphans = sum(1 for r in hit if r["left"])
        temps = sum(r["temporaries"] for r in hit if sig != signal.SIGKILL)
        mixed = sum(1 for r in rows if r["report"] == "MIXED")
        print(f"  {sig.name}: {len(hit)} of {runs} runs stopped by it; exit codes {codes}; to exit: median "
              f"{tooks[len(tooks) // 2] if tooks else 0:.2f} s, max {max(tooks) if tooks else 0:.2f} s; "
              f"communicate() hung {hung}; runs leaving processes {orphans}; temporary files left {temps}; "
              f"report mixed {mixed}", flush=True)
        want = {signal.SIGINT: [130], signal.SIGTERM: [143], signal.SIGKILL: [-9]}[sig]
        ok &= (not hit or codes == want) and not hung and not orphans and not temps and not mixed
        ok &= sig == signal.SIGKILL or not tooks or max(tooks) < 2.0
    return ok


def html(root: str, runs: int, subs: int) -> bool:
    path = cohort(root, subs, name="html-cohort")
    site = os.path.join(root, "site")
    t0 = time.monotonic()
    subprocess.run(exe() + ["check", path, "-o", site + "/", "-j", "2"], capture_output=True)
    whole = time.monotonic() - t0
    mixed = 0
    for _ in range(runs):
        before = {n: os.stat(os.path.join(site, n)).st_mtime_ns for n in os.listdir(site)}
        run_once_html = subprocess.Popen(exe() + ["check", path, "-o", site + "/", "-j", "2"],
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        time.sleep(random.uniform(whole * 0.5, whole * 1.1))
        if run_once_html.poll() is None:
            os.kill(run_once_html.pid, signal.SIGKILL)
        run_once_html.wait()
        kill_session(run_once_html.pid)
        after = {n: os.stat(os.path.join(site, n)).st_mtime_ns for n in os.listdir(site)}
        same = [n for n in after if before.get(n) == after[n]]
        if same and len(same) != len(after):
            mixed += 1
        for t in temporaries(root, ".part"):
            shutil.rmtree(t, ignore_errors=True)
    print(f"  HTML folder SIGKILLed at random moments: {runs} runs, {mixed} left mixing two runs", flush=True)
    return mixed == 0


def main() -> int:
    runs = int(os.environ.get("BENCH_RUNS", "20"))
    subs = int(os.environ.get("BENCH_SUBS", "24"))
    print(f"cores: {len(os.sched_getaffinity(0))}; {uptime()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="faults-bench-") as root:
        ok = signals(root, runs, subs)
        ok &= html(root, runs, subs)
    print(f"target (exit 130/143 within 2 s, nothing left running, no temporary file, no report or folder mixed): "
          f"{'met' if ok else 'NOT met'}")
    print(f"  {uptime()}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
