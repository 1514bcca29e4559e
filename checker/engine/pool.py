"""The one worker pool: run a function over many items in worker processes, results in item order.

Two contracts over the same processes. ``run_parallel`` (run-folder audits) returns plain results and
redoes in-process whatever a worker could not deliver. ``run_isolated`` (cohort units) isolates crashes
item by item:

``run_isolated(fn, items, jobs)`` returns one ``(ok, value)`` per item, in item order: ``(True,
result)`` or ``(False, why)`` when ``fn`` raised or its worker process died (a segfault, an
``os._exit``, the OOM killer). A dead worker breaks the whole pool, so the items that were still
in flight are re-run one at a time in a fresh single-worker pool: only the item that really kills
its process is reported as crashed, the others get their normal result. ``jobs == 1`` runs
in-process with the same contract (results pickled and unpickled, so both modes return the same
objects). Workers are forked where the platform allows, inheriting the loaded rules and policy, and live
no longer than this process (``checker.engine.lifetime.process_pool``).
"""
from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from checker.engine.progress import Progress

#: SIGALRM takes a C unsigned int: a longer limit is no limit in practice (the CLI refuses it anyway)
MAX_ALARM_SECONDS = (1 << 31) - 1
DIED = "the worker process died while checking this item (killed by a signal, out of memory or exited)"


def default_jobs() -> int:
    """The number of usable cores (the process's CPU affinity where known)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def crash_text(exc: BaseException) -> str:
    """``Type: first line of the message`` (200 characters at most): how a unit's crash is reported."""
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _call(fn: Callable, item: Any) -> tuple[bool, Any]:
    """In-process call with the same contract as a worker: exceptions and unpicklable results become crashes."""
    import pickle  # only when items run (a single package is checked without the pool)

    try:
        return True, pickle.loads(pickle.dumps(fn(item), protocol=pickle.HIGHEST_PROTOCOL))
    except Exception as exc:  # isolation: one item never stops the others
        return False, f"internal error: {crash_text(exc)}"


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
    signal.alarm(min(int(timeout), MAX_ALARM_SECONDS))
    try:
        return fn(item)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_isolated(fn: Callable, items: Sequence[Any], jobs: int = 1,
                 on_done: Callable[[int], None] | None = None, timeout: int = 0,
                 on_result: Callable[[int, bool, Any], None] | None = None) -> list[tuple[bool, Any]]:
    """Apply ``fn`` to every item; ``on_done(i)`` is called in the parent as each item finishes.

    ``timeout`` (seconds, 0 = none) limits each item in worker processes: an item that runs longer
    becomes ``(False, "internal error: ItemTimeout: ...")``. Serial runs have no limit.
    ``on_result(i, ok, value)``, when given, sees each result just before ``on_done(i)`` (progress).
    """
    n = len(items)
    results: list[tuple[bool, Any] | None] = [None] * n
    if on_result is not None:
        on_done = _reporting(results, on_result, on_done)
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


def _reporting(results: list, on_result: Callable, on_done: Callable | None) -> Callable[[int], None]:
    def done(i: int) -> None:
        ok, value = results[i]
        on_result(i, ok, value)
        if on_done:
            on_done(i)
    return done


def _pool_pass(fn, items, indices, jobs, results, on_done, timeout=0) -> list[int]:
    """Run ``indices`` in one pool; return the indices left unfinished because the pool broke."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    from checker.engine.lifetime import process_pool

    broken = False
    try:
        with process_pool(jobs) as pool:  # workers die with this process; an interrupt kills them at once
            futures = {pool.submit(_with_limit, fn, timeout, items[i]): i for i in indices}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = (True, fut.result())
                except BrokenProcessPool:
                    broken = True
                    continue
                except Exception as exc:  # raised inside fn, or its result could not be pickled
                    results[i] = (False, f"internal error: {crash_text(exc)}")
                if on_done:
                    on_done(i)
    except BrokenProcessPool:
        broken = True
    if not broken:
        return []
    return [i for i in indices if results[i] is None]


def run_parallel(func: Callable[[Any], Any], items: Sequence[Any], jobs: int | None = None,
                 label: str = "working", progress: bool | None = None,
                 sizes: Sequence[int] | None = None) -> list[Any]:
    """``[func(x) for x in items]``, spread over ``jobs`` processes (default: the core count).

    ``func`` must be a module-level function and its results picklable. A worker that dies
    (or a pool that cannot start) falls back to running the remaining items in-process.
    ``sizes`` (bytes per item) makes the progress bar count bytes instead of items.
    """
    items = list(items)
    jobs = default_jobs() if not jobs or jobs < 1 else jobs
    weight = list(sizes) if sizes is not None else [1] * len(items)
    bar = Progress(sum(weight), label, enabled=progress if progress is not None else None,
                   unit="bytes" if sizes is not None else "items")
    results: list[Any] = [None] * len(items)
    pending = list(range(len(items)))
    try:
        if jobs > 1 and len(items) > 1:
            pending = _pool(func, items, min(jobs, len(items)), results, bar, weight)
        for i in pending:
            results[i] = func(items[i])
            bar.step(weight[i])
    finally:
        bar.close()
    return results


def _pool(func, items, jobs: int, results: list, bar: Progress, weight: list[int]) -> list[int]:
    """Fill ``results`` from a process pool; return the indexes still to do in-process."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    from checker.engine.lifetime import process_pool

    done: set[int] = set()
    try:
        with process_pool(jobs) as pool:
            futures = {pool.submit(func, items[i]): i for i in range(len(items))}
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    results[i] = fut.result()
                except Exception:  # noqa: BLE001  (a dead worker; redone in-process below)
                    continue
                done.add(i)
                bar.step(weight[i])
    except (OSError, BrokenProcessPool, RuntimeError):
        pass
    return [i for i in range(len(items)) if i not in done]
