"""Curve-level region derivation and the curve rules on generated curves (32/33 points, empty regions,
odd value types), built with fixtures/make_valid.py."""
import math
import os
import shutil
import sys

import pytest

from casefixtures import FIXTURES, apply_patch
from checker.engine.pipeline import run_check
from checker.domain.point_metrics import metrics_for
from checker.domain.regions import curve_regions

sys.path.insert(0, FIXTURES)
import make_valid  # noqa: E402

CURVE = f"results/{make_valid.SYSTEM}/{make_valid.MODEL}"


def _spec(region="submitters_choice", offline="none", acc=False, c=8):
    tpot = round(3.6 + 27.4 * (math.log2(max(c, 1)) / 10), 2)
    return (region, offline, tpot, round(30 + 0.9 * c, 1), acc)


def build(tmp_path, points: dict, c_max: int | None = None, monkeypatch=None) -> str:
    root = os.path.join(str(tmp_path), "pkg")
    if c_max is not None:
        monkeypatch.setattr(make_valid, "C_MAX", c_max)
        monkeypatch.setattr(make_valid, "POINTS", dict(points))
    make_valid.build(root, points)
    return root


def findings(report, status=None, rule=None):
    return [f for f in report.findings if (status is None or f.status.value == status)
            and (rule is None or f.rule_id == rule)]


def curve_fails(path):
    report = run_check([path], select=["curve"])
    return report, [f"{f.rule_id} {f.subject.label()}: {f.message}" for f in findings(report, "FAIL")]


def test_thirty_two_points_pass(tmp_path):
    report, fails = curve_fails(build(tmp_path, make_valid.spread_points(32)))
    assert fails == []
    cap = findings(report, rule="point-cap")[0]
    assert cap.status.value == "PASS" and "32 points" in cap.message


def test_thirty_three_points_hit_the_cap(tmp_path):
    pts = make_valid.spread_points(32)
    pts[1000] = _spec(c=1000)
    report, fails = curve_fails(build(tmp_path, pts))
    assert len(fails) == 1 and fails[0].startswith("point-cap") and "33 points, at most 32" in fails[0]
    assert "the 1 point(s) beyond the cap are rejected" in fails[0] and "r1000" in fails[0]
    assert findings(report, "FAIL")[0].severity.value == "reject-points"


def test_eight_point_valid_curve_and_seven_without_offline(tmp_path):
    assert curve_fails(build(tmp_path, make_valid.POINTS))[1] == []
    seven = {c: s for c, s in make_valid.POINTS.items() if s[1] != "dedicated"}
    seven[1024] = ("high_concurrency", "elected", *make_valid.POINTS[1024][2:])
    assert curve_fails(build(tmp_path, seven))[1] == []


def test_empty_high_region_is_explained(tmp_path, monkeypatch):
    """C_max 34 and C_min 32: low_concurrency 33-33, med_concurrency 34-34, high_concurrency 35-34 (empty)."""
    pts = {32: _spec("low_latency", c=32), 33: _spec("low_concurrency", c=33), 34: _spec("med_concurrency", c=34)}
    for c in (35, 36, 37, 38):
        pts[c] = _spec(c=c)
    pts[13368] = ("submitters_choice", "dedicated", None, None, False)
    report, fails = curve_fails(build(tmp_path, pts, c_max=34, monkeypatch=monkeypatch))
    assert len(fails) == 1, fails
    assert fails[0].startswith("high-concurrency-coverage")
    assert "empty (35 > 34)" in fails[0] and "no point can cover it" in fails[0]
    comp = findings(report, rule="region-computation")[0]
    assert comp.status.value == "PASS" and "high_concurrency is empty" in comp.message and "one level wide" in comp.message
    for c in (35, 38):
        f = [x for x in findings(report, rule="concurrency-in-range") if x.subject.point == f"r{c}"][0]
        assert f.status.value == "PASS" and "margin" in f.message


def test_curve_regions_derivation_and_memo(tmp_path):
    from checker.load.discovery import discover
    from checker.load.layout import Options

    path = build(tmp_path, make_valid.POINTS)
    apply_patch(path, {"set": {"file": f"{CURVE}/r64/point.yaml", "path": ["max_supported_concurrency"],
                               "value": 2048}})
    apply_patch(path, {"set": {"file": f"{CURVE}/r8/system_desc.json", "path": ["max_supported_concurrency"],
                               "value": 4096}})
    pkg = discover([path], Options())
    curve = pkg.submissions[0].curves()[0]
    cr = curve_regions(curve)
    assert curve_regions(curve) is cr  # memoised
    assert cr.c_max == 1024 and cr.c_max_source == "system_desc.json"
    assert sorted((d.point, d.kind, d.value) for d in cr.c_max_disagreements) == [
        ("r64", "point_yaml", 2048), ("r8", "system_desc", 4096)]
    assert cr.c_min == 1 and cr.c_min_basis == "derived" and cr.lowest_point == "r1"
    assert "r13368" not in dict(cr.basis_points)  # the dedicated Offline run never enters C_min
    assert cr.regions.bounds["low_concurrency"] == (2, 11)


def test_region_computed_metric(tmp_path):
    from checker.load.discovery import discover
    from checker.load.layout import Options

    pkg = discover([build(tmp_path, make_valid.POINTS)], Options())
    from checker.engine.catalogue import load_catalogue

    metrics = load_catalogue().point_metrics
    got = {p.name: metrics_for(p, None, metrics)["region_computed"] for p in pkg.submissions[0].points()}
    assert got == {"r1": "low_latency", "r4": "low_concurrency", "r8": "low_concurrency", "r32": "med_concurrency",
                   "r64": "med_concurrency", "r256": "high_concurrency", "r1024": "high_concurrency",
                   "r13368": "offline"}


ODD = [float("nan"), [1024], {"a": 1}, "1024", True, -5, 0, 10 ** 60, None]


@pytest.mark.parametrize("value", ODD, ids=[repr(v)[:12] for v in ODD])
def test_odd_values_never_crash(tmp_path, value):
    path = os.path.join(str(tmp_path), "pkg")
    shutil.copytree(os.path.join(FIXTURES, "valid"), path)
    for f, key in (("r64/point.yaml", "concurrency"), ("r64/point.yaml", "region"), ("r64/point.yaml", "offline"),
                   ("r1/system_desc.json", "max_supported_concurrency"), ("r1/system_desc.json", "c_min_override"),
                   ("r32/point.yaml", "max_supported_concurrency"), ("r13368/result_summary.json", "duration_ns")):
        try:
            apply_patch(path, {"set": {"file": f"{CURVE}/{f}", "path": [key], "value": value}})
        except ValueError:  # json cannot write NaN into a strict file: write it as text instead
            pass
    report = run_check([path], select=["curve"])
    errors = [f for f in report.findings if f.reason == "rule-error" or "internal error" in f.message]
    assert errors == [], [f"{f.rule_id}: {f.message}" for f in errors]
    for f in findings(report, "FAIL"):
        assert f.location is not None and f.fix, f.rule_id


def test_every_point_fail_locates_point_yaml_line(tmp_path):
    path = os.path.join(str(tmp_path), "pkg")
    shutil.copytree(os.path.join(FIXTURES, "valid"), path)
    apply_patch(path, {"set": {"file": f"{CURVE}/r4/point.yaml", "path": ["region"], "value": "high_concurrency"}})
    apply_patch(path, {"set": {"file": f"{CURVE}/r1/point.yaml", "path": ["offline"], "value": "yes"}})
    report = run_check([path], select=["curve"])
    for f in findings(report, "FAIL"):
        if f.subject.point:
            assert f.location.file.endswith(f"{f.subject.point}/point.yaml") and f.location.line, f
            assert f.message.startswith(f"{f.subject.point} (point.yaml line {f.location.line})"), f.message
