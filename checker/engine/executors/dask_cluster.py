"""The Dask executor: units become tasks on a ``dask.distributed`` cluster, results come back in order.

``--scheduler local:N`` starts a ``LocalCluster`` of N single-threaded worker processes for the run
(bound to 127.0.0.1); an address connects to a running scheduler. Fault handling matches the local
pool's contract: a task raising is that item's ``(False, why)``; a unit whose worker is lost is
retried once, alone, then is ``(False, LOST)`` (the cohort rules turn it into a FAIL naming the unit);
each unit has a time limit enforced inside the worker, with a client-side backstop; Ctrl-C cancels
the run's tasks on the cluster before it propagates.
"""
from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
import time
import uuid
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from checker.engine.executors import Executor, ExecutorUnavailable
from checker.engine.pool import _describe

LOST = ("the Dask worker running it was lost twice (killed by a signal, out of memory or exited): "
        "retried once, then given up")
TIMED_OUT = "internal error: ItemTimeout: the check ran longer than its time limit"
#: beyond twice the per-unit limit plus this, a unit whose worker does not answer is given up client-side
BACKSTOP_GRACE = 30.0
POLL = 0.05
CONNECT_TIMEOUT = "20s"
#: how long to wait for a done future's result before looking again (it may be on a worker just lost)
RESULT_WAIT = 30
AGAIN = object()
#: ``local:N``: one retry is ours (alone, see run_units), so the scheduler gives up at the first loss;
#: the stack-sampling profiler (for a dashboard we do not start) would steal the GIL every 10 ms
LOCAL_CLUSTER_CONFIG = {"distributed.scheduler.allowed-failures": 0, "distributed.worker.profile.enabled": False}


class UnitTimeout(BaseException):
    """Raised inside the worker thread at the unit's deadline (a BaseException: no ``except Exception``
    on the way swallows it)."""


class _Deadline:
    """Raise ``UnitTimeout`` in the calling thread after ``seconds`` unless disarmed first."""

    def __init__(self, seconds: float):
        self.tid = threading.get_ident()
        self.lock = threading.Lock()
        self.state = "armed"
        self.timer = threading.Timer(seconds, self._fire)
        self.timer.daemon = True
        self.timer.start()

    def _fire(self) -> None:
        with self.lock:
            if self.state == "armed":
                self.state = "fired"
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), ctypes.py_object(UnitTimeout))

    def disarm(self) -> None:
        self.timer.cancel()
        with self.lock:
            if self.state == "fired":  # not delivered yet: never let it escape into Dask's own code
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self.tid), None)
            self.state = "done"


class Setup(WorkerPlugin):
    """Runs ``fn(arg)`` on every worker of the cluster, including the ones restarted after a loss."""

    def __init__(self, fn, arg):
        self.fn = fn
        self.arg = arg

    def setup(self, worker) -> None:
        self.fn(self.arg)


def run_task(fn, item, timeout):
    """What a worker runs for one item: ``fn(item)`` under its time limit, exceptions as results."""
    deadline = None
    try:
        try:
            deadline = _Deadline(timeout) if timeout else None
            return True, fn(item)
        finally:
            if deadline is not None:
                deadline.disarm()
    except UnitTimeout:
        return False, TIMED_OUT
    except Exception as exc:  # isolation: one unit never stops the others
        return False, f"internal error: {_describe(exc)}"


class DaskExecutor(Executor):
    name = "dask"

    def __init__(self, where: tuple, workers: int = 1, progress: bool = False, stream=None):
        self.where = where
        self.workers = max(1, workers)
        self.progress = progress
        self.stream = stream if stream is not None else sys.stderr
        self.client = None
        self.cluster = None

    def connect(self):
        """The client, started on first use (a check with nothing to distribute starts no cluster)."""
        if self.client is not None:
            return self.client
        import dask
        from distributed import Client, LocalCluster

        kind, value = self.where
        if kind == "default":
            address = os.environ.get("DASK_SCHEDULER_ADDRESS")
            kind, value = ("address", address) if address else ("local", self.workers)
        if kind == "local":
            with dask.config.set(LOCAL_CLUSTER_CONFIG):
                self.cluster = LocalCluster(n_workers=int(value), threads_per_worker=1, processes=True,
                                            host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                            silence_logs=logging.CRITICAL)
            self.client = Client(self.cluster, set_as_default=False)
        else:
            try:
                self.client = Client(value, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise ExecutorUnavailable(f"cannot reach the Dask scheduler at {value}: {exc}") from None
        if self.progress:
            info = self.client.scheduler_info()
            self._say(f"dask: {len(info.get('workers', {}))} workers at {info.get('address', value)}")
        return self.client

    def _say(self, text: str) -> None:
        self.stream.write(f"\r{text}\n")
        self.stream.flush()

    def run_units(self, fn, items, names=(), on_done=None, on_result=None, timeout=0, setup=None):
        n = len(items)
        results: list[Any] = [None] * n
        if not n:
            return results
        client = self.connect()
        names = list(names) or [str(i) for i in range(n)]
        token = uuid.uuid4().hex[:12]
        plugin = f"endpoints-setup-{token}"
        if setup is not None:
            client.register_plugin(Setup(*setup), name=plugin)

        def submit(i: int, attempt: int):
            return client.submit(run_task, fn, items[i], timeout, pure=False,
                                 key=f"endpoints-unit-{token}-{i}-{attempt}")

        def finish(i: int, ok: bool, value: Any) -> None:
            results[i] = (ok, value)
            if on_result is not None:
                on_result(i, ok, value)
            if on_done is not None:
                on_done(i)

        live: dict = {}
        try:
            live.update((submit(i, 0), i) for i in range(n))
            lost = self._drain(live, finish, timeout)
            for i in lost:  # each lost unit once more, alone, so a unit that kills workers takes no other down
                self._say(f"dask: the worker checking {names[i]} was lost; retrying it alone")
                live.update({submit(i, 1): i})
                if self._drain(live, finish, timeout):
                    self._say(f"dask: the worker checking {names[i]} was lost again; reported as not checked")
                    finish(i, False, LOST)
        except BaseException:  # Ctrl-C (or a client failure): the cluster stops working for this run
            if live:
                try:
                    client.cancel(list(live), force=True)
                except Exception:  # noqa: BLE001  (the scheduler may be gone already)
                    pass
            raise
        finally:
            if setup is not None:
                try:
                    client.unregister_worker_plugin(plugin)
                except Exception:  # noqa: BLE001  (best effort: the cluster may be going away)
                    pass
        return results

    def _drain(self, live: dict, finish, timeout: int) -> list[int]:
        """Collect every future in ``live`` (emptying it); return the items whose worker was lost."""
        from distributed import as_completed

        lost: list[int] = []
        started: dict = {}
        next_watch = time.monotonic() + 2.0
        ac = as_completed(list(live), loop=self.client.loop)
        while live:
            batch = ac.next_batch(block=False)
            for fut in batch:
                if fut not in live:  # given up by the backstop
                    continue
                outcome = self._outcome(fut)
                if outcome is AGAIN:  # its result was lost with a worker and is being recomputed
                    ac.add(fut)
                    continue
                i = live.pop(fut)
                fut.release()
                if outcome is None:
                    lost.append(i)
                else:
                    finish(i, *outcome)
            if not batch:
                time.sleep(POLL)
                if timeout and time.monotonic() >= next_watch:
                    next_watch = time.monotonic() + 2.0
                    self._backstop(live, started, timeout, finish)
        return lost

    @staticmethod
    def _outcome(fut):
        """``(ok, value)`` of a done future; None when its worker was lost; AGAIN when it is not done."""
        status = fut.status
        if status not in ("finished", "error", "cancelled"):
            return AGAIN
        try:
            return fut.result(timeout=RESULT_WAIT)
        except TimeoutError:
            return AGAIN
        except BaseException as exc:  # noqa: BLE001  (KeyboardInterrupt is re-raised below)
            if isinstance(exc, KeyboardInterrupt):
                raise
            name = type(exc).__name__
            if name == "KilledWorker" or "Cancelled" in name or status == "cancelled":
                return None
            return False, f"internal error: {_describe(exc)}"

    def _backstop(self, live: dict, started: dict, timeout: int, finish) -> None:
        """Give up units processing for longer than the limit allows (a call the deadline cannot break)."""
        now = time.monotonic()
        try:
            processing = {k for keys in self.client.processing().values() for k in keys}
        except Exception:  # noqa: BLE001  (an unanswered poll is retried at the next tick)
            return
        for fut, i in list(live.items()):
            if fut.key in processing:
                started.setdefault(fut.key, now)
            if fut.key in started and now - started[fut.key] > 2 * timeout + BACKSTOP_GRACE:
                live.pop(fut)
                fut.cancel(force=True)
                finish(i, False, TIMED_OUT + " (its worker stopped answering)")

    def close(self) -> None:
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        for thing in (client, cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # noqa: BLE001  (closing is best effort)
                    pass
