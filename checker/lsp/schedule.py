"""Debounce and supersede: one pending check per unit, one check running at a time.

Every edit bumps its unit's generation. An edit that finds the server idle (no check running, none
waiting) is checked at once; one that arrives while a check runs or waits restarts the unit's quiet-time
timer, so a burst of keystrokes costs the check already under way plus one at its end. When the timer fires the buffers are snapshot and checked on the single worker thread; a
check whose unit moved on while it ran (a newer edit) is dropped, never published: the newer edit's own
check follows. A running check is not interrupted (a 32-point package takes about 0.2 s); only its result
is superseded.
"""
from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable


class UnitState:
    """What the server holds for one unit: its latest published result, nothing older."""

    __slots__ = ("unit", "gen", "timer", "waiting", "mapped", "checked_gen", "versions", "published", "done")

    def __init__(self, unit):
        self.unit = unit
        self.gen = 0
        self.timer: asyncio.Task | None = None
        self.waiting = False  # the timer is still in its quiet time (cancelling it then loses nothing)
        self.mapped: Any = None
        self.checked_gen = -1
        self.versions: dict[str, int | None] = {}
        self.published: set[str] = set()
        self.done = asyncio.Event()


class Scheduler:
    def __init__(self, run: Callable, publish: Callable):
        """``run(state) -> (result, versions)`` runs on the worker thread; ``publish(state)`` on the loop."""
        self._run = run
        self._publish = publish
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="endpoints-checker-lsp")
        self.checks = 0
        self.superseded = 0
        self.running = 0

    def touch(self, st: UnitState, delay: float, snapshot: Callable) -> None:
        """A unit changed: check it after ``delay`` seconds of quiet (``snapshot()`` taken then, on the loop)."""
        st.gen += 1
        st.done.clear()
        if st.waiting and st.timer is not None and not st.timer.done():
            st.timer.cancel()
        elif not self.running:
            delay = 0.0  # idle: the first edit after a quiet spell is checked at once
        st.waiting = True
        st.timer = asyncio.get_running_loop().create_task(self._later(st, st.gen, delay, snapshot))

    async def _later(self, st: UnitState, gen: int, delay: float, snapshot: Callable) -> None:
        if delay > 0:
            await asyncio.sleep(delay)
        if st.gen != gen:
            return
        st.waiting = False
        snap = snapshot()
        loop = asyncio.get_running_loop()
        self.running += 1
        try:
            result = await loop.run_in_executor(self._pool, self._run, st, snap)
        finally:
            self.running -= 1
        self.checks += 1
        if st.gen != gen:  # a newer edit arrived while this check ran: its own check follows
            self.superseded += 1
            return
        st.mapped, st.versions = result
        st.checked_gen = gen
        self._publish(st)
        st.done.set()

    def cancel(self, st: UnitState) -> None:
        st.gen += 1
        if st.waiting and st.timer is not None and not st.timer.done():
            st.timer.cancel()
        st.done.set()

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
