"""The entry a long-running server calls per request (checker.engine.request): it never raises, its report
always encodes, and a stream of hostile requests leaves the process's memory flat (issue 28)."""
import json
import os

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_gen import CURVE, VALID, copy_valid, hostile_values, realise, slow

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def _rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / (1 << 20)


def _strict_json(report) -> dict:
    from checker.render.json_report import render

    return json.loads(render(report), parse_constant=lambda t: (_ for _ in ()).throw(AssertionError(t)))


@slow(15)
@given(paths=st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.text(max_size=8) | st.integers()
                                                                                 | st.none(), max_size=3)))
def test_arguments_that_are_not_a_list_of_paths(paths):
    from checker.engine.request import check_request

    report = check_request(paths)
    assert report.exit_code() in (0, 1, 2)
    doc = _strict_json(report)
    assert doc["summary"]["exit_code"] == report.exit_code()


def test_hostile_packages_a_bug_and_memoryerror_are_reports(tmp_path, monkeypatch):
    from checker.engine import pipeline
    from checker.engine.config import RunConfig
    from checker.engine.request import check_request

    root = copy_valid(str(tmp_path / "sub"))
    with open(os.path.join(root, CURVE, "r8", "point.yaml"), "a") as fh:
        fh.write(".inf: 1\n")
    fifo = str(tmp_path / "fifo")
    os.mkfifo(fifo)
    assert check_request([root]).exit_code() == 1
    assert check_request([fifo]).exit_code() == 2
    assert check_request([VALID], RunConfig(baseline=fifo)).findings[0].reason == "usage-error"

    def boom(*_a, **_k):
        raise MemoryError()

    monkeypatch.setattr(pipeline, "check", boom)
    report = check_request([VALID])
    assert report.exit_code() == 2 and "MemoryError" in report.findings[0].message
    _strict_json(report)


def test_memory_stays_flat_over_hostile_requests(tmp_path):
    """A server answering request after request: after a warm-up, twenty more requests over hostile
    packages (values anywhere in point.yaml) grow the process by less than 20 MB."""
    import random

    import yaml

    from checker.engine.request import check_request

    root = copy_valid(str(tmp_path / "sub"))
    point = os.path.join(root, CURVE, "r8", "point.yaml")
    original = open(point, encoding="utf-8").read()
    rng = random.Random(28)
    values = [None, float("inf"), float("nan"), "\ud800", "x" * 5000, [1] * 3000, {"a": {"b": [None]}}, 2 ** 70, -0.0]

    def one(i):
        doc = yaml.safe_load(original)
        key = rng.choice(list(doc))
        doc[key] = values[i % len(values)]
        with open(point, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(doc, default=str))
        report = check_request([root])
        _strict_json(report)
        return report.exit_code()

    for i in range(len(values)):  # warm-up: every value once (imports, compiled checkers)
        one(i)
    before = _rss_mb()
    codes = {one(i) for i in range(20)}
    assert codes <= {0, 1}
    assert _rss_mb() - before < 20, (before, _rss_mb())


@slow(8)
@given(value=hostile_values)
def test_any_value_anywhere_is_a_report(tmp_path_factory, value):
    from checker.engine.request import check_request

    root = copy_valid(str(tmp_path_factory.mktemp("v") / "sub"))
    path = os.path.join(root, CURVE, "r8", "result_summary.json")
    from hostile_gen import dump_json

    with open(path, "w") as fh:
        fh.write(dump_json(realise(value)))
    report = check_request([root])
    assert report.exit_code() in (1, 2)
    _strict_json(report)
