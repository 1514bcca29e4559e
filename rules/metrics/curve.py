"""Metrics that need the curve or the agentic fields: tps-utilization, agentic-metric-consistency."""
from __future__ import annotations

import math

from checker.domain.point_metrics import point_metric
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import loaded_mapping, show_number
from rules.metrics.point import check_stored


def curve_max_tps(curve):
    """(max derived system_tps over the curve's points, the point holding it), memoised."""

    def compute():
        vals = [(p.summary.derived_system_tps, p.name) for p in curve.points if p.summary is not None]
        vals = [(v, n) for v, n in vals if v is not None and math.isfinite(v) and v > 0]
        return max(vals) if vals else (None, None)

    return curve.cached("metrics:max_tps", compute)


def expected_utilization(point) -> float | None:
    top, _ = curve_max_tps(point.curve)
    s = point.summary
    v = s.derived_system_tps if s is not None else None
    if top is None or v is None or not math.isfinite(v):
        return None
    return v / top


@rule(id="tps-utilization", title="TPS utilization", clause="R§8.2", severity="flag",
      scope="curve", needs=("policy:metrics", "maybe:result_summary", "maybe:system_desc"), official=True,
      consequence_of=("unknown-key",))
def tps_utilization(curve, ctx):
    """Each point's `tps_utilization` equals its system_tps / the curve's highest system_tps, within 0.1.

    What it checks: system_desc.json `tps_utilization` at every point is a finite number within
    metrics.yaml `tps_utilization_abs_tolerance` (0.1 absolute) of derived system_tps divided by
    the maximum derived system_tps over all points of the curve (the dedicated Offline point
    included: the rules do not exclude it, and it is usually the maximum). Absent values FAIL.
    Why: R§8.2 asks for the utilisation at each point relative to the system's best throughput.
    How to fix: Set tps_utilization = system_tps / max(system_tps over the curve) at each point.
    """
    top, top_name = curve_max_tps(curve)
    if top is None:
        return Skip("no point has a derivable system_tps (see metric-consistency-*)", reason="missing-input")
    tol = ctx.policy.get("metrics").tps_utilization_abs_tolerance
    bad, checked = [], 0
    for p in curve.points:
        lf = loaded_mapping(p.files.get("system_desc"))
        if lf is None:
            continue
        exp = expected_utilization(p)
        if exp is None:
            continue
        checked += 1
        v = lf.data.get("tps_utilization")
        if not (isinstance(v, (int, float)) and not isinstance(v, bool)) or not math.isfinite(v):
            bad.append((p, lf, v, exp, "absent" if v is None else f"not a finite number ({v!r})"))
        elif abs(v - exp) > tol:
            bad.append((p, lf, v, exp, f"{show_number(v)} vs {show_number(round(exp, 4))}"))
    if bad:
        p, lf, v, exp, _ = bad[0]
        listed = "; ".join(f"{q.name}: {why}" for q, _l, _v, _e, why in bad)
        return Fail(f"tps_utilization off by more than {tol} at {len(bad)} point(s) (max system_tps "
                    f"{show_number(top)} at {top_name}): {listed}", file=lf, path=("tps_utilization",),
                    observed={q.name: vv for q, _l, vv, _e, _w in bad},
                    expected={q.name: round(e, 4) for q, _l, _v, e, _w in bad})
    if not checked:
        return Skip("no point has both a system description and a derivable system_tps", reason="missing-input")
    return Pass(f"{checked} point(s) within {tol} of system_tps / {show_number(top)} (max at {top_name})")


@rule(id="agentic-metric-consistency", title="Agentic metric consistency", clause="R§4.1, R§9.1", severity="flag", scope="point", needs=("result_summary", "policy:metrics"), official=True)
def agentic_metric_consistency(point, ctx):
    """A stored `e2e_avg_interactivity` equals Σ output tokens per turn / Σ e2e turn seconds within 1 %.

    What it checks: when result_summary.json stores `e2e_avg_interactivity`, it is derivable from
    `output_tokens_per_turn_total` / `e2e_turn_time_seconds_total` (both present, finite, seconds
    > 0) and within `relative_tolerance`. SKIP when nothing is stored.
    Why: e2e_avg_interactivity is the agentic curve's X axis (R§4.1).
    How to fix: Copy the client's values unchanged; do not compute the ratio by hand.
    """
    s = point.summary
    return check_stored(s, point.files["result_summary"], "e2e_avg_interactivity", s.derived_e2e_avg_interactivity,
                        ctx.policy.get("metrics").relative_tolerance,
                        "output_tokens_per_turn_total / e2e_turn_time_seconds_total")


@point_metric("e2e_avg_interactivity", "E2E interactivity (agentic)", "tok/s")
def _interactivity(point, ctx):
    s = point.summary
    if s is None:
        return None
    return s.e2e_avg_interactivity if s.e2e_avg_interactivity is not None else s.derived_e2e_avg_interactivity


@point_metric("tps_utilization_derived", "TPS utilization (derived)")
def _util(point, ctx):
    return expected_utilization(point)
