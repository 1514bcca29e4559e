"""When a unit is checked: a debounce with a max-wait, one check at a time, the latest buffers each time.

Every edit bumps its unit's generation. An edit that finds the server idle (no check running) is checked at
once. One that arrives while a check runs or waits is checked after quiet (``debounce``: no newer edit for that
long), but never later than ``max_wait`` (or the debounce, if longer) after the oldest edit whose
diagnostics are not shown yet, less the unit's last check time: while the user keeps typing, a check of
the latest buffers is published about every ``max_wait``. Each check snapshots the buffers when it
starts (never an older queued copy), on the single worker thread. A check whose unit moved on while it ran is
dropped (superseded) when a check of the newer buffers can still be published within the max-wait of the
oldest edit not yet shown; otherwise it is published (a keystroke or two old) rather than leaving the user
with nothing.
A running check is not interrupted (a 32-point package takes about 0.05-0.2 s).
"""
from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

log = logging.getLogger(__name__)

#: at most this long from an edit to the start of a check that includes it, while the user keeps typing
MAX_WAIT = 0.2


class UnitState:
    """What the server holds for one unit: its latest published result and when its edits came."""

    __slots__ = ("unit", "gen", "mapped", "checked_gen", "versions", "published", "done", "task", "wake",
                 "snapshot", "last_edit", "delay", "unshown", "after_snap", "cost", "closed")

    def __init__(self, unit):
        self.unit = unit
        self.gen = 0
        self.mapped: Any = None
        self.checked_gen = -1  # the generation whose result is published
        self.versions: dict[str, int | None] = {}
        self.published: set[str] = set()
        self.done = asyncio.Event()  # set while the published result is of the latest generation
        self.task: asyncio.Task | None = None  # the unit's driver, while it has something to check
        self.wake = asyncio.Event()
        self.snapshot: Callable[[], dict] | None = None
        self.last_edit = 0.0
        self.delay = 0.0  # the quiet time the latest edit asked for
        self.unshown: float | None = None  # when the oldest edit not in a published result came
        self.after_snap: float | None = None  # when the first edit after the running check's snapshot came
        self.cost = 0.0  # how long the unit's last check took
        self.closed = False


class Scheduler:
    def __init__(self, run: Callable, publish: Callable, max_wait: float = MAX_WAIT,
                 settle: Callable[[], None] | None = None):
        """``run(state, snapshot) -> (result, versions)`` runs on the worker thread; ``publish(state)`` on
        the loop; ``settle()``, if given, on the worker thread after a unit's latest buffers were published
        (never delaying a publish; checker.lsp.memory.trim)."""
        self._run = run
        self._publish = publish
        self._settle = settle
        self.max_wait = max_wait
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="endpoints-checker-lsp")
        self.checks = 0
        self.superseded = 0
        self.running = 0

    def touch(self, st: UnitState, delay: float, snapshot: Callable[[], dict]) -> None:
        """A unit changed: check it after ``delay`` seconds of quiet, or at once when the server is idle
        (``snapshot()`` is taken when the check starts, on the loop)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        st.gen += 1
        st.done.clear()
        st.snapshot = snapshot
        st.last_edit = now
        busy = self.running or (st.task is not None and not st.task.done())
        st.delay = delay if busy else 0.0  # idle: the first edit after a quiet spell is checked at once
        if st.unshown is None:
            st.unshown = now
        if st.after_snap is None:
            st.after_snap = now
        if st.task is None or st.task.done():
            st.task = loop.create_task(self._drive(st))
        else:
            st.wake.set()

    def _wait(self, st: UnitState) -> float:
        return max(self.max_wait, st.delay)  # a longer debounce asked for is kept

    def _due(self, st: UnitState) -> float:
        quiet = st.last_edit + st.delay
        if st.unshown is None:
            return quiet
        return min(quiet, st.unshown + max(0.0, self._wait(st) - st.cost))

    async def _drive(self, st: UnitState) -> None:
        """Check the unit until its latest generation is checked (one driver per unit, one pass per check)."""
        loop = asyncio.get_running_loop()
        snapped = -1
        while not st.closed and st.gen != snapped:
            while (left := self._due(st) - loop.time()) > 0:
                st.wake.clear()
                try:
                    await asyncio.wait_for(st.wake.wait(), left)
                except asyncio.TimeoutError:
                    pass
                if st.closed:
                    return
            gen = snapped = st.gen
            st.after_snap = None
            started = loop.time()
            self.running += 1
            try:
                result = await loop.run_in_executor(self._pool, self._run, st, st.snapshot())
            except Exception:  # noqa: BLE001  (run never raises; a snapshot that did is the server's bug)
                log.exception("checking %s", st.unit)
                continue
            finally:
                self.running -= 1
            st.cost = loop.time() - started
            self.checks += 1
            if st.closed:
                return
            if st.gen != gen and loop.time() + st.cost < st.unshown + self._wait(st):
                self.superseded += 1  # a check of the newer edit can still be shown within the max-wait
                continue
            st.mapped, st.versions = result
            st.checked_gen = gen
            st.unshown = st.after_snap  # the edits after the snapshot are still to be shown
            if st.gen == gen:
                st.done.set()
            try:
                self._publish(st)
            except Exception:  # noqa: BLE001
                log.exception("publishing %s", st.unit)
            if self._settle is not None and st.gen == gen:
                try:
                    loop.run_in_executor(self._pool, self._settle)
                except RuntimeError:  # the pool is shut down: the server is ending
                    pass

    def cancel(self, st: UnitState) -> None:
        """The unit's last document closed: nothing more is checked or published for it."""
        st.closed = True
        st.wake.set()
        st.done.set()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
