"""checker.engine.pool.run_isolated: one result per item, in order; crashes stay with their item."""
import os
import threading

import pytest

from checker.engine.pool import DIED, default_jobs, run_isolated


def work(x):
    if x == "exit":
        os._exit(3)
    if x == "raise":
        raise ValueError("bad item")
    if x == "unpicklable":
        return threading.Lock()
    return x * 2


@pytest.mark.parametrize("jobs", [1, 2, 4])
def test_results_in_order_and_errors_isolated(jobs):
    items = [1, 2, "raise", 3, "unpicklable", 4]
    out = run_isolated(work, items, jobs)
    assert out[0] == (True, 2) and out[1] == (True, 4) and out[3] == (True, 6) and out[5] == (True, 8)
    assert out[2] == (False, "internal error: ValueError: bad item")
    assert out[4][0] is False and "internal error" in out[4][1]


def test_a_dying_worker_costs_only_its_item():
    items = list(range(6)) + ["exit"] + list(range(6, 12))
    done = []
    out = run_isolated(work, items, 2, on_done=done.append)
    assert out[6] == (False, DIED)
    assert [v for ok, v in out if ok] == [x * 2 for x in items if x != "exit"]
    assert sorted(done) == list(range(len(items)))


def test_spawn_start_method_works_too(monkeypatch):
    import multiprocessing

    import checker.engine.lifetime as w

    monkeypatch.setattr(w, "pool_context", lambda: multiprocessing.get_context("spawn"))
    assert run_isolated(work, [1, 2, 3], 2) == [(True, 2), (True, 4), (True, 6)]


def test_default_jobs_is_positive():
    assert default_jobs() >= 1


def slow(x):
    import time

    if x == "hang":
        while True:
            time.sleep(0.05)
    return x


def test_an_item_over_its_time_limit_fails_alone():
    out = run_isolated(slow, [1, "hang", 2], 2, timeout=1)
    assert out[0] == (True, 1) and out[2] == (True, 2)
    assert out[1][0] is False and "ItemTimeout" in out[1][1]
