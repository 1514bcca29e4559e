"""Inline SVG charts drawn in Python: the Pareto step function, metric-vs-concurrency, overlays.

No library and no script: fixed ``viewBox`` for scaling, ``role="img"`` with a title and a
description, a native ``<title>`` tooltip per point, CSS classes (styled by the page) plus marker
shapes so colour is never the only signal. Every text that reaches the SVG goes through ``_e``:
submitter strings (directory names, labels) are escaped here, the template inserts the result as
markup. Non-finite, missing or (on log axes) non-positive values are left out and counted.
"""
from __future__ import annotations

import bisect
import math
from html import escape

import msgspec

from checker.domain.regions import REGION_LABELS as _REGIONS

W, H = 640, 340
ML, MR, MT, MB = 70, 18, 14, 52  # margins: left, right, top, bottom
STRIP = 22  # the region-name strip above a concurrency chart's plotted area
MARGIN_PX, GAP_PX = 24, 13  # the margin band's least width; C_max point to margin band, at least

#: the regions by the rules' own names (checker.domain.regions.REGION_LABELS), and what a chart also shows
REGION_LABELS = {**_REGIONS, "margin": "margin (above C_max)", "out_of_range": "out of range",
                 "unknown": "region unknown"}
#: the strip above a chart names each band by the first word of its name (the legend and tooltips give it whole)
REGION_SHORT = {"low_latency": "low_lat", "low_concurrency": "low", "med_concurrency": "med", "high_concurrency": "high",
                "margin": "margin"}
SERIES_DASH = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
SERIES_SHAPES = ("circle", "square", "triangle", "diamond", "down", "cross")
REGION_SHAPES = {"low_latency": "circle", "low_concurrency": "square", "med_concurrency": "triangle",
                 "high_concurrency": "down", "margin": "cross", "offline": "diamond"}


def _e(s) -> str:
    return escape(str(s), quote=True)


def finite(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


class Mark(msgspec.Struct):
    """One plotted point: coordinates, region class, flags and the tooltip text."""

    label: str
    x: float | None
    y: float | None
    region: str = "unknown"
    offline: str = ""  # "" | "dedicated" | "elected"
    failing: bool = False
    tooltip: str = ""


class Series(msgspec.Struct):
    """One curve in an overlay (cohort charts): a label and its marks."""

    label: str
    marks: list = msgspec.field(default_factory=list)
    href: str = ""


# ---------------------------------------------------------------- number formatting and ticks
def fmt_num(v, digits: int = 3) -> str:
    """A compact human number for tables and tooltips (None/NaN show as an em dash)."""
    if isinstance(v, bool) or v is None:
        return "—" if v is None else str(v)
    if isinstance(v, int):
        return f"{v:,}"
    if not isinstance(v, float):
        return str(v)
    if not math.isfinite(v):
        return repr(v)
    a = abs(v)
    if a >= 1000:
        return f"{v:,.0f}"
    if a >= 100:
        return f"{v:.1f}"
    if a >= 1:
        return f"{v:.2f}"
    return f"{v:.{digits}g}"


def tick_label(v: float) -> str:
    a = abs(v)
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            s = f"{v / div:.2f}".rstrip("0").rstrip(".")
            return s + suf
    if float(v).is_integer():
        return str(int(v))
    return f"{v:.3g}"


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi] (1-2-5 steps)."""
    if not (finite(lo) and finite(hi)) or hi <= lo:
        return [lo] if finite(lo) else []
    raw = (hi - lo) / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    start = math.ceil(lo / step - 1e-9) * step
    out = []
    v = start
    while v <= hi + step * 1e-9 and len(out) < 50:
        out.append(round(v, 12))
        v += step
    return out


def log2_ticks(lo: float, hi: float) -> list[int]:
    """Powers of two within [lo, hi], thinned to at most ~9 labels."""
    a, b = math.ceil(math.log2(lo)), math.floor(math.log2(hi))
    exps = list(range(a, b + 1))
    stride = max(1, math.ceil(len(exps) / 9))
    return [2 ** k for k in exps[::stride] if k >= 0]


class Axis:
    """Maps data values to pixels; linear or log2. ``stretch``: (from, to, min_px) data spans drawn at
    least min_px wide (the 10 % margin above C_max), the rest shrinking to make room (x axis only)."""

    def __init__(self, lo: float, hi: float, p0: float, p1: float, log: bool = False, stretch=()):
        self.log = log
        f = math.log2 if log else float
        self.lo, self.hi = f(lo), f(hi)
        if self.hi <= self.lo:
            self.hi = self.lo + 1
        self.p0, self.p1 = p0, p1
        self.cuts, self.px = [self.lo, self.hi], [float(p0), float(p1)]
        spans = [(f(a), f(b), px) for a, b, px in stretch if a > 0 or not log]
        if spans and p1 > p0:
            self._stretch([(a, b, px) for a, b, px in spans if self.lo <= a < b <= self.hi])

    def _stretch(self, spans) -> None:
        cuts = sorted({self.lo, self.hi, *(t for a, b, _px in spans for t in (a, b))})
        scale = (self.p1 - self.p0) / (self.hi - self.lo)
        widths = [(b - a) * scale for a, b in zip(cuts, cuts[1:])]
        fixed = {}
        for a, b, px in spans:
            idx = [i for i, (x, y) in enumerate(zip(cuts, cuts[1:])) if a <= x and y <= b]
            natural = sum(widths[i] for i in idx)
            if 0 < natural < px:
                for i in idx:
                    fixed[i] = widths[i] * px / natural
        free = (self.p1 - self.p0) - sum(fixed.values())
        rest = sum(w for i, w in enumerate(widths) if i not in fixed)
        if not fixed or rest <= 0 or free < 0.6 * (self.p1 - self.p0):
            return  # nothing to widen, or widening would squash the rest of the axis: draw to scale
        widths = [fixed.get(i, w * free / rest) for i, w in enumerate(widths)]
        px = [float(self.p0)]
        for w in widths:
            px.append(px[-1] + w)
        self.cuts, self.px = cuts, px

    def __call__(self, v: float) -> float:
        t = math.log2(v) if self.log else v
        i = min(max(bisect.bisect_right(self.cuts, t) - 1, 0), len(self.cuts) - 2)
        a, b = self.cuts[i], self.cuts[i + 1]
        return round(self.px[i] + (t - a) / (b - a) * (self.px[i + 1] - self.px[i]), 2)


def _domain(values: list[float], zero: bool = True) -> tuple[float, float]:
    lo, hi = min(values), max(values)
    if zero:
        lo = min(0.0, lo)
    if hi == lo:
        hi = lo + (abs(lo) or 1.0)
    pad = (hi - lo) * 0.06
    return (lo if zero and lo == 0 else lo - pad), hi + pad


# ---------------------------------------------------------------- drawing primitives
def marker(shape: str, x: float, y: float, r: float = 5.0, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    if shape == "square":
        return f'<rect{c} x="{x - r:.2f}" y="{y - r:.2f}" width="{2 * r:.2f}" height="{2 * r:.2f}"/>'
    if shape in ("triangle", "down"):
        s = 1 if shape == "triangle" else -1
        pts = f"{x:.2f},{y - s * r * 1.15:.2f} {x - r:.2f},{y + s * r * 0.85:.2f} {x + r:.2f},{y + s * r * 0.85:.2f}"
        return f'<polygon{c} points="{pts}"/>'
    if shape == "diamond":
        r2 = r * 1.3
        return f'<polygon{c} points="{x:.2f},{y - r2:.2f} {x + r2:.2f},{y:.2f} {x:.2f},{y + r2:.2f} {x - r2:.2f},{y:.2f}"/>'
    if shape == "cross":
        return (f'<path{c} d="M{x - r:.2f} {y - r:.2f}L{x + r:.2f} {y + r:.2f}M{x - r:.2f} {y + r:.2f}'
                f'L{x + r:.2f} {y - r:.2f}" stroke-width="2.5"/>')
    return f'<circle{c} cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}"/>'


def _open(chart_id: str, title: str, desc: str, extra_class: str = "") -> list[str]:
    cid = _e(chart_id)
    return [
        f'<svg class="{("chart " + extra_class).strip()}" viewBox="0 0 {W} {H}" role="img" '
        f'aria-labelledby="{cid}-t {cid}-d" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{cid}-t">{_e(title)}</title><desc id="{cid}-d">{_e(desc)}</desc>',
    ]


def _axes(xa: Axis, ya: Axis, xticks, yticks, xlabel: str, ylabel: str, top: float = MT) -> list[str]:
    out = ['<g class="axes" aria-hidden="true">']
    x0, x1, y0, y1 = ML, W - MR, H - MB, top
    for t in yticks:
        py = ya(t)
        if y1 - 0.5 <= py <= y0 + 0.5:
            out.append(f'<line class="grid" x1="{x0}" x2="{x1}" y1="{py}" y2="{py}"/>')
            out.append(f'<text class="tick" x="{x0 - 6}" y="{py + 4}" text-anchor="end">{_e(tick_label(t))}</text>')
    for t in xticks:
        px = xa(t)
        if x0 - 0.5 <= px <= x1 + 0.5:
            out.append(f'<line class="grid" x1="{px}" x2="{px}" y1="{y0}" y2="{y1}"/>')
            out.append(f'<text class="tick" x="{px}" y="{y0 + 16}" text-anchor="middle">{_e(tick_label(t))}</text>')
    out.append(f'<line class="axis" x1="{x0}" x2="{x1}" y1="{y0}" y2="{y0}"/>')
    out.append(f'<line class="axis" x1="{x0}" x2="{x0}" y1="{y0}" y2="{y1}"/>')
    out.append(f'<text class="label" x="{(x0 + x1) / 2}" y="{H - 12}" text-anchor="middle">{_e(xlabel)}</text>')
    out.append(f'<text class="label" transform="translate(16 {(y0 + y1) / 2}) rotate(-90)" '
               f'text-anchor="middle">{_e(ylabel)}</text>')
    out.append("</g>")
    return out


def _mark(m: Mark, px: float, py: float, shape: str | None = None) -> str:
    cls = f"pt rg-{_e(m.region)}" + (" failing" if m.failing else "")
    parts = [f'<g class="{cls}"><title>{_e(m.tooltip or m.label)}</title>']
    if m.failing:
        parts.append(f'<circle class="ring" cx="{px:.2f}" cy="{py:.2f}" r="10"/>')
    parts.append(marker(shape or REGION_SHAPES.get(m.region, "circle"), px, py))
    parts.append("</g>")
    return "".join(parts)


def _empty(chart_id: str, title: str, why: str) -> str:
    out = _open(chart_id, title, why, "empty")
    out.append(f'<text class="label" x="{W / 2}" y="{H / 2}" text-anchor="middle">{_e(why)}</text></svg>')
    return "".join(out)


# ---------------------------------------------------------------- the Pareto step function
def frontier(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Non-dominated points (higher x and higher y are better), sorted by x ascending, y descending."""
    best = -math.inf
    out = []
    for x, y in sorted(points, key=lambda p: (-p[0], -p[1])):
        if y > best:
            out.append((x, y))
            best = y
    return out[::-1]


def step_path(front: list[tuple[float, float]], xa: Axis, ya: Axis, x_start: float) -> str:
    """f(x) = max{y_i : x_i >= x}: flat to each frontier point, then down to the next one."""
    if not front:
        return ""
    d = [f"M{xa(x_start)} {ya(front[0][1])}"]
    for i, (x, y) in enumerate(front):
        d.append(f"H{xa(x)}")
        if i + 1 < len(front):
            d.append(f"V{ya(front[i + 1][1])}")
    return "".join(d)


def pareto_chart(marks: list[Mark], chart_id: str, title: str, xlabel: str, ylabel: str) -> str:
    """System throughput (Y) against per-user speed (X) with the official step function."""
    plotted = [m for m in marks if finite(m.x) and finite(m.y)]
    ceilings = [m for m in marks if m.offline == "dedicated" and not finite(m.x) and finite(m.y)]
    if not plotted:
        return _empty(chart_id, title, "No point has both values to plot.")
    xs = [m.x for m in plotted]
    ys = [m.y for m in plotted] + [m.y for m in ceilings]
    xlo, xhi = _domain(xs)
    ylo, yhi = _domain(ys)
    xa, ya = Axis(xlo, xhi, ML, W - MR), Axis(ylo, yhi, H - MB, MT)
    front = frontier([(m.x, m.y) for m in plotted if m.offline != "dedicated"])
    n_front = len(front)
    desc = (f"{len(plotted)} points plotted, {n_front} on the Pareto frontier"
            + (f", Offline throughput ceiling {fmt_num(ceilings[0].y)}" if ceilings else "")
            + (f"; {len(marks) - len(plotted) - len(ceilings)} points without values" if
               len(marks) - len(plotted) - len(ceilings) else "") + ". The numbers are in the table below.")
    out = _open(chart_id, title, desc)
    out += _axes(xa, ya, nice_ticks(xlo, xhi), nice_ticks(ylo, yhi), xlabel, ylabel)
    for m in ceilings:
        py = ya(m.y)
        out.append(f'<g class="ceiling"><title>{_e(m.tooltip or m.label)}</title>'
                   f'<line x1="{ML}" x2="{W - MR}" y1="{py}" y2="{py}"/>'
                   f'<text x="{W - MR - 4}" y="{py - 5}" text-anchor="end">Offline ceiling {_e(fmt_num(m.y))}</text></g>')
    if front:
        out.append(f'<path class="step" d="{step_path(front, xa, ya, xlo)}"><title>Pareto frontier '
                   f'(official step function, no interpolation)</title></path>')
    for m in sorted(plotted, key=lambda m: (m.failing, m.x, m.y)):
        out.append(_mark(m, xa(m.x), ya(m.y), "diamond" if m.offline else None))
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- metric against concurrency (log2 x)
def _band_labels(bands, xa) -> list[str]:
    """Region names in the strip above the plot, centred on their band; one that would run into
    its neighbour or out of the chart is left out (the band's tooltip and the legend still name it)."""
    out, right = [], -math.inf
    for region, lo, hi in bands:
        x0, x1 = xa(max(lo - 0.5, 0.5)), xa(hi + 0.5)
        text = REGION_SHORT.get(region, region)
        half = len(text) * 3.6 + 2  # ~7.2 px per character at 11 px
        cx = min(max((x0 + x1) / 2, ML + half), W - MR - half)
        if cx - half < right:
            continue
        right = cx + half
        out.append(f'<text x="{cx:.2f}" y="{MT + 12}" text-anchor="middle">{_e(text)}</text>')
    return out


def concurrency_chart(marks: list[Mark], chart_id: str, title: str, ylabel: str, bands=None) -> str:
    """A metric (Y, linear) against concurrency (X, log2), with region bands and the margin hatched.

    ``bands`` is a list of (region, start, end) inclusive integer ranges (empty ones skipped). Region
    names sit in a strip above the plotted area, so no point covers them; the margin band is drawn at
    least MARGIN_PX wide and starts a marker's width right of C_max, so the C_max point stays in its
    own region.
    """
    plotted = [m for m in marks if finite(m.x) and m.x > 0 and finite(m.y)]
    if not plotted:
        return _empty(chart_id, title, "No point has both values to plot.")
    bands = [(r, lo, hi) for r, lo, hi in (bands or []) if finite(lo) and finite(hi) and lo <= hi and hi >= 1]
    xs = [m.x for m in plotted] + [b[2] + 0.5 for b in bands] + [max(b[1] - 0.5, 0.5) for b in bands]
    xlo, xhi = min(xs) / 1.4, max(xs) * 1.4
    ylo, yhi = _domain([m.y for m in plotted])
    stretch = [(lo - 1, lo - 0.5, GAP_PX) for r, lo, hi in bands if r == "margin" and lo > 1]
    stretch += [(lo - 0.5, hi + 0.5, MARGIN_PX) for r, lo, hi in bands if r == "margin"]
    top = MT + STRIP if bands else MT
    xa, ya = Axis(xlo, xhi, ML, W - MR, log=True, stretch=stretch), Axis(ylo, yhi, H - MB, top)
    cid = _e(chart_id)
    desc = (f"{len(plotted)} points on a log2 concurrency axis"
            + (", shaded by computed region" if bands else "") + ". The numbers are in the table below.")
    out = _open(chart_id, title, desc)
    out.append(f'<defs><pattern id="{cid}-hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
               f'patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="6" class="hatch"/></pattern></defs>')
    for region, lo, hi in bands:
        x0, x1 = xa(max(lo - 0.5, 0.5)), xa(hi + 0.5)
        fill = f' fill="url(#{cid}-hatch)"' if region == "margin" else ""
        out.append(f'<g class="band rg-{_e(region)}"><title>{_e(REGION_LABELS.get(region, region))}: '
                   f'{lo:,}–{hi:,}</title><rect x="{x0}" y="{MT}" width="{max(x1 - x0, 0.5):.2f}" '
                   f'height="{H - MB - MT}"{fill}/></g>')
    if bands:
        out.append('<g class="band-labels" aria-hidden="true">' + "".join(_band_labels(bands, xa)) + "</g>")
    out += _axes(xa, ya, log2_ticks(xlo, xhi), nice_ticks(ylo, yhi), "Concurrency (log scale)", ylabel, top)
    for m in sorted(plotted, key=lambda m: (m.failing, m.x)):
        out.append(_mark(m, xa(m.x), ya(m.y)))
    out.append("</svg>")
    return "".join(out)


# ---------------------------------------------------------------- cohort overlay
def overlay_chart(series: list[Series], chart_id: str, title: str, xlabel: str, ylabel: str) -> str:
    """Several curves' step functions on one chart; series told apart by colour, dash and marker."""
    allm = [m for s in series for m in s.marks if finite(m.x) and finite(m.y) and m.offline != "dedicated"]
    if not allm:
        return _empty(chart_id, title, "No curve has points with both values to plot.")
    xlo, xhi = _domain([m.x for m in allm])
    ylo, yhi = _domain([m.y for m in allm])
    xa, ya = Axis(xlo, xhi, ML, W - MR), Axis(ylo, yhi, H - MB, MT)
    desc = f"{len(series)} curves overlaid as step functions. The numbers are in the table below."
    out = _open(chart_id, title, desc, "overlay")
    out += _axes(xa, ya, nice_ticks(xlo, xhi), nice_ticks(ylo, yhi), xlabel, ylabel)
    for i, s in enumerate(series):
        pts = [m for m in s.marks if finite(m.x) and finite(m.y) and m.offline != "dedicated"]
        if not pts:
            continue
        front = frontier([(m.x, m.y) for m in pts])
        dash = SERIES_DASH[(i // 8) % len(SERIES_DASH)]
        dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
        out.append(f'<g class="series s{i % 8}"><title>{_e(s.label)}</title>')
        out.append(f'<path class="step" d="{step_path(front, xa, ya, xlo)}"{dash_attr}/>')
        shape = SERIES_SHAPES[i % len(SERIES_SHAPES)]
        for m in sorted(pts, key=lambda m: (m.x, m.y)):
            cls = "failing" if m.failing else ""
            out.append(f'<g class="{cls}"><title>{_e(m.tooltip or m.label)}</title>'
                       f'{marker(shape, xa(m.x), ya(m.y), 4.0)}</g>')
        out.append("</g>")
    out.append("</svg>")
    return "".join(out)


def legend_swatch(i: int) -> str:
    """A small inline SVG sample of series ``i``'s line and marker, for the legend table."""
    dash = SERIES_DASH[(i // 8) % len(SERIES_DASH)]
    dash_attr = f' stroke-dasharray="{dash}"' if dash else ""
    return (f'<svg class="swatch series s{i % 8}" viewBox="0 0 36 12" width="36" height="12" aria-hidden="true">'
            f'<path class="step" d="M0 6H36"{dash_attr}/>{marker(SERIES_SHAPES[i % len(SERIES_SHAPES)], 18, 6, 4)}</svg>')


def region_swatch(region: str) -> str:
    return (f'<svg class="swatch pt rg-{_e(region)}" viewBox="0 0 14 14" width="14" height="14" aria-hidden="true">'
            f'{marker(REGION_SHAPES.get(region, "circle"), 7, 7, 5)}</svg>')
