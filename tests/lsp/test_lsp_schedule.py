"""The scheduler alone (checker/lsp/schedule.py), with a check that takes a set time: an edit that finds it
idle is checked at once; a burst is checked about every max-wait, each check of the buffers as they are when
it starts, and the last buffer always; a check superseded early is dropped, and a closed unit publishes
nothing more."""
from __future__ import annotations

import asyncio
import time

from checker.lsp.schedule import Scheduler, UnitState


def _rig(cost: float, max_wait: float = 0.25):
    """A scheduler whose check takes ``cost`` seconds and returns the generation it snapshot."""
    published: list[tuple[float, int]] = []

    def run(st, snap):
        time.sleep(cost)
        return snap, {}

    def publish(st):
        published.append((time.monotonic(), st.mapped))

    return Scheduler(run, publish, max_wait), published


async def _type(sched, st, every: float, seconds: float) -> tuple[float, float]:
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        gen = st.gen + 1
        sched.touch(st, 0.15, lambda gen=gen: gen)
        await asyncio.sleep(every)
    return start, time.monotonic()


def test_an_idle_edit_is_checked_at_once():
    async def go():
        sched, published = _rig(0.01)
        st = UnitState("u")
        t = time.monotonic()
        sched.touch(st, 0.15, lambda: 1)
        await asyncio.wait_for(st.done.wait(), 5)
        sched.close()
        return published[0][0] - t, published

    took, published = asyncio.run(go())
    assert took < 0.1 and [g for _, g in published] == [1]


def test_a_burst_is_published_about_every_max_wait_and_its_last_buffer_at_its_end():
    async def go():
        sched, published = _rig(0.04)
        st = UnitState("u")
        start, end = await _type(sched, st, 0.03, 1.5)  # faster than the check and than the debounce
        last = st.gen
        await asyncio.wait_for(st.done.wait(), 5)
        sched.close()
        return start, end, last, published, sched

    start, end, last, published, sched = asyncio.run(go())
    during = [t for t, _ in published if t <= end]
    marks = [start] + during + [end]
    assert len(during) >= 4 and max(b - a for a, b in zip(marks, marks[1:])) < 0.6, marks
    gens = [g for _, g in published]
    assert gens == sorted(gens) and gens[-1] == last  # never an older buffer after a newer, the last one shown
    assert sched.checks < last / 2  # not one check per edit


def test_a_check_superseded_early_is_dropped():
    """Two quick edits: the first one's check is under way when the second comes; a check of the second
    can still be shown within the max-wait, so the first result is dropped, never published."""
    async def go():
        sched, published = _rig(0.05)
        st = UnitState("u")
        sched.touch(st, 0.02, lambda: 1)
        await asyncio.sleep(0.01)
        sched.touch(st, 0.02, lambda: 2)
        await asyncio.wait_for(st.done.wait(), 5)
        sched.close()
        return published, sched

    published, sched = asyncio.run(go())
    assert [g for _, g in published] == [2] and sched.superseded == 1


def test_a_closed_unit_publishes_nothing_more():
    async def go():
        sched, published = _rig(0.05)
        st = UnitState("u")
        sched.touch(st, 0.0, lambda: 1)
        await asyncio.sleep(0.01)
        sched.cancel(st)
        await asyncio.sleep(0.2)
        sched.close()
        return published

    assert asyncio.run(go()) == []
