"""Curve family, part 2: the Offline point, the benchmark type, region coverage and point counts.

The dedicated Offline run (``offline: dedicated``) counts toward no region and never enters C_min;
an elected C_max point keeps its High role. Agentic curves (``checker.domain.benchmark.is_agentic``:
the model's type, else every fixed-concurrency point using ``agentic_inference``) have no Offline
point and need 7 points.
"""
from __future__ import annotations

from checker.core.values import file_value, is_int
from checker.domain.benchmark import is_agentic
from checker.domain.regions import REGION_LABELS, curve_regions, empty_region_note, span
from checker.core.rule import Fail, Pass, Skip, rule
from rules.curve.points import known_regions, where


def _offline_points(curve, value: str) -> list:
    return [p for p in curve.points if p.yaml is not None and p.offline == value]


@rule(id="offline-declared", title="Offline declared", clause="R§8.3", severity="reject-points",
      scope="point", needs=("point_yaml", "policy:curve"), official=True)
def offline_declared(point, ctx):
    """point.yaml `offline` is absent, `none`, `dedicated` or `elected`.

    What it checks: the value is one of the permitted strings, spelled exactly (lower case).
    Why: R§8.3 defines the vocabulary; any other value leaves the Offline requirement undecidable
    and rejects the point.
    How to fix: Write `offline: dedicated` on a dedicated Offline run, `offline: elected` on the C_max
    point elected as Offline, and `offline: none` (or nothing) elsewhere.
    """
    allowed = ctx.policy.get("curve").offline_values
    lf = point.files["point_yaml"]
    if not isinstance(lf.data, dict) or "offline" not in lf.data or lf.data["offline"] is None:
        return Pass("no offline declaration (none)")
    value = lf.data["offline"]
    if isinstance(value, str) and value in allowed:
        return Pass(f"offline: {value}")
    near = [a for a in allowed if isinstance(value, str) and a == value.strip().lower()]
    hint = f" Did you mean {near[0]!r}?" if near else ""
    return Fail(f"{where(point, 'offline')}: offline {value!r} is not one of {', '.join(allowed)}.{hint}", file=lf,
                path=("offline",), observed=value, expected=allowed)


@rule(id="offline-point-present", title="Offline point", clause="R§5.7", severity="reject",
      scope="curve", needs=("policy:models", "maybe:point_yaml", "has:points"), official=True)
def offline_point_present(curve, ctx):
    """Single-turn curves have exactly one Offline point (an elected one at C_max); agentic curves none.

    What it checks: a single-turn curve has exactly one point declaring `offline: dedicated` or
    `offline: elected`, and an elected point's concurrency equals C_max. An agentic curve (an agentic
    benchmark model in models.yaml; for a model it does not know, every fixed-concurrency point
    using agentic_inference) declares neither.
    Why: R§5.7 and R§9.1 ("Offline point present"): the Offline throughput ceiling is part of every
    single-turn curve and out of scope for agentic benchmarks.
    How to fix: Add a dedicated Offline run (`offline: dedicated`, concurrency = dataset size) or
    mark the C_max point `offline: elected`; on an agentic curve remove every offline declaration.
    """
    ded, ele = _offline_points(curve, "dedicated"), _offline_points(curve, "elected")
    both = sorted(ded + ele, key=lambda p: p.dir_concurrency or 0)
    if is_agentic(curve, ctx.policy.get("models")):
        if both:
            p = both[0]
            named = ", ".join(f"{where(q, 'offline')} offline: {q.offline}" for q in both)
            return Fail(f"agentic curve must have no Offline point: {named}",
                        file=p.files["point_yaml"], path=("offline",), observed=[q.name for q in both], expected=[],
                        fix="Remove the Offline run and every `offline: dedicated/elected` from this agentic curve.")
        return Pass("agentic curve without an Offline point")
    if not both:
        unread = [p.name for p in curve.points if p.yaml is None]
        if unread:
            return Skip(f"no readable point declares an Offline run, and point.yaml did not load at "
                        f"{', '.join(unread)}, which may be it", reason="input-not-loaded")
        return Fail("no Offline point: no point declares offline: dedicated or offline: elected",
                    file=curve.rel, observed=0, expected="exactly one Offline point")
    if len(both) > 1:
        named = ", ".join(f"{where(q, 'offline')} offline: {q.offline}" for q in both)
        return Fail(f"{len(both)} Offline points, exactly one allowed: {named}", file=both[1].files["point_yaml"],
                    path=("offline",), observed=[q.name for q in both], expected="exactly one Offline point")
    p = both[0]
    if p.offline == "dedicated":
        return Pass(f"one Offline point: {p.name} (dedicated run)")
    cr = curve_regions(curve)
    if cr.c_max is None:
        return Skip(f"{p.name} is elected as Offline but C_max is unknown, so its placement cannot be checked "
                    f"(see region-basis)", reason="missing-input")
    if p.yaml.concurrency != cr.c_max:
        return Fail(f"{where(p, 'offline')}: offline: elected on concurrency {p.yaml.concurrency}, but only the "
                    f"C_max point ({cr.c_max}) may be elected", file=p.files["point_yaml"], path=("offline",),
                    observed=p.yaml.concurrency, expected=cr.c_max,
                    fix=f"Move `offline: elected` to the point at concurrency {cr.c_max}, or add a dedicated run.")
    return Pass(f"one Offline point: {p.name} (the C_max point, elected)")


@rule(id="benchmark-type-consistency", title="Benchmark type consistency", clause="R§6.1", severity="flag", scope="curve", official=True, needs=("maybe:point_yaml", "has:points"))
def benchmark_type_consistency(curve, ctx):
    """Every fixed-concurrency point of a curve is agentic (agentic_inference), or none is.

    What it checks: `runtime_settings.load_pattern` of every point except the dedicated Offline run
    falls in one family: all `agentic_inference`, or none. A mixed curve is checked as single-turn.
    Why: the benchmark type decides the Offline requirement, the point minimum and the accuracy
    gate (R§4.1, R§6.1); a curve cannot be both.
    How to fix: Run every point of the curve with the same load pattern family (the message names the
    points that differ from the rest).
    """
    pts = [p for p in curve.points if p.yaml is not None and not p.is_dedicated_offline]
    agentic = [p for p in pts if p.load_pattern == "agentic_inference"]
    other = [p for p in pts if p.load_pattern != "agentic_inference"]
    if not agentic or not other:
        kind = "agentic (agentic_inference)" if agentic else "single-turn"
        return Pass(f"all {len(pts)} fixed-concurrency points are {kind}")
    odd = agentic if len(agentic) <= len(other) else other
    key = ("runtime_settings", "load_pattern")
    named = ", ".join(f"{where(p, key)} {p.load_pattern!r}" for p in odd)
    return Fail(f"mixed load patterns: {len(agentic)} agentic_inference point(s) and {len(other)} other; these "
                f"differ from the rest: {named}. The curve is checked as single-turn.",
                file=odd[0].files["point_yaml"], path=key, observed={p.name: p.load_pattern for p in pts},
                expected="one load-pattern family for every point")


@rule(id="offline-ordering", title="Offline point ordering", clause="R§5.7.2", severity="flag",
      scope="curve", needs=("policy:curve", "maybe:point_yaml", "maybe:result_summary", "maybe:system_desc", "has:points"), official=True)
def offline_ordering(curve, ctx):
    """A dedicated Offline run reaches at least C_max concurrency and 98 % of the C_max point's throughput.

    What it checks: for a point declaring `offline: dedicated`: concurrency >= C_max, and system_tps
    (output tokens / duration, from result_summary.json) >= 0.98 x the system_tps of the point at
    exactly C_max. When no point sits exactly at C_max the throughput half cannot be judged: SKIP
    with that reason (the official checker silently passes). Not applicable to an elected C_max point.
    Why: R§5.7.2: the Offline result is the curve's throughput ceiling; 2 % is the noise tolerance.
    How to fix: Re-run the Offline point on the same configuration as the C_max point, or find why it
    is slower than the fixed-concurrency run.
    """
    ratio = ctx.policy.get("curve").offline_tps_ratio
    ded = _offline_points(curve, "dedicated")
    if not ded:
        why = "the C_max point is elected as Offline" if _offline_points(curve, "elected") else "none declared"
        return Skip(f"no dedicated Offline point ({why}); ordering does not apply", reason="not-applicable")
    cr = curve_regions(curve)
    if cr.c_max is None:
        return Skip("C_max is unknown (see region-basis)", reason="missing-input")
    cmax_pts = [p for p in curve.points if not p.is_dedicated_offline and p.concurrency == cr.c_max]
    problems, notes, first = [], [], None
    for p in ded:
        c = p.yaml.concurrency
        if isinstance(c, int) and c < cr.c_max:
            problems.append(f"{where(p, 'concurrency')}: Offline concurrency {c} is below C_max {cr.c_max}")
            first = first or (p.files["point_yaml"], ("concurrency",))
        if not cmax_pts:
            continue
        ref = cmax_pts[0]
        tps_off, tps_ref = _tps(p), _tps(ref)
        if tps_off is None or tps_ref is None:
            missing = p.name if tps_off is None else ref.name
            notes.append(f"system_tps of {missing} cannot be derived from result_summary.json")
        elif tps_off < ratio * tps_ref:
            problems.append(f"{p.name}: Offline system_tps {tps_off:.1f} is below {ratio} x {tps_ref:.1f} "
                            f"(= {ratio * tps_ref:.1f}) of the C_max point {ref.name}")
            first = first or (p.files["result_summary"], ("output_sequence_lengths", "total"))
        else:
            notes.append(f"{p.name} system_tps {tps_off:.1f} >= {ratio} x {tps_ref:.1f} ({ref.name})")
    if problems:
        return Fail("; ".join(problems), file=first[0], path=first[1], observed=problems,
                    expected=f"concurrency >= {cr.c_max} and system_tps >= {ratio} x the C_max point's")
    if not cmax_pts:
        near = min((p for p in curve.points if not p.is_dedicated_offline and isinstance(p.concurrency, int)),
                   key=lambda p: abs(p.concurrency - cr.c_max), default=None)
        hint = f"; the closest point is {near.name}" if near is not None else ""
        return Skip(f"no point sits exactly at C_max {cr.c_max}{hint}, so the throughput half (system_tps >= "
                    f"{ratio} x the C_max point's) cannot be checked; the concurrency half passed",
                    reason="missing-input")
    if any("cannot be derived" in n for n in notes):
        return Skip("; ".join(notes), reason="missing-input")
    return Pass(f"Offline concurrency >= C_max {cr.c_max}; " + "; ".join(notes))


def raw_region(point):
    return file_value(point, "point_yaml", "region")


def _tps(point):
    s = point.summary
    try:
        v = s.derived_system_tps if s is not None else None
    except (TypeError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return v if isinstance(v, float) and v == v and v not in (float("inf"), float("-inf")) else None


def _fixed_points(curve):
    """Points that count toward regions: every point but the dedicated Offline run, with a concurrency."""
    return [p for p in curve.points if not p.is_dedicated_offline and is_int(p.concurrency)]


def _points_txt(pts) -> str:
    return ", ".join(f"{p.name}" for p in pts) or "none"


@rule(id="ultra-low-concurrency-coverage", title="Ultra Low Concurrency coverage", clause="R§5.4",
      severity="reject", scope="curve", needs=("policy:curve", "maybe:point_yaml", "has:points"), official=True)
def ultra_low_coverage(curve, ctx):
    """At least one point has concurrency at most 32 (the ultra_low band, fixed for everybody).

    What it checks: some fixed-concurrency point (not the dedicated Offline run) has
    1 <= concurrency <= 32, independent of C_min.
    Why: R§5.4 and R§9.1: the low_latency point is mandatory.
    How to fix: Add a point at concurrency 32 or below (concurrency 1 is encouraged).
    """
    limit = ctx.policy.get("curve").ultra_low_max
    pts = _fixed_points(curve)
    hits = [p for p in pts if 1 <= p.concurrency <= limit]
    if hits:
        return Pass(f"{len(hits)} point(s) at or below {limit}: {_points_txt(hits)}")
    return Fail(f"no point has concurrency 1..{limit}; fixed-concurrency points: "
                f"{', '.join(str(p.concurrency) for p in pts) or 'none'}", file=curve.rel,
                observed=[p.concurrency for p in pts], expected=f"at least one point in 1..{limit}")


def _coverage(curve, region: str):
    cr = known_regions(curve)
    r = cr.regions
    lo, hi = r.bounds[region]
    label = REGION_LABELS[region]
    pts = _fixed_points(curve)
    hits = [p for p in pts if r.region_of(p.concurrency) == region]
    if hits:
        return Pass(f"{label} {span((lo, hi))} holds {_points_txt(hits)}")
    placed = ", ".join(f"{p.name} in {r.region_of(p.concurrency) or 'no region'}" for p in pts)
    if lo > hi:
        why = empty_region_note(r)
        return Fail(f"the {label} region is empty ({span((lo, hi))}): {why}. Points: {placed}.", file=curve.rel,
                    observed=[p.concurrency for p in pts], expected=f"{label} region non-empty and covered",
                    fix="Raise max_supported_concurrency (C_max) or lower C_min (a lower point or a valid "
                        "c_min_override) until the region is non-empty, then run a point in it.")
    extra = " (margin points never count for high_concurrency)" if region == "high_concurrency" else ""
    return Fail(f"no point in the {label} region {lo}-{hi}{extra} (C_max {r.c_max}, C_min {r.c_min}); points: "
                f"{placed}", file=curve.rel, observed=[p.concurrency for p in pts], expected=f"a point in {lo}-{hi}",
                fix=f"Run a point at a concurrency in {lo}-{hi}.")


_COVERAGE_DOC = """At least one point lies in the computed {label} region.

    What it checks: some fixed-concurrency point (the dedicated Offline run counts toward no
    region) has a concurrency inside the {label} region R§5.5 computes from C_max and C_min.
    {extra}When rounding leaves the region empty (start > end; tiny C_max - C_min) the FAIL says so: no
    point can ever cover it.
    Why: R§5.3 and R§9.1: one point in each of low_concurrency, med_concurrency and
    high_concurrency is mandatory.
    How to fix: Run a point at a concurrency inside the region named in the message.
    """


def _declare_coverage(region: str, rule_id: str, title: str, extra: str = ""):
    def check(curve, ctx):
        return _coverage(curve, region)

    check.__doc__ = _COVERAGE_DOC.format(label=REGION_LABELS[region], extra=extra)
    check.__name__ = rule_id.replace("-", "_")
    globals()[check.__name__] = rule(id=rule_id, title=title, clause="R§9.1", severity="reject", scope="curve",
                                     official=True, needs=("has:points", "maybe:point_yaml", "maybe:system_desc"))(check)


_declare_coverage("low_concurrency", "low-concurrency-coverage", "Low Concurrency coverage")
_declare_coverage("med_concurrency", "med-concurrency-coverage", "Medium Concurrency coverage")
_declare_coverage("high_concurrency", "high-concurrency-coverage", "High Concurrency coverage",
                  "Points in the 10 % margin above C_max never count.\n    ")


@rule(id="point-count", title="Number of points", clause="R§5.3", severity="reject",
      scope="curve", needs=("policy:curve", "policy:models", "maybe:point_yaml", "has:points"), official=True)
def point_count(curve, ctx):
    """The curve has enough points: 8 with a dedicated Offline run, otherwise 7 (elected or agentic).

    What it checks: the number of r<N> directories (unreadable ones included) is at least 8 when a
    point declares `offline: dedicated`, and at least 7 otherwise (C_max elected as Offline, or an
    agentic curve).
    Why: R§5.3 and R§9.1: 1 ultra_low + 3 mandatory + 3 submitter's-choice points, plus the Offline
    run when it is a dedicated one.
    How to fix: Add submitter's-choice points until the minimum is reached.
    """
    mins = ctx.policy.get("curve").min_points
    n = len(curve.points)
    if is_agentic(curve, ctx.policy.get("models")):
        need, why = mins.agentic, "agentic curve"
    elif _offline_points(curve, "dedicated"):
        need, why = mins.dedicated_offline, "a dedicated Offline run is declared"
    else:
        need, why = mins.default, "no dedicated Offline run (C_max elected, or no Offline point)"
    if n < need:
        return Fail(f"{n} point(s): {_points_txt(curve.points)}; at least {need} needed ({why})", file=curve.rel,
                    observed=n, expected=f">= {need}")
    return Pass(f"{n} points (at least {need}: {why})")


@rule(id="point-cap", title="Point cap", clause="R§5.6", severity="reject-points",
      scope="curve", needs=("policy:curve", "has:points"), official=True)
def point_cap(curve, ctx):
    """The curve has at most 32 points, the Offline point included.

    What it checks: the number of r<N> directories is at most 32. The checker loads the 64 lowest
    (2048 per submission); any further r<N> directories are named here, once, and fail.
    Why: R§5.6 and R§9.1: points beyond 32 are rejected.
    How to fix: Remove submitter's-choice points until at most 32 remain.
    """
    cap = ctx.policy.get("curve").max_points
    excess = list(getattr(curve, "excess_points", None) or [])
    n = len(curve.points) + len(excess)
    unchecked = ""
    if excess:  # the loader checks a bounded number of points; the rest are named here, once
        shown = ", ".join(excess[:5]) + (f" and {len(excess) - 5} more" if len(excess) > 5 else "")
        unchecked = (f"; {len(excess)} point director{'y' if len(excess) == 1 else 'ies'} beyond the first "
                     f"{len(curve.points)} (by concurrency) were not checked: {shown}")
    if n > cap:
        choice = [p.name for p in curve.points if raw_region(p) == "submitters_choice"]
        return Fail(f"{n} points, at most {cap} allowed (Offline included): the {n - cap} point(s) beyond the cap "
                    f"are rejected; submitter's-choice points: {', '.join(choice) or 'none'}{unchecked}",
                    file=curve.rel, observed=n, expected=f"<= {cap}",
                    fix=f"Remove {n - cap} submitter's-choice point(s).")
    if excess:
        return Fail(f"{n} points{unchecked}", file=curve.rel, observed=n, expected=f"<= {len(curve.points)}",
                    fix="Remove point directories until every one can be checked.")
    return Pass(f"{n} points (at most {cap})")


