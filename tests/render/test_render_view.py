"""The report view: agentic curves, elected Offline, missing C_max, family metrics, no context."""
import os
import re

import pytest

from casefixtures import materialise
from checker.engine.pipeline import run_check
from checker.domain.point_metrics import point_metric
from checker.engine.catalogue import load_catalogue
from checker.render import render
from checker.render.view import build_view

POINTS = ["r1", "r4", "r8", "r32", "r64", "r256", "r1024"]


def check(tmp_path, patches, base="valid"):
    return run_check([materialise({"base": base, "patch": patches}, str(tmp_path))])


def test_agentic_curve_plots_interactivity(tmp_path):
    patches = []
    for i, p in enumerate(POINTS):
        patches.append({"set": {"file": f"{{system}}/kimi-k3/{p}/result_summary.json",
                                "path": ["e2e_avg_interactivity"], "value": 100.0 - 10 * i}})
    report = check(tmp_path, patches, base="agentic")
    view = build_view(report)
    curve = view["submissions"][0]["systems"][0]["curves"][0]
    assert curve["agentic"] is True
    assert [p["mark"].x for p in curve["points"]] == [100.0 - 10 * i for i in range(7)]
    html = render("html", report)
    assert "Interactivity, e2e_avg_interactivity" in html and "(agentic)" in html


def test_elected_offline_and_missing_cmax(tmp_path):
    patches = [{"remove": "{curve}/r13368"},
               {"set": {"file": "{curve}/r1024/point.yaml", "path": ["offline"], "value": "elected"}}]
    for p in POINTS:
        patches.append({"delete": {"file": f"{{curve}}/{p}/point.yaml", "path": ["max_supported_concurrency"]}})
    report = check(tmp_path, patches)
    curve = build_view(report)["submissions"][0]["systems"][0]["curves"][0]
    assert curve["c_max"] is None and "max_supported_concurrency" in curve["regions_why"]
    assert {p["region"] for p in curve["points"]} == {"unknown"}
    elected = [p for p in curve["points"] if p["name"] == "r1024"][0]
    assert elected["mark"].offline == "elected"
    assert "<polygon" in curve["charts"]["pareto"]  # the elected point drawn as a diamond
    assert "Regions not computed" in render("html", report)


def test_family_metrics_show_and_errors_are_blank(tmp_path):
    @point_metric("zz_test_kw", "Test kW", "kW")
    def _kw(point, ctx):
        return 1.5 * point.concurrency

    @point_metric("zz_test_broken", "Broken metric")
    def _broken(point, ctx):
        raise RuntimeError("boom")

    cat = load_catalogue()
    saved = cat.point_metrics
    cat.point_metrics = saved + [("zz_test_kw", "Test kW", "kW", _kw), ("zz_test_broken", "Broken metric", "", _broken)]
    try:
        report = run_check([os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "fixtures", "valid")])
        html = render("html", report)
        points = re.search(r'<table class="data points">.*?</table>', html, re.S).group(0)
        # a metric that fails on every point has no value to show: its column is left out of the points table
        assert "Test kW (kW)" in points and "Broken metric" not in points
        row = re.search(r'<tr><th scope="row">r4</th>.*?</tr>', html, re.S).group(0)
        assert ">6.00<" in row
    finally:
        cat.point_metrics = saved


def test_report_without_context_or_package_renders(tmp_path):
    report = check(tmp_path, [])
    report.context = None
    assert "Pareto curve" in render("html", report)
    report.package = None
    html = render("html", report)
    assert "Rule catalogue" in html and 'id="findings-table"' in html


def test_no_plottable_points(tmp_path):
    patches = [{"remove": f"{{curve}}/{p}/result_summary.json"} for p in POINTS + ["r13368"]]
    html = render("html", check(tmp_path, patches))
    assert html.count("No point has both values to plot.") >= 3 * 2  # desc + visible text, three charts


@pytest.mark.slow
def test_benchmark_budget():
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "bench"))
    import html_bench

    m = html_bench.measure(repeat=1)
    assert m["points"] == 32 and m["bytes"] < html_bench.MAX_BYTES
    assert m["render_s_best"] < 2.0  # the 0.5 s budget is measured by bench/html_bench.py; this only catches blow-ups


def test_agentic_without_interactivity_falls_back_to_tps_per_user(tmp_path):
    patches = [{"delete": {"file": f"{{system}}/kimi-k3/{p}/result_summary.json", "path": ["e2e_avg_interactivity"]}}
               for p in POINTS]
    report = check(tmp_path, patches, base="agentic")
    curve = build_view(report)["submissions"][0]["systems"][0]["curves"][0]
    assert curve["agentic"] is True and curve["interactivity"] is False
    assert all(p["mark"].x is not None for p in curve["points"])
    assert "no e2e_avg_interactivity reported" in curve["charts"]["pareto"]
