"""Child processes that live no longer than the run that started them, and a parent that takes them down.

A check's workers (the cohort pool, the events audits) and any process they start (a helper command run
per submission) must not outlive the run: a caller waiting for the run's standard error to close
(``subprocess.communicate``) would hang on an orphan that inherited it. Three ways a run ends, three
mechanisms:

- the parent is interrupted (SIGINT, SIGTERM: ``checker.cli.interrupt`` turns them into an exception):
  ``process_pool`` leaves its block by that exception, so it cancels the queued work and kills the
  workers at once instead of waiting for them (``abandon``); ``owned`` does the same for one child;
- the parent is killed (SIGKILL, the OOM killer), which no handler sees: each child asked the kernel to
  kill it when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``, through ctypes), and where that is
  not offered a thread watches the parent's pid and exits the child when it changes (``bind_to_parent``);
- the child itself is told to stop (SIGTERM) or the terminal's Ctrl-C reaches the whole process group:
  pool workers ignore SIGINT (the parent decides, and takes them down) and die at once on SIGTERM.

Reusable: a pool made here binds its workers; a Python child of another kind calls ``bind_to_parent``
first thing; a command started with ``subprocess.Popen(..., preexec_fn=die_with_parent())`` is killed
with the process that started it, and ``owned(popen)`` kills it when the block is left by an exception.
"""
from __future__ import annotations

import os
import signal
import threading
import time
from contextlib import contextmanager

#: prctl option: the signal a process receives when its parent thread exits (linux/prctl.h)
PR_SET_PDEATHSIG = 1
#: how often the portable fallback looks at the parent's pid (seconds)
WATCH_SECONDS = 0.5
#: a child whose parent is gone exits with this code (nobody reads it: the parent is gone)
ORPHANED_EXIT = 70
#: how long a killed worker is waited for, so it is reaped and not left a zombie (seconds)
REAP_SECONDS = 2.0

#: tests set it to False to act as a system without the parent-death signal
_prctl_fn = None


def _prctl():
    """libc's prctl (Linux), resolved once in the parent: a child between fork and exec loads nothing."""
    global _prctl_fn
    if _prctl_fn is None:
        import ctypes

        from checker.core.libc import function

        _prctl_fn = function("prctl", ctypes.c_int, ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong,
                             ctypes.c_ulong) or False
    return _prctl_fn or None


def death_signal(sig: int = signal.SIGKILL) -> bool:
    """Ask the kernel to send ``sig`` to this process when its parent dies; False where it cannot (not Linux)."""
    fn = _prctl()
    return fn is not None and fn(PR_SET_PDEATHSIG, int(sig), 0, 0, 0) == 0


def bind_to_parent(parent: int | None = None, watch: float = WATCH_SECONDS) -> None:
    """In a child process: end it when ``parent`` (the pid that started it; default: the current parent)
    is gone, also by SIGKILL. The kernel's parent-death signal where offered, else a watching thread."""
    parent = os.getppid() if parent is None else parent
    armed = death_signal()
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(ORPHANED_EXIT)
    if not armed:
        threading.Thread(target=_watch, args=(parent, watch), name="parent-watch", daemon=True).start()


def _watch(parent: int, every: float) -> None:
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(ORPHANED_EXIT)


def worker_init(parent: int) -> None:
    """A pool worker's first act: Ctrl-C is its parent's to handle, SIGTERM ends it, and it dies with its parent."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
    except (ValueError, OSError):  # not the main thread of the child (never for a pool worker)
        pass
    bind_to_parent(parent)


def die_with_parent(sig: int = signal.SIGKILL):
    """A ``preexec_fn`` for ``subprocess.Popen``: the command is sent ``sig`` when the process that started it
    dies (Linux; elsewhere None, the child then needs ``owned``). Resolved here, in the parent."""
    fn = _prctl()
    if fn is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        fn(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(ORPHANED_EXIT)
    return preexec


@contextmanager
def owned(proc):
    """``with owned(popen):``: the child (a ``subprocess.Popen`` or ``multiprocessing.Process``) is killed and
    reaped when the block is left by an exception (an interrupt, a bug); a normal exit leaves it alone."""
    try:
        yield proc
    except BaseException:
        _kill(proc)
        raise


def _kill(proc) -> None:
    try:
        proc.kill()
    except (OSError, ValueError, AttributeError):
        pass
    try:
        if hasattr(proc, "join"):
            proc.join(REAP_SECONDS)
        else:
            proc.wait(REAP_SECONDS)
    except Exception:  # noqa: BLE001  (reaping is best effort: the process is killed either way)
        pass


def pool_context():
    """The multiprocessing context workers start with: forked where the platform allows (they inherit the
    loaded rules and policy), else spawned."""
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if "fork" in methods else "spawn")


@contextmanager
def process_pool(jobs: int):
    """A ``ProcessPoolExecutor`` of ``jobs`` workers bound to this process (``worker_init``). Left normally it
    waits for its work as usual; left by an exception (an interrupt) it cancels the queued work and kills
    the workers without waiting for them (``abandon``)."""
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=pool_context(), initializer=worker_init,
                               initargs=(os.getpid(),))
    try:
        yield pool
    except BaseException:
        abandon(pool)
        raise
    pool.shutdown(wait=True)


def abandon(pool) -> None:
    """Stop a process pool now: queued work cancelled, its workers killed and reaped."""
    procs = list((getattr(pool, "_processes", None) or {}).values())
    try:
        pool.shutdown(wait=False, cancel_futures=True)
    except Exception:  # noqa: BLE001  (a broken pool: its workers are killed below all the same)
        pass
    for proc in procs:
        try:
            proc.kill()
        except (OSError, ValueError, AttributeError):
            pass
    deadline = time.monotonic() + REAP_SECONDS
    for proc in procs:
        try:
            proc.join(max(0.0, deadline - time.monotonic()))
        except Exception:  # noqa: BLE001
            pass
