"""The Dask executor: units become tasks on a ``dask.distributed`` cluster, results come back in order.

``--scheduler local:N`` starts a ``LocalCluster`` of N single-threaded worker processes for the run
(bound to 127.0.0.1); an address connects to a running scheduler. Fault handling matches the local
pool's contract: a task raising is that item's ``(False, why)``; a unit whose worker is lost
(``KilledWorker``) is retried once, alone, then is ``(False, LOST)`` (the cohort rules turn it into a
FAIL naming the unit); a unit over its time limit is ``(False, TIMED_OUT)`` and its worker is restarted;
Ctrl-C cancels the run's tasks on the cluster before it propagates.

What distributed (checked on 2026.7.1: ``python -c "import distributed; print(distributed.__version__)"``)
offers and what it does not:

- Results: ``as_completed`` yields each future as it finishes; ``Future.result`` fetches it, and
  recomputes a result that was lost with its worker.
- Lost workers: the scheduler counts, per task, the workers that died while running it
  (``distributed.scheduler.allowed-failures``) and then fails it with ``KilledWorker``. That count
  also charges every task that merely sat beside the culprit on the dying worker, so a unit queued
  next to a unit that kills workers could be given up with it; hence ``local:N`` sets it to 0 and the
  client retries each lost unit once, alone.
- A lost worker's slot: a ``LocalCluster`` (``SpecCluster._update_worker_status``) closes the nanny of a
  lost worker for good when, ``distributed.deploy.lost-worker-timeout`` (15 s) after the loss, no worker
  of that name is registered, as it sees it: a nanny still restarting its worker under load, or
  restarting it again after a later loss, is closed with the worker it is bringing up and the unit that
  worker was given (a bystander then loses its one retry and is reported as killing its worker), and the
  cluster shrinks for the rest of the run (to no worker: a run that never ends). A nanny already restarts
  its own worker, so for ``local:N`` that timeout is set out of reach for as long as the cluster lives
  (the value is read when a worker is lost, not when the cluster starts).
- Time limits: distributed has no per-task timeout and cannot interrupt a running task
  (``Client.cancel`` releases the task on the scheduler; the worker's thread runs on, a Python thread
  cannot be stopped from outside). So the limit is kept by the client: a unit reports its start
  (``Worker.log_event``, received with ``Client.subscribe_topic``), and at start + limit a timer
  cancels its future and restarts its worker through the nanny (``Client.restart_workers``), which ends
  the runaway thread with its process. A worker without a nanny is terminated by the scheduler instead.
"""
from __future__ import annotations

import logging
import os
import sys
import threading
import uuid
from contextlib import contextmanager
from typing import Any

from distributed import CancelledError, KilledWorker, WorkerPlugin, as_completed, get_worker

from checker.engine.executors import Executor, ExecutorUnavailable
from checker.engine.pool import crash_text

LOST = ("the Dask worker running it was lost twice (killed by a signal, out of memory or exited): "
        "retried once, then given up")
TIMED_OUT = "internal error: ItemTimeout: the check ran longer than its time limit"
CONNECT_TIMEOUT = "20s"
#: seconds a nanny may take to restart the worker of a unit over its limit (then the cluster's business)
RESTART_TIMEOUT = 60
#: ``local:N``: one retry is ours (alone, see the module's note), so the scheduler gives up at the first
#: loss; the stack-sampling profiler (for a dashboard we do not start) would steal the GIL every 10 ms; a
#: lost worker's nanny is never closed by the cluster (it restarts the worker itself; see the module's note).
#: Set while the cluster lives: ``lost-worker-timeout`` is read each time a worker is lost
LOCAL_CLUSTER_CONFIG = {"distributed.scheduler.allowed-failures": 0, "distributed.worker.profile.enabled": False,
                        "distributed.deploy.lost-worker-timeout": "3650 days"}


class Setup(WorkerPlugin):
    """Runs ``fn(arg)`` on every worker of the cluster, including the ones restarted after a loss."""

    def __init__(self, fn, arg):
        self.fn = fn
        self.arg = arg

    def setup(self, worker) -> None:
        self.fn(self.arg)


@contextmanager
def _workers_stderr_quiet():
    """While ``local:N`` starts its worker processes, descriptor 2 is /dev/null, which they inherit: a
    terminal's Ctrl-C reaches the whole process group, and a worker still starting would print a
    traceback there while the run itself (``checker.cli.interrupt``) stops in one line. The cluster's logs
    are silenced anyway; a worker that dies is reported as a lost unit. Ctrl-C stays this process's."""
    try:
        saved = os.dup(2)
    except OSError:  # started with descriptor 2 closed: nothing to keep quiet
        yield
        return
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 2)
        os.close(null)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


class QuietOnCtrlC(WorkerPlugin):
    """``local:N`` workers, once set up, ignore SIGINT (those restarted later too, whose standard error is
    this process's): the run closes the cluster itself on Ctrl-C (``_workers_stderr_quiet``)."""

    def setup(self, worker) -> None:
        import signal

        try:
            signal.signal(signal.SIGINT, signal.SIG_IGN)
        except ValueError:  # not the worker process's main thread: it keeps its own handling
            pass


def run_task(fn, item, report_start):
    """What a worker runs for one unit: ``fn(item)``, an exception as the unit's ``(False, why)``.

    ``report_start=(topic, key)``: first tell the client that the unit started and on which worker
    (its time limit runs from here)."""
    if report_start is not None:
        topic, key = report_start
        worker = get_worker()
        worker.log_event(topic, {"key": key, "worker": worker.address})
    try:
        return True, fn(item)
    except Exception as exc:  # isolation: one unit never stops the others
        return False, f"internal error: {crash_text(exc)}"


class _Deadlines:
    """The client-side time limit of a run's units (see the module's note): armed when a unit reports
    its start, it cancels the unit's future and restarts its worker once the limit has passed."""

    def __init__(self, client, seconds: int):
        self.client = client
        self.seconds = seconds
        self.topic = f"endpoints-started-{uuid.uuid4().hex[:12]}"
        self.lock = threading.Lock()
        self.running: dict[str, Any] = {}  # key -> future: units not collected yet
        self.expired: set[str] = set()
        self.timers: list[threading.Timer] = []
        client.subscribe_topic(self.topic, self._started)

    def watch(self, fut) -> None:
        with self.lock:
            self.running[fut.key] = fut

    def collect(self, fut) -> bool:
        """Stop watching ``fut``; True when its limit passed first (it was cancelled for that)."""
        with self.lock:
            self.running.pop(fut.key, None)
            return fut.key in self.expired

    def _started(self, event) -> None:
        """``subscribe_topic`` handler (on the client's event loop): ``event`` is (timestamp, message)."""
        msg = event[1]
        with self.lock:
            if msg.get("key") not in self.running:
                return
            timer = threading.Timer(self.seconds, self._expire, (msg["key"], msg.get("worker")))
            timer.daemon = True
            self.timers.append(timer)
        timer.start()

    def _expire(self, key: str, worker: str | None) -> None:
        with self.lock:
            fut = self.running.pop(key, None)
            if fut is None:  # collected in the meantime
                return
            self.expired.add(key)
        try:
            self.client.cancel([fut], force=True)  # as_completed yields it now; the client reports it
            if worker:
                self.client.restart_workers([worker], timeout=RESTART_TIMEOUT, raise_for_error=False)
        except Exception:  # noqa: BLE001  (the scheduler may be gone: the unit is reported as timed out anyway)
            pass

    def close(self) -> None:
        with self.lock:
            timers, self.timers = self.timers, []
        for timer in timers:
            timer.cancel()
        try:
            self.client.unsubscribe_topic(self.topic)
        except Exception:  # noqa: BLE001  (best effort: the cluster may be going away)
            pass


class DaskExecutor(Executor):
    name = "dask"

    def __init__(self, where: tuple, workers: int = 1, progress: bool = False, stream=None):
        self.where = where
        self.workers = max(1, workers)
        self.progress = progress
        self.stream = stream if stream is not None else sys.stderr
        self.client = None
        self.cluster = None
        self.config = None  # LOCAL_CLUSTER_CONFIG, set while our LocalCluster lives

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
            self.config = dask.config.set(LOCAL_CLUSTER_CONFIG)
            self.config.__enter__()
            try:
                with _workers_stderr_quiet():
                    self.cluster = LocalCluster(n_workers=int(value), threads_per_worker=1, processes=True,
                                                host="127.0.0.1", dashboard_address="127.0.0.1:0",
                                                silence_logs=logging.CRITICAL)
            except BaseException:
                self.config, config = None, self.config
                config.__exit__(None, None, None)
                raise
            self.client = Client(self.cluster, set_as_default=False)
            self.client.register_plugin(QuietOnCtrlC(), name="endpoints-quiet-on-ctrl-c")
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
        deadlines = _Deadlines(client, timeout) if timeout else None

        def submit(i: int, attempt: int):
            key = f"endpoints-unit-{token}-{i}-{attempt}"
            report = (deadlines.topic, key) if deadlines is not None else None
            fut = client.submit(run_task, fn, items[i], report, pure=False, key=key)
            if deadlines is not None:
                deadlines.watch(fut)
            return fut

        def finish(i: int, ok: bool, value: Any) -> None:
            results[i] = (ok, value)
            if on_result is not None:
                on_result(i, ok, value)
            if on_done is not None:
                on_done(i)

        live: dict = {}
        try:
            live.update((submit(i, 0), i) for i in range(n))
            lost = self._drain(live, finish, deadlines, names, timeout)
            for i in lost:  # each lost unit once more, alone, so a unit that kills workers takes no other down
                self._say(f"dask: the worker checking {names[i]} was lost; retrying it alone")
                live.update({submit(i, 1): i})
                if self._drain(live, finish, deadlines, names, timeout):
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
            if deadlines is not None:
                deadlines.close()
            if setup is not None:
                try:
                    client.unregister_worker_plugin(plugin)
                except Exception:  # noqa: BLE001  (best effort: the cluster may be going away)
                    pass
        return results

    def _drain(self, live: dict, finish, deadlines, names, timeout: int) -> list[int]:
        """Collect every future in ``live`` as it completes (emptying it); return the items whose worker was lost."""
        lost: list[int] = []
        for fut in as_completed(list(live), loop=self.client.loop):
            i = live.pop(fut)
            if deadlines is not None and deadlines.collect(fut):
                fut.release()
                self._say(f"dask: {names[i]} ran past its time limit ({timeout} s); its worker was restarted")
                finish(i, False, TIMED_OUT)
                continue
            outcome = self._outcome(fut)
            fut.release()
            if outcome is None:
                lost.append(i)
            else:
                finish(i, *outcome)
        return lost

    @staticmethod
    def _outcome(fut):
        """``(ok, value)`` of a completed future, or None when its worker was lost (or it was cancelled by
        someone else, e.g. a restart of the cluster)."""
        try:
            return fut.result()
        except (KilledWorker, CancelledError):
            return None
        except Exception as exc:  # noqa: BLE001  (the result could not be fetched or unpickled; Ctrl-C propagates)
            return False, f"internal error: {crash_text(exc)}"

    def close(self) -> None:
        client, cluster, self.client, self.cluster = self.client, self.cluster, None, None
        for thing in (client, cluster):
            if thing is not None:
                try:
                    thing.close()
                except Exception:  # noqa: BLE001  (closing is best effort)
                    pass
        config, self.config = self.config, None
        if config is not None:
            config.__exit__(None, None, None)
