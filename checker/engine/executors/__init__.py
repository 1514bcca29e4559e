"""The executor seam: where cohort units and events audits run, behind one interface the pipeline calls.

``local`` (the default) is today's worker pool (``checker.engine.pool``); ``dask`` sends the same
units to a ``dask.distributed`` cluster (``checker.engine.executors.dask_cluster``), imported only
when asked for, so a local check never loads Dask. Both return one ``(ok, value)`` per item in item
order, so the report does not depend on where the units ran.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Sequence

EXECUTORS = ("local", "dask")
#: what to install when ``--executor dask`` cannot import Dask
INSTALL_HINT = "pip install 'endpoints-checker[dask]'"
_LOCAL_N = re.compile(r"^local:(\d{1,4})$")


class ExecutorUnavailable(Exception):
    """The executor asked for cannot run here (an extra is missing, a bad --scheduler): a usage error."""


class Executor:
    """Run a module-level function over items; results in item order, crashes isolated per item."""

    name = "local"

    def run_units(self, fn: Callable, items: Sequence[Any], names: Sequence[str] = (),
                  on_done: Callable[[int], None] | None = None,
                  on_result: Callable[[int, bool, Any], None] | None = None,
                  timeout: int = 0, setup: tuple | None = None) -> list[tuple[bool, Any]]:
        """One ``(ok, value)`` per item; ``setup=(fn, arg)`` runs ``fn(arg)`` once per worker first."""
        raise NotImplementedError

    def close(self) -> None:
        """Release the workers (a no-op for executors that hold none between calls)."""


class LocalExecutor(Executor):
    """Today's worker processes (``checker.engine.pool``): forked workers inherit the parent's state."""

    def __init__(self, jobs: int = 1):
        self.jobs = jobs

    def run_units(self, fn, items, names=(), on_done=None, on_result=None, timeout=0, setup=None):
        from checker.engine.pool import run_isolated

        return run_isolated(fn, items, self.jobs, on_done=on_done, timeout=timeout, on_result=on_result)


def parse_scheduler(text: str | None) -> tuple[str, int | str]:
    """``local:N`` -> ("local", N); an address -> ("address", it). Anything else is a usage error."""
    if text is None:
        return ("default", "")
    text = text.strip()
    m = _LOCAL_N.match(text)
    if m:
        n = int(m.group(1))
        if n < 1:
            raise ExecutorUnavailable("--scheduler local:N needs N >= 1")
        return ("local", n)
    if text.startswith("local"):
        raise ExecutorUnavailable(f"--scheduler {text!r}: write local:N (N workers started for the run)")
    if not re.match(r"^([a-z+]+://)?[A-Za-z0-9_.\-\[\]:]+(:\d+)?/?$", text):
        raise ExecutorUnavailable(f"--scheduler {text!r} is neither local:N nor a scheduler address "
                                  "(e.g. tcp://10.0.0.5:8786)")
    return ("address", text)


def make_executor(config) -> Executor:
    """The executor a RunConfig asks for; ``ExecutorUnavailable`` says why it cannot be had."""
    kind = getattr(config, "executor", "local") or "local"
    if kind not in EXECUTORS:
        raise ExecutorUnavailable(f"unknown executor {kind!r} (choose {' or '.join(EXECUTORS)})")
    if kind == "local":
        if getattr(config, "scheduler", None):
            raise ExecutorUnavailable("--scheduler needs --executor dask")
        return LocalExecutor(config.jobs)
    where = parse_scheduler(config.scheduler)
    try:
        import dask  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise ExecutorUnavailable(f"--executor dask needs Dask and distributed ({exc.name or exc} is not "
                                  f"installed): {INSTALL_HINT}") from None
    from checker.engine.executors.dask_cluster import DaskExecutor

    return DaskExecutor(where, workers=config.jobs, progress=config.progress)
