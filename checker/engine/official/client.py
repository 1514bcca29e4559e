"""Drive the official checker's child process (``child.py``): submit a submission, collect its answer.

One child per process that checks (the CLI's, each cohort worker's, a server's), started early and kept:
``child_for(spec)`` returns it. A request is sent before our own check of the submission starts and its
answer read after, so the two run side by side. Each submission has ``spec.timeout`` seconds from the moment
the child can start on it; past that the child is killed (a FIFO blocks the official forever) and the
answer says so. A child that dies, or exits after a MemoryError, is replaced for the next submission.
"""
from __future__ import annotations

import atexit
import itertools
import json
import os
import select
import signal
import subprocess
import threading
import time
from typing import Any

from checker.engine.official import IMPORT_TIMEOUT, Spec

CHILD = os.path.join(os.path.dirname(os.path.abspath(__file__)), "child.py")
#: the environment the child sees: nothing that changes what Python imports, no registry override (the
#: request names the registries), no proxy settings
_KEEP_ENV = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "SYSTEMROOT", "TZ")


class OfficialChild:
    """One child process serving many submissions, in the order they were submitted."""

    def __init__(self, spec: Spec):
        self.spec = spec
        self.proc: subprocess.Popen | None = None
        self.version: str | None = None
        self.failed: str | None = None  # the child could not import the official: why
        self._buf = b""
        self._ready = False
        self._answers: dict[int, dict] = {}
        self._queue: list[tuple[int, dict]] = []  # submitted, not answered: (id, request)
        self._busy_since = 0.0  # when the child could start on the oldest unanswered request
        self._started = 0.0  # when the current child was started
        self._ids = itertools.count(1)
        self._lock = threading.RLock()
        self._early: dict[str, int] = {}  # request -> ticket of a submission sent before its check began

    # --- the process -------------------------------------------------------------------------------------

    def start(self) -> None:
        with self._lock:
            if self.proc is not None or self.failed:
                return
            env = {k: v for k, v in os.environ.items() if k in _KEEP_ENV}  # bytecode cached as its CLI would
            memory = self.spec.memory_mb * 1024 * 1024 if self.spec.memory_mb > 0 else 0
            try:
                self.proc = subprocess.Popen([self.spec.python, CHILD, str(memory)], stdin=subprocess.PIPE,
                                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, cwd="/",
                                             start_new_session=True, close_fds=True)
            except OSError as exc:
                self.failed = f"{self.spec.python} cannot be started: {exc}"
                return
            self._buf, self._ready, self._started = b"", False, time.monotonic()
            for ident, req in self._queue:  # re-sent to a replacement child
                self._write(req)

    def close(self, grace: float = 0.0) -> None:
        """End the child and reap it: at once (it may be blocked inside the official), or, with ``grace``, by
        closing its input and letting it exit for up to that many seconds first (an idle child at shutdown)."""
        with self._lock:
            proc, self.proc = self.proc, None
            if proc is None:
                return
            for stream in (proc.stdin, proc.stdout):
                try:
                    stream.close()
                except OSError:
                    pass
            try:
                proc.wait(timeout=grace) if grace > 0 and not self._queue else None
            except subprocess.TimeoutExpired:
                pass
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass

    # --- requests ----------------------------------------------------------------------------------------

    def submit(self, path: str, overrides: dict | None = None) -> int:
        """Queue one submission root; returns the ticket ``collect`` takes."""
        with self._lock:
            ident = next(self._ids)
            req = {"id": ident, "path": os.path.abspath(path), **{k: os.path.abspath(v)
                                                                   for k, v in (overrides or {}).items() if v}}
            if not self._queue:
                self._busy_since = time.monotonic()
            self._queue.append((ident, req))
            self.start()
            if self.proc is not None:
                self._write(req)
            return ident

    def submit_early(self, path: str, overrides: dict | None = None) -> None:
        """Send a submission before its check begins (``checker.cli.prestart``: before the engine is even
        imported); ``take`` then hands out this ticket instead of sending the same request again."""
        with self._lock:
            self._early[_request_key(path, overrides)] = self.submit(path, overrides)

    def take(self, path: str, overrides: dict | None = None) -> int:
        """The ticket of this request: the one sent early, else a new one."""
        with self._lock:
            ticket = self._early.pop(_request_key(path, overrides), None)
            return ticket if ticket is not None else self.submit(path, overrides)

    def collect(self, ident: int) -> dict:
        """The answer for a ticket: the official's ERRORs, or its crash, hang or memory blow-up."""
        with self._lock:
            while ident not in self._answers:
                if self.failed:
                    self._answer_all({"unavailable": self.failed})
                    continue
                if self.proc is None:
                    self.start()
                    continue
                line = self._next_line()
                if line is None:
                    continue  # the child was replaced (or failed): loop decides
                self._take(line)
            return self._answers.pop(ident)

    def abandon(self, ident: int) -> None:
        """Our side gave up on a ticket (its check was interrupted): the child may be busy with it, so it is
        replaced, and the other tickets are re-sent."""
        with self._lock:
            if any(i == ident for i, _r in self._queue):
                self._queue = [(i, r) for i, r in self._queue if i != ident]
                self.close()
            self._answers.pop(ident, None)

    # --- the pipe ----------------------------------------------------------------------------------------

    def _write(self, req: dict) -> None:
        try:
            self.proc.stdin.write((json.dumps(req) + "\n").encode())
            self.proc.stdin.flush()
        except (OSError, ValueError):
            pass  # the child is gone: reading says how

    def _deadline(self) -> tuple[float, str]:
        if not self._ready:
            return self._started + IMPORT_TIMEOUT, f"importing the official checker took longer than {IMPORT_TIMEOUT:.0f} s"
        return self._busy_since + self.spec.timeout, f"the automated check did not finish within {self.spec.timeout:g} s"

    def _next_line(self) -> bytes | None:
        """The child's next line, or None after it was killed for its time or found dead (answers set)."""
        fd = self.proc.stdout.fileno()
        while b"\n" not in self._buf:
            deadline, why = self._deadline()
            left = deadline - time.monotonic()
            ready = select.select([fd], [], [], max(0.0, left))[0] if left > 0 else select.select([fd], [], [], 0)[0]
            if not ready:
                self._lost("timeout", why)
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                self._lost("crash", self._death())
                return None
            self._buf += chunk
        line, _, self._buf = self._buf.partition(b"\n")
        return line

    def _take(self, line: bytes) -> None:
        try:
            msg = json.loads(line)
        except ValueError:
            return  # not ours (the official printed to stdout)
        if not isinstance(msg, dict):
            return
        if "ready" in msg:
            if msg["ready"]:
                self._ready, self.version = True, str(msg.get("version") or "")
                self._busy_since = max(self._busy_since, time.monotonic())
            else:
                self.failed = f"{self.spec.python} cannot run the official checker: {msg.get('error')}"
                self.close()
            return
        ident = msg.get("id")
        if not self._queue or self._queue[0][0] != ident:
            return
        self._queue.pop(0)
        msg["version"] = self.version
        self._answers[ident] = msg
        self._busy_since = time.monotonic()
        if msg.get("kind") == "memory":
            self.close()  # it exits after a MemoryError: the next submission gets a fresh child

    def _lost(self, kind: str, why: str) -> None:
        """The oldest request's answer when the child hung or died; the child is replaced for the rest. Before
        the official was imported, the official cannot be run here at all (``failed``)."""
        if not self._ready:
            self.failed = self.failed or why
            self.close()
            return
        if self._queue:
            ident, _req = self._queue.pop(0)
            self._answers[ident] = {"id": ident, "errors": [], "crash": why, "kind": kind, "network": [],
                                    "version": self.version}
        self.close()
        self._busy_since = time.monotonic()

    def _death(self) -> str:
        proc = self.proc
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        if not self._ready:
            return f"{self.spec.python} exited before the official checker was imported (exit {code})"
        if code is not None and code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"the automated check's process was killed by {name} (out of memory, or a crash in C code)"
        return f"the automated check's process exited ({code}) without an answer"

    def _answer_all(self, base: dict[str, Any]) -> None:
        for ident, _req in self._queue:
            self._answers[ident] = {"id": ident, **base}
        self._queue.clear()


def _request_key(path: str, overrides: dict | None) -> str:
    return json.dumps([os.path.abspath(path), sorted((k, os.path.abspath(v)) for k, v in (overrides or {}).items()
                                                     if v)])


#: one child per (process, spec): a forked worker never uses its parent's
_CHILDREN: dict[tuple[int, Spec], OfficialChild] = {}


def child_for(spec: Spec) -> OfficialChild:
    """This process's child for ``spec``, started on first use."""
    key = (os.getpid(), spec)
    child = _CHILDREN.get(key)
    if child is None:
        for (pid, _s) in list(_CHILDREN):
            if pid != os.getpid():
                del _CHILDREN[(pid, _s)]  # a parent's, inherited by fork: never signalled from here
        if not any(pid == os.getpid() for pid, _s in _CHILDREN):
            _reap_at_worker_exit()
        child = _CHILDREN[key] = OfficialChild(spec)
    child.start()
    return child


def _reap_at_worker_exit() -> None:
    """A worker process of a pool ends without running atexit: multiprocessing's own exit hook reaps the
    child there (so it is never left behind, and its CPU time counts in the worker's)."""
    import multiprocessing
    import multiprocessing.util

    if multiprocessing.parent_process() is not None:
        multiprocessing.util.Finalize(None, close_all, exitpriority=10)


@atexit.register
def close_all() -> None:
    """End and reap this process's children (atexit, the console script's quick exit, a server's shutdown):
    an idle child is told to exit (its input closed) and given a moment, then killed."""
    for (pid, _s), child in list(_CHILDREN.items()):
        if pid == os.getpid():
            child.close(grace=0.2)
            del _CHILDREN[(pid, _s)]
