"""Run one function over many items in worker processes, isolating crashes item by item.

``run_isolated(fn, items, jobs)`` returns one ``(ok, value)`` per item, in item order: ``(True,
result)`` or ``(False, why)`` when ``fn`` raised or its worker process died (a segfault, an
``os._exit``, the OOM killer). A dead worker breaks the whole pool, so the items that were still
in flight are re-run one at a time in a fresh single-worker pool: only the item that really kills
its process is reported as crashed, the others get their normal result. ``jobs == 1`` runs
in-process with the same contract (results pickled and unpickled, so both modes return the same
objects). Workers are forked where the platform allows, inheriting the loaded rules and policy.
"""
from __future__ import annotations

import os
import pickle
from typing import Any, Callable, Sequence

DIED = "the worker process died while checking this item (killed by a signal, out of memory or exited)"


def default_jobs() -> int:
    """The number of usable cores (the process's CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _context():
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


def _describe(exc: BaseException) -> str:
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _call(fn: Callable, item: Any) -> tuple[bool, Any]:
    """In-process call with the same contract as a worker: exceptions and unpicklable results become crashes."""
    try:
        return True, pickle.loads(pickle.dumps(fn(item), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as exc:  # isolation: one item never stops the others
        return False, f"internal error: {_describe(exc)}"


class ItemTimeout(Exception):
    """An item ran longer than its time limit (raised inside the worker by SIGALRM)."""


def _alarm(signum, frame):
    raise ItemTimeout("the check ran longer than its time limit")


def _with_limit(fn: Callable, timeout: int, item: Any) -> Any:
    """Worker-side wrapper: a SIGALRM time limit per item (POSIX; ignored elsewhere)."""
    import signal

    if not timeout or not hasattr(signal, "SIGALRM"):
        return fn(item)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(timeout))
    try:
        return fn(item)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_isolated(fn: Callable, items: Sequence[Any], jobs: int = 1,
                 on_done: Callable[[int], None] | None = None, timeout: int = 0) -> list[tuple[bool, Any]]:
    """Apply ``fn`` to every item; ``on_done(i)`` is called in the parent as each item finishes.

    ``timeout`` (seconds, 0 = none) limits each item in worker processes: an item that runs longer
    becomes ``(False, "internal error: ItemTimeout: ...")``. Serial runs have no limit.
    """
    n = len(items)
    results: list[tuple[bool, Any] | None] = [None] * n
    if jobs <= 1 or n <= 1:
        for i, item in enumerate(items):
            results[i] = _call(fn, item)
            if on_done:
                on_done(i)
        return results  # type: ignore[return-value]
    pending = _pool_pass(fn, items, list(range(n)), min(jobs, n), results, on_done, timeout)
    for i in pending:  # the pool broke: re-run each unfinished item alone
        _pool_pass(fn, items, [i], 1, results, on_done, timeout)
        if results[i] is None:
            results[i] = (False, DIED)
            if on_done:
                on_done(i)
    return results  # type: ignore[return-value]


def _pool_pass(fn, items, indices, jobs, results, on_done, timeout=0) -> list[int]:
    """Run ``indices`` in one pool; return the indices left unfinished because the pool broke."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from concurrent.futures.process import BrokenProcessPool

    broken = False
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=_context()) as pool:
            futures = {pool.submit(_with_limit, fn, timeout, items[i]): i for i in indices}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = (True, fut.result())
                except BrokenProcessPool:
                    broken = True
                    continue
                except Exception as exc:  # raised inside fn, or its result could not be pickled
                    results[i] = (False, f"internal error: {_describe(exc)}")
                if on_done:
                    on_done(i)
    except BrokenProcessPool:
        broken = True
    if not broken:
        return []
    return [i for i in indices if results[i] is None]


class Progress:
    """A progress bar on stderr (rich, imported lazily), or nothing when stderr is not a terminal."""

    def __init__(self, total: int, label: str, enabled: bool):
        self._bar = None
        if enabled and total > 1:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as _P, TextColumn, TimeElapsedColumn
            from rich.console import Console

            self._bar = _P(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                           console=Console(stderr=True), transient=True)
            self._task = self._bar.add_task(label, total=total)
            self._bar.start()

    def advance(self, _i: int = 0) -> None:
        if self._bar is not None:
            self._bar.advance(self._task)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
