"""Run independent jobs in worker processes, results in input order, progress on a TTY's stderr.

Shared by the run-folder events audit and (later) cohort mode. Results come back in the order of
``items`` whatever the completion order, so output is identical to a serial run. ``jobs=1`` (or a
single item) runs in-process: no pool, no pickling.
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Sequence


def default_jobs() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


class Progress:
    """A one-line ``label [#####.....] done/total`` bar, drawn only when ``stream`` is a TTY."""

    def __init__(self, total: int, label: str, stream=None, enabled: bool | None = None):
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty()) and total > 0
        self.enabled = enabled
        self.done = 0

    def step(self, n: int = 1) -> None:
        self.done += n
        if self.enabled:
            width = 30
            filled = int(width * self.done / self.total) if self.total else width
            self.stream.write(f"\r{self.label} [{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total}")
            self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r" + " " * (len(self.label) + 50) + "\r")
            self.stream.flush()


def run_parallel(func: Callable[[Any], Any], items: Sequence[Any], jobs: int | None = None,
                 label: str = "working", progress: bool | None = None) -> list[Any]:
    """``[func(x) for x in items]``, spread over ``jobs`` processes (default: the core count).

    ``func`` must be a module-level function and its results picklable. A worker that dies
    (or a pool that cannot start) falls back to running the remaining items in-process.
    """
    items = list(items)
    jobs = default_jobs() if not jobs or jobs < 1 else jobs
    bar = Progress(len(items), label, enabled=progress if progress is not None else None)
    results: list[Any] = [None] * len(items)
    pending = list(range(len(items)))
    try:
        if jobs > 1 and len(items) > 1:
            pending = _pool(func, items, min(jobs, len(items)), results, bar)
        for i in pending:
            results[i] = func(items[i])
            bar.step()
    finally:
        bar.close()
    return results


def _pool(func, items, jobs: int, results: list, bar: Progress) -> list[int]:
    """Fill ``results`` from a process pool; return the indexes still to do in-process."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool
    import multiprocessing

    done: set[int] = set()
    try:
        ctx = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
            futures = {pool.submit(func, items[i]): i for i in range(len(items))}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = fut.result()
                except Exception:  # noqa: BLE001  (a dead worker; redone in-process below)
                    continue
                done.add(i)
                bar.step()
    except (OSError, BrokenProcessPool, RuntimeError):
        pass
    return [i for i in range(len(items)) if i not in done]
