"""Events-log audits of a generated cohort on the Dask executor at 1, 2 and 4 workers, against the local one.

Builds a cohort of N run folders (the small files of fixtures/real-runs/var_poisson_perf plus one
generated client-shaped events.jsonl of S MB, hard-linked into every folder), then checks it in this
process with ``--executor local --jobs W`` and with ``--executor dask`` on a LocalCluster of W
single-threaded workers (started and warmed up beforehand; its start time is printed apart),
alternating the two BENCH_REPEATS times and keeping each one's best wall time, and prints the
throughput (log bytes audited per wall second), the throughput per worker, and the ratio
Dask / local at each W. The two reports are compared (they must be identical). On a machine with
fewer cores than W the per-worker figures fall for both executors alike; the ratio is the point.

    python bench/dask_bench.py                       # 8 folders x 48 MB, W = 1, 2, 4
    BENCH_FOLDERS=16 BENCH_MB=64 python bench/dask_bench.py
"""
from __future__ import annotations

import logging
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, REPO)
sys.path.insert(0, HERE)

TEMPLATE = os.path.join(REPO, "fixtures", "real-runs", "var_poisson_perf")


def build(root: str, folders: int, size_mb: int) -> tuple[str, int]:
    """The cohort directory and the total bytes of its logs."""
    from events_bench import generate

    log = os.path.join(root, "events.jsonl")
    generate(log, size_mb)
    cohort = os.path.join(root, "cohort")
    for i in range(folders):
        dest = os.path.join(cohort, f"run{i:03d}")
        shutil.copytree(TEMPLATE, dest, ignore=shutil.ignore_patterns("events.jsonl", "report.txt"))
        os.link(log, os.path.join(dest, "events.jsonl"))
    return cohort, folders * os.path.getsize(log)


def timed_check(cohort: str, **kw) -> tuple[float, str]:
    from checker.engine.pipeline import run_check
    from checker.render import render

    t0 = time.perf_counter()
    report = run_check([cohort], keep_packages=False, **kw)
    wall = time.perf_counter() - t0
    text = render("json", report)
    return wall, "\n".join(line for line in text.splitlines() if '"generated_at"' not in line)


def main() -> int:
    import dask
    from distributed import Client, LocalCluster

    from checker.engine.executors.dask_cluster import LOCAL_CLUSTER_CONFIG

    folders = int(os.environ.get("BENCH_FOLDERS", "8"))
    size_mb = int(os.environ.get("BENCH_MB", "48"))
    widths = [int(w) for w in os.environ.get("BENCH_WORKERS", "1,2,4").split(",")]
    repeats = int(os.environ.get("BENCH_REPEATS", "3"))
    rows = []
    with tempfile.TemporaryDirectory(prefix="dask-bench-") as tmp:
        cohort, total = build(tmp, folders, size_mb)
        print(f"cohort: {folders} run folders x {total / folders / 1e6:.0f} MB of events.jsonl "
              f"({total / 1e6:.0f} MB); load {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
        timed_check(cohort, jobs=1)  # warm the page cache and this process's imports
        for w in widths:
            t0 = time.perf_counter()
            with dask.config.set(LOCAL_CLUSTER_CONFIG):
                cluster = LocalCluster(n_workers=w, threads_per_worker=1, processes=True, host="127.0.0.1",
                                       dashboard_address="127.0.0.1:0", silence_logs=logging.CRITICAL)
            client = Client(cluster, set_as_default=False)
            started = time.perf_counter() - t0
            try:
                addr = cluster.scheduler_address
                timed_check(os.path.join(cohort, "run000"), executor="dask", scheduler=addr)  # warm the workers
                local_wall = dask_wall = float("inf")
                for _ in range(repeats):  # alternating, best of each: robust against the machine's other load
                    wall, local_report = timed_check(cohort, jobs=w)
                    local_wall = min(local_wall, wall)
                    wall, dask_report = timed_check(cohort, executor="dask", scheduler=addr)
                    dask_wall = min(dask_wall, wall)
            finally:
                client.close()
                cluster.close()
            same = "identical" if dask_report == local_report else "DIFFERENT"
            rows.append((w, total / local_wall / 1e6, total / dask_wall / 1e6, started, same))
    print(f"{'workers':>7} | {'local MB/s':>10} | {'per worker':>10} | {'dask MB/s':>9} | {'per worker':>10} | "
          f"{'dask/local':>10} | {'cluster start':>13} | report")
    for w, local, remote, started, same in rows:
        print(f"{w:>7} | {local:>10.1f} | {local / w:>10.1f} | {remote:>9.1f} | {remote / w:>10.1f} | "
              f"{remote / local:>10.2f} | {started:>11.1f} s | {same}")
    return 0 if all(r[4] == "identical" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
