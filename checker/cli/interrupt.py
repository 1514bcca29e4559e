"""SIGINT and SIGTERM end a check promptly and honestly (docs/robustness.md, "Signals").

While ``check`` runs, both signals raise ``Interrupted`` in the main thread, wherever it is: waiting for
workers (``checker.engine.lifetime.process_pool`` then cancels the queued work and kills them), loading,
writing a fix or a report (each temporary file is removed on the way out, every old output is kept).
The command then says in one line what was not written and exits 128 + the signal's number (130 for
SIGINT, 143 for SIGTERM), never 1 ("a finding at or above --fail-on"). A second signal while the first is
being handled ends the process at once, after removing the temporary files it still holds.
"""
from __future__ import annotations

import os
import signal
import threading
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: the (format, target) pairs of the run in progress (``begin``), and whether they were all delivered already
OUTPUTS: list = []
DELIVERED: list = []


def begin(pairs: list) -> None:
    """The run's outputs, named by the line an interrupt prints."""
    OUTPUTS[:] = pairs
    DELIVERED[:] = []


def delivered() -> None:
    """Every output was written (or failed and said so): a signal from here on leaves nothing unwritten."""
    DELIVERED[:] = [True]


class Interrupted(KeyboardInterrupt):
    """A signal asked the run to stop (a KeyboardInterrupt, so ``except Exception`` isolation never eats it)."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum
        self.written: list = []  # (format, target) written before the signal
        self.cut_short: str | None = None  # a target written in place when the signal came (incomplete)
        self.fixed: list = []  # files --fix had replaced before the signal

    @property
    def exit_code(self) -> int:
        return 128 + self.signum

    @property
    def name(self) -> str:
        try:
            return signal.Signals(self.signum).name
        except ValueError:
            return f"signal {self.signum}"


@contextmanager
def signals_end_the_run():
    """Within the block SIGINT and SIGTERM raise ``Interrupted`` (main thread only: elsewhere a no-op)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    first: list[int] = []

    def handler(signum, _frame):
        if first:  # already stopping: a second signal means now
            from checker.core import scratch

            scratch.remove_all()
            os._exit(128 + first[0])
        first.append(signum)
        raise Interrupted(signum)

    old = {}
    try:
        for sig in SIGNALS:
            old[sig] = signal.signal(sig, handler)
        yield
    finally:
        for sig, was in old.items():
            signal.signal(sig, was)


def stopped(exc: Interrupted) -> int:
    """After an interrupt: every temporary file of ours removed, the one line on stderr; the exit code."""
    from checker.cli.output import warn
    from checker.core import scratch

    scratch.remove_all()
    warn(f"error: {unwritten_line(exc, OUTPUTS)}")
    return exc.exit_code


def unwritten_line(exc: Interrupted, pairs: list[tuple[str, str]]) -> str:
    """The one line: which signal, what was written before it, what was not (and is as it was)."""
    if DELIVERED:
        return f"interrupted by {exc.name} after the reports were written"
    written = {out for _fmt, out in exc.written}
    done = [f"{_where(out)} ({fmt})" for fmt, out in exc.written]
    missing = [f"{_where(out)} ({fmt}{', cut short' if out == exc.cut_short else ''})"
               for fmt, out in pairs if out not in written]
    parts = [f"interrupted by {exc.name}"]
    if exc.fixed:
        parts.append(f"fixed before it: {', '.join(exc.fixed)}")
    if done:
        parts.append(f"written: {', '.join(done)}")
    if missing:
        kept = [out for fmt, out in pairs if out not in written and out != "-" and out != exc.cut_short]
        parts.append(f"not written: {', '.join(missing)}"
                     + (" (each file keeps its previous content)" if kept else ""))
    return "; ".join(parts)


def _where(out: str) -> str:
    return "standard output" if out == "-" else out
