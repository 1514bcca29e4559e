"""SVG charts: the Pareto frontier and step function, ticks, escaping, odd values."""
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.render import svg

pts = st.lists(st.tuples(st.floats(0, 1e4, allow_nan=False), st.floats(0, 1e6, allow_nan=False)), min_size=1, max_size=40)


@given(pts)
@settings(max_examples=200, deadline=None)
def test_frontier_is_the_non_dominated_set(points):
    front = svg.frontier(points)
    assert front, "a non-empty set has a frontier"
    xs = [x for x, _ in front]
    ys = [y for _, y in front]
    assert xs == sorted(xs) and ys == sorted(ys, reverse=True)
    for x, y in points:
        # every point is dominated by (or equal to) some frontier point
        assert any(fx >= x and fy >= y for fx, fy in front)
    for fx, fy in front:
        # no frontier point is strictly beaten in both coordinates
        assert not any(x >= fx and y >= fy and (x, y) != (fx, fy) for x, y in points)


@given(pts)
@settings(max_examples=100, deadline=None)
def test_step_function_value(points):
    """The step path's height at each frontier x is max{y_i : x_i >= x}."""
    front = svg.frontier(points)
    for fx, fy in front:
        assert fy == max(y for x, y in points if x >= fx)


@given(st.floats(-1e6, 1e6, allow_nan=False), st.floats(1e-3, 1e6, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_nice_ticks_cover_the_range(lo, span):
    ticks = svg.nice_ticks(lo, lo + span)
    assert 2 <= len(ticks) <= 50
    assert all(lo - 1e-6 * span <= t <= lo + span * (1 + 1e-6) for t in ticks)
    assert ticks == sorted(ticks)


def test_log2_ticks():
    assert svg.log2_ticks(0.7, 20) == [1, 2, 4, 8, 16]
    assert len(svg.log2_ticks(0.5, 2 ** 20)) <= 11


def test_odd_values_are_left_out_and_text_escaped():
    marks = [
        svg.Mark("a", 1.0, 10.0, "low_latency", tooltip="<script>x</script>"),
        svg.Mark("b", float("nan"), 5.0), svg.Mark("c", None, 5.0), svg.Mark("d", True, 5.0),
        svg.Mark("e", float("inf"), 1.0), svg.Mark("f", "12", 3.0), svg.Mark("g", 2.0, 4.0, failing=True),
    ]
    out = svg.pareto_chart(marks, 'id"x', '<b>"title"</b>', "x<", "y&")
    assert "<script" not in out and "<b>" not in out and "&lt;script&gt;" in out
    assert 'id="id&quot;x-t"' in out and out.count('class="pt ') == 2 and 'class="ring"' in out
    assert "5 points without values" in out
    empty = svg.pareto_chart([svg.Mark("z", None, None)], "e", "t", "x", "y")
    assert "No point has both values" in empty and 'role="img"' in empty
    conc = svg.concurrency_chart([svg.Mark("a", 0, 1.0), svg.Mark("b", -4, 1.0)], "c", "t", "y")
    assert "No point has both values" in conc  # log axis: non-positive concurrency is not plotted


def test_offline_ceiling_and_bands():
    marks = [svg.Mark("r1", 100.0, 10.0, "low_latency"), svg.Mark("r64", 20.0, 90.0, "high_concurrency"),
             svg.Mark("r9999", None, 120.0, "offline", offline="dedicated")]
    out = svg.pareto_chart(marks, "p", "t", "x", "y")
    assert "Offline ceiling 120.0" in out and out.count('class="step"') == 1
    bands = [("low_latency", 1, 1), ("low_concurrency", 2, 7), ("high_concurrency", 9, 8), ("margin", 65, 71)]
    c = svg.concurrency_chart([svg.Mark("r1", 1, 10.0, "low_latency"), svg.Mark("r64", 64, 90.0)], "q", "t", "y", bands)
    assert c.count('class="band ') == 3  # the empty high region (9 > 8) is not drawn
    assert 'fill="url(#q-hatch)"' in c


def test_fmt_num():
    assert svg.fmt_num(None) == "—" and svg.fmt_num(13368) == "13,368" and svg.fmt_num(1234.5) == "1,234"
    assert svg.fmt_num(0.01234) == "0.0123" and svg.fmt_num(float("nan")) == "nan" and svg.fmt_num(True) == "True"
    assert svg.tick_label(1500) == "1.5k" and svg.tick_label(2_000_000) == "2M" and svg.tick_label(0.5) == "0.5"
    assert not math.isnan(svg.Axis(1, 1, 0, 100)(1))


def test_region_names_clear_of_points_and_cmax_clear_of_the_margin():
    """Region names sit above the plotted area; the C_max point (ringed: failing) stays left of the margin band,
    which is drawn at least MARGIN_PX wide although 10 % is a few pixels on a log axis."""
    import re

    bands = [("low_latency", 1, 1), ("low_concurrency", 2, 8), ("med_concurrency", 9, 128),
             ("high_concurrency", 129, 1024), ("margin", 1025, 1127)]
    marks = [svg.Mark("r1", 1, 30.0, "low_latency"), svg.Mark("r8", 8, 40.0, "low_concurrency"),
             svg.Mark("r64", 64, 130.0, "med_concurrency"), svg.Mark("r256", 256, 400.0, "high_concurrency"),
             svg.Mark("r1024", 1024, 997.5, "high_concurrency", failing=True),
             svg.Mark("r1100", 1100, 990.0, "margin")]
    out = svg.concurrency_chart(marks, "q", "t", "TTFT p90 (ms)", bands)
    labels = re.findall(r'<text x="([\d.]+)" y="([\d.]+)" text-anchor="middle">(\w+)</text>',
                        re.search(r'<g class="band-labels".*?</g>', out).group(0))
    assert [t for _x, _y, t in labels] == ["low_lat", "low", "med", "high", "margin"]
    label_bottom = max(float(y) for _x, y, _t in labels) + 2
    extents = sorted((float(x) - len(t) * 3.6, float(x) + len(t) * 3.6) for x, _y, t in labels)
    assert all(a[1] <= b[0] for a, b in zip(extents, extents[1:])), "region names overlap"
    tops = []  # the highest pixel of each point's marker
    for g in re.findall(r'<g class="pt [^"]*">.*?</g>', out):
        ys = [float(v) for v in re.findall(r'\b(?:cy|y)="([\d.]+)"', g)]
        ys += [float(p.split(",")[1]) for pts in re.findall(r'points="([^"]+)"', g) for p in pts.split()]
        ys += [float(y) for y in re.findall(r'[ML][\d.]+ ([\d.]+)', g)]
        tops.append(min(ys))
    ring = re.search(r'<circle class="ring" cx="([\d.]+)" cy="([\d.]+)" r="10"/>', out)
    cx, cy = float(ring.group(1)), float(ring.group(2))
    assert cy - 11 > label_bottom, "the top point's ring reaches into the region names"
    margin = re.search(r'<g class="band rg-margin">.*?<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"', out)
    x0, width = float(margin.group(1)), float(margin.group(2))
    assert width >= svg.MARGIN_PX - 0.01
    assert cx + 11 <= x0, "the C_max point's ring overlaps the margin band"
    assert len(tops) == len(marks) and min(tops) - 5 > label_bottom, "a point covers the region names"


def test_stretched_axis_is_monotone_and_keeps_its_ends():
    a = svg.Axis(0.7, 18715, 70, 622, log=True, stretch=[(1024, 1024.5, 13), (1024.5, 1126.5, 24)])
    xs = [0.7, 1, 2, 64, 1000, 1024, 1024.5, 1100, 1126.5, 2048, 18715]
    px = [a(x) for x in xs]
    assert px == sorted(px) and px[0] == 70 and px[-1] == 622
    assert a(1126.5) - a(1024.5) >= 24 - 0.01 and a(1024.5) - a(1024) >= 13 - 0.01
    plain = svg.Axis(0.7, 18715, 70, 622, log=True)
    assert abs(plain(64) - svg.Axis(0.7, 18715, 70, 622, log=True, stretch=[(1, 1, 10)])(64)) < 1e-9
