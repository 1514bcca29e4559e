"""Curve family, part 1: C_max and C_min, the R§5.5 regions, and where each point sits in them.

Every rule reads the same ``checker.domain.regions.curve_regions(curve)`` (memoised on the curve), so the
basis is derived once and each problem is reported by exactly one rule: the basis by region-basis,
the arithmetic by region-computation, the override by c-min-override. Curve-shape rules (Offline,
coverage, counts) are in ``rules/curve/shape.py``.
"""
from __future__ import annotations

from pydantic import Field

from checker.domain.point_metrics import point_metric
from checker.domain.regions import (REGION_LABELS, curve_regions, describe, empty_region_note, exact_margin_end,
                             float_margin_note, span)
from checker.core.fixes import Edit
from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from checker.core.values import file_value
from rules.shared.strict import StrictModel


class _MinPoints(StrictModel):
    """Minimum points per curve (R§5.3)."""

    dedicated_offline: int = Field(description="with a dedicated Offline run")
    default: int = Field(description="when the C_max point is elected as Offline")
    agentic: int = Field(description="for agentic curves (no Offline point)")


class CurvePolicy(StrictModel):
    """Curve-shape thresholds and vocabularies (rules/policy/<edition>/curve.yaml)."""

    schema_version: int = Field(description="version of this file's layout")
    min_points: _MinPoints = Field(description="minimum points per curve (R§5.3)")
    max_points: int = Field(description="at most this many points per curve, the Offline point included (R§5.6)")
    ultra_low_max: int = Field(
        description="ultra-low-concurrency coverage: a point at or below this concurrency (R§5.4)")
    offline_tps_ratio: float = Field(
        description="a dedicated Offline point's system_tps must be at least this times the C_max point's (R§5.7.2)")
    region_values: list[str] = Field(description="values point.yaml `region` may take")
    offline_values: list[str] = Field(description="values point.yaml `offline` may take (absent or null means none)")


def where(point, key) -> str:
    """'r64 (point.yaml line 5)': the point and the line of ``key`` in its point.yaml."""
    lf = point.files.get("point_yaml")
    if lf is None or not lf.ok:
        return point.name
    path = key if isinstance(key, tuple) else (key,)
    line, _ = lf.position(path)
    return f"{point.name} (point.yaml line {line})" if line else point.name


def known_regions(curve):
    """The curve's CurveRegions when its regions are known; else ``Skipped`` naming why."""
    cr = curve_regions(curve)
    if cr.regions is None:
        raise Skipped(f"regions cannot be computed: {cr.error} (see region-basis / region-computation)",
                      reason="missing-input")
    return cr


@rule(id="region-basis", title="Region boundaries (C_max and C_min basis)", clause="R§5.4", severity="warn", scope="curve", official=True, needs=("maybe:point_yaml", "maybe:system_desc", "has:points"))
def region_basis(curve, ctx):
    """Reports where C_max and C_min come from, and warns when the basis is shaky.

    What it checks: C_max is `max_supported_concurrency` as declared in system_desc.json (point.yaml
    when no system_desc.json declares it); every declaration in the curve must agree. C_min is the
    lowest concurrency of the curve's fixed-concurrency points, capped at 32 (the dedicated Offline
    run never counts), or a valid `c_min_override`. FAIL (warn) when no C_max is declared, when
    declarations disagree or are not integers, when the lowest point's point.yaml did not load (its
    directory name then decides C_min), or when no concurrency is readable at all.
    Why: every region, coverage and placement rule rests on these two numbers (R§5.4, R§5.5);
    dropping or misreading the lowest point moves every boundary.
    How to fix: Declare the same integer max_supported_concurrency in every system_desc.json and
    point.yaml of the curve, and make every point.yaml loadable.
    """
    cr = curve_regions(curve)
    problems, first = [], None
    if cr.c_max is None:
        problems.append("no system_desc.json or point.yaml declares an integer max_supported_concurrency, so "
                        "no region can be computed and every region rule is skipped")
    for d in cr.c_max_bad:
        problems.append(f"{d.where}: max_supported_concurrency {d.value!r} is not an integer")
        first = first or d
    dis = cr.c_max_disagreements
    if dis:
        listed = ", ".join(f"{d.where} says {d.value}" for d in dis[:6]) + (" ..." if len(dis) > 6 else "")
        problems.append(f"max_supported_concurrency disagrees across the curve: {cr.c_max} (from "
                        f"{cr.c_max_source}) is used, but {listed}")
        first = first or dis[0]
    if cr.lowest_point in cr.unreadable:
        problems.append(f"C_min rests on the directory name {cr.lowest_point}: its point.yaml did not load")
    if not cr.basis_points:
        problems.append("no point has a readable concurrency, so C_min cannot be derived")
    if problems:
        lowest = next((p.rel for p in curve.points if p.name == cr.lowest_point), curve.rel)
        kw = {"file": first.file, "path": (first.key,)} if first else {"file": lowest if cr.unreadable else curve.rel}
        return Fail("; ".join(problems), observed={d.where: d.value for d in cr.c_max_decl + cr.c_max_bad} or None,
                    expected="one integer max_supported_concurrency declared identically at every point", **kw)
    c_max_txt = f"C_max = {cr.c_max} from {cr.c_max_source} (all {len(cr.c_max_decl)} declarations agree)"
    n = len(cr.basis_points)
    if cr.c_min_basis == "override":
        c_min_txt = (f"C_min = {cr.c_min} from c_min_override (derivation from the {n} fixed-concurrency points "
                     f"would give {cr.c_min_derived})")
    else:
        low = dict(cr.basis_points)[cr.lowest_point]
        capped = f", capped at 32 from {low}" if low > 32 else ""
        c_min_txt = (f"C_min = {cr.c_min} derived from the lowest of {n} fixed-concurrency points "
                     f"({cr.lowest_point}{capped})")
    unread = f" (point.yaml did not load at {', '.join(cr.unreadable)}: directory names used)" if cr.unreadable else ""
    return Pass(f"{c_max_txt}; {c_min_txt}{unread}", observed={"c_max": cr.c_max, "c_min": cr.c_min})


@rule(id="region-computation", title="Region boundaries (R§5.5 input)", clause="R§5.5", severity="reject", scope="curve",
      official=True, needs=("maybe:point_yaml", "maybe:system_desc", "has:points"))
def region_computation(curve, ctx):
    """The region algorithm's inputs are valid: `1 <= C_min <= 32` and `C_max > 32`.

    What it checks: R§5.5 computes the regions from (C_max, C_min); it is defined only for
    1 <= C_min <= 32 < C_max. The PASS message gives the resulting regions, notes regions that
    rounding leaves empty or a single level wide, and the float margin end (see margin-float-ceiling).
    Why: a curve whose regions cannot be computed cannot show coverage (R§9.1 "Max concurrency
    declared": C_max > 32, else reject).
    How to fix: Declare max_supported_concurrency greater than 32 (33 or less needs the WG's written
    justification), and make sure the lowest point is at most 32.
    """
    cr = curve_regions(curve)
    if cr.c_max is None or cr.c_min is None:
        return Skip(f"regions cannot be computed: {cr.error} (see region-basis)", reason="missing-input")
    if cr.regions is None:
        d = cr.c_max_where()
        kw = {"file": d.file, "path": (d.key,)} if d else {"file": curve.rel}
        return Fail(f"regions cannot be computed for C_max {cr.c_max}, C_min {cr.c_min}: {cr.error}",
                    observed={"c_max": cr.c_max, "c_min": cr.c_min}, expected="1 <= C_min <= 32 < C_max", **kw)
    r = cr.regions
    notes = [n for n in (empty_region_note(r), _single_levels(r), float_margin_note(r)) if n]
    return Pass(f"C_max {r.c_max}, C_min {r.c_min}: {describe(r)}" + "".join(f"; note: {n}" for n in notes),
                observed={k: list(v) for k, v in r.bounds.items()})


def _single_levels(r) -> str | None:
    one = [f"{REGION_LABELS[n]} ({lo})" for n, (lo, hi) in r.bounds.items() if lo == hi and n != "low_latency"]
    return f"{', '.join(one)} {'is' if len(one) == 1 else 'are'} one level wide (boundary collision)" if one else None


@rule(id="c-min-override", title="C_min override", clause="R§5.4", severity="reject",
      scope="curve", official=True, needs=("maybe:point_yaml", "maybe:system_desc", "has:points"))
def c_min_override(curve, ctx):
    """A `c_min_override` in system_desc.json is an integer 1..32, on every point, equal to a submitted point.

    What it checks: when any system_desc.json of the curve declares `c_min_override`, every point's
    system_desc.json declares the same JSON integer in 1..32, and it equals the concurrency of a
    submitted fixed-concurrency point. SKIP when no point declares one (C_min is then derived).
    An invalid override is ignored: C_min falls back to the derived value.
    Why: C_min sets the low_latency region and every boundary above it (R§5.4, R§5.5); an override
    that names no submitted point, or differs between points, makes the regions ambiguous.
    How to fix: Declare the same integer c_min_override in every system_desc.json of the curve, equal
    to the concurrency of one of your points (1..32), or remove it everywhere.
    """
    cr = curve_regions(curve)
    if not cr.override_decl:
        return Skip("no system_desc.json declares c_min_override; C_min is derived from the points",
                    reason="not-applicable")
    if cr.override_problems:
        msg, decl = next(((m, d) for m, d in cr.override_problems if d is not None), cr.override_problems[0])
        kw = {"file": decl.file, "path": ("c_min_override",)} if decl else {"file": curve.rel}
        return Fail("invalid c_min_override: " + "; ".join(m for m, _ in cr.override_problems)
                    + f". C_min falls back to the derived {cr.c_min_derived}.",
                    observed={d.where: d.value for d in cr.override_decl}, expected=(
                        "the same integer 1..32 at every point, equal to a submitted concurrency"), **kw)
    return Pass(f"c_min_override {cr.c_min} declared at all {len(cr.override_decl)} points and matches a "
                f"submitted point", observed=cr.c_min)


def _point_regions(point):
    """(CurveRegions, concurrency) for a fixed-concurrency point whose curve's regions are known; else
    ``Skipped`` naming why."""
    if point.is_dedicated_offline:
        raise Skipped("dedicated Offline point: counts toward no region and is exempt (R§5.7.2)",
                      reason="not-applicable")
    c = point.yaml.concurrency
    if not isinstance(c, int) or c <= 0:
        raise Skipped("point.yaml declares no valid concurrency (see point-config-valid)", reason="missing-input")
    return known_regions(point.curve), c


def _computed_region(point) -> str:
    """The region R§5.5 computes for the point, in words (or why it cannot be computed)."""
    try:
        cr, c = _point_regions(point)
    except Skipped as skip:
        return f"no region can be computed ({skip})"
    computed = cr.regions.region_of(c)
    if computed is None:
        return f"concurrency {c} is in no region of C_max {cr.c_max}, C_min {cr.c_min} (see concurrency-in-range)"
    return (f"the computed region is {computed} (concurrency {c} with C_max {cr.c_max}, C_min {cr.c_min}: "
            f"{span(cr.regions.bounds[computed])})")


def region_fix(point, allowed, declared) -> dict:
    """The computed region written into point.yaml (inserted after `concurrency` when absent), when it is
    certain: C_max agreed by every declaration, every point readable, no c_min_override problem."""
    try:
        cr, c = _point_regions(point)
    except Skipped:
        return {}
    if cr.c_max_disagreements or cr.c_max_bad or cr.unreadable or cr.override_problems:
        return {}
    computed = cr.regions.region_of(c)
    if computed is None or computed not in allowed or computed == declared:
        return {}
    lf = point.files["point_yaml"]
    if declared is None:
        edit = Edit(lf, ("region",), "insert", computed, value=computed, after="concurrency")
    elif isinstance(declared, str):
        edit = Edit(lf, ("region",), "value", computed, old=declared, value=computed, plain=False)
    else:
        return {}
    return {"edits": (edit,), "fix": f"Write `region: {computed}` (concurrency {c} with C_max {cr.c_max}, "
                                     f"C_min {cr.c_min} is in {computed}, {span(cr.regions.bounds[computed])})."}


@rule(id="concurrency-in-range", title="Concurrency in range", clause="R§9.1", severity="flag",
      scope="point", needs=("point_yaml", "maybe:system_desc"), official=True)
def concurrency_in_range(point, ctx):
    """The point's concurrency lies in a valid region: 1 .. ceil(1.10 x C_max), margin included.

    What it checks: 1 <= concurrency <= the margin end of R§5.5 (computed in floating point exactly
    like the reference: C_max 100 gives 111). The dedicated Offline run is exempt: its concurrency is
    the dataset size (R§5.7.1).
    Why: R§9.1 flags points outside every region; the 10 % margin is legal but counts toward no
    coverage.
    How to fix: Re-run the point at a concurrency at or below the margin end, or raise
    max_supported_concurrency if the system really supports more.
    """
    cr, c = _point_regions(point)
    r = cr.regions
    if c > r.margin_end:
        return Fail(f"{where(point, 'concurrency')}: concurrency {c} is above the margin end {r.margin_end} "
                    f"(C_max {r.c_max}; margin {span(r.bounds['margin'])})", file=point.files["point_yaml"],
                    path=("concurrency",), observed=c, expected=f"1..{r.margin_end}")
    return Pass(f"concurrency {c} is in {REGION_LABELS[r.region_of(c)]} ({span(r.bounds[r.region_of(c)])})")


@rule(id="region-declared", title="Region declared", clause="R§8.3", severity="reject-points",
      scope="point", needs=("point_yaml", "policy:curve"), official=True, consequence_of=("unknown-key",))
def region_declared(point, ctx):
    """point.yaml `region` is one of the permitted values.

    What it checks: a declared `region` is one of low_latency, low_concurrency, med_concurrency,
    high_concurrency, submitters_choice (R§8.3), or margin (accepted as the official checker does);
    anything else rejects the point. An absent `region` is a warning naming the region R§5.5
    computes for the point. A dedicated Offline run has no defined region (C7): absent or any
    permitted value passes.
    Why: R§8.3 asks each point to declare its role on the curve, and a value outside the vocabulary
    says something no reader can place. An absent one contradicts nothing: the region is computed
    from concurrency and C_max (R§5.5; coverage is always judged on the computed region), the
    official checker treats the field as optional and its own fully compliant fixture omits it.
    How to fix: Set `region` to one of the permitted values (the computed one, or submitters_choice
    for an extra point).
    """
    allowed = ctx.policy.get("curve").region_values
    value = file_value(point, "point_yaml", "region")
    lf = point.files["point_yaml"]
    if value is None:
        if point.is_dedicated_offline:
            return Pass("dedicated Offline point declares no region (none is defined for it)")
        return Fail(f"{point.name}: point.yaml declares no `region`; {_computed_region(point)}", file=lf,
                    observed=None, expected=allowed, severity=Severity.WARN,
                    **{"fix": "Write `region:` with the computed region (or submitters_choice).",
                       **region_fix(point, allowed, None)})
    if not isinstance(value, str) or value not in allowed:
        near = [a for a in allowed if isinstance(value, str) and a.lower() == value.strip().lower()]
        hint = f" Did you mean {near[0]!r}?" if near else ""
        return Fail(f"{where(point, 'region')}: region {value!r} is not a permitted value.{hint}", file=lf,
                    path=("region",), observed=value, expected=allowed,
                    **{"fix": f"Set region to one of: {', '.join(allowed)}.{hint}", **region_fix(point, allowed, value)})
    return Pass(f"region {value!r} is permitted")


@rule(id="region-placement", title="Region placement", clause="R§8.3", severity="warn",
      scope="point", needs=("point_yaml", "policy:curve", "maybe:system_desc"), official=True)
def region_placement(point, ctx):
    """The declared `region` equals the region R§5.5 computes for the point's concurrency.

    What it checks: a point declaring low_latency, low_concurrency, med_concurrency,
    high_concurrency or margin sits in that computed region; `submitters_choice` never warns.
    SKIP for the dedicated Offline run (no region), a point out of range (see
    concurrency-in-range) or an invalid declaration (see region-declared).
    Why: reviewers and the results page label points by their declared region; a wrong label
    misleads (R§8.3). Coverage is always judged on the computed region, never the declared one.
    How to fix: Set `region` to the computed region named in the message, or to submitters_choice.
    """
    cr, c = _point_regions(point)
    declared = file_value(point, "point_yaml", "region")
    if not isinstance(declared, str) or declared not in ctx.policy.get("curve").region_values:
        return Skip("no valid region declared (see region-declared)", reason="missing-input")
    computed = cr.regions.region_of(c)
    if computed is None:
        return Skip(f"concurrency {c} is out of range (see concurrency-in-range)", reason="not-applicable")
    if declared == "submitters_choice" or declared == computed:
        return Pass(f"declared {declared}; computed {computed} ({span(cr.regions.bounds[computed])})")
    return Fail(f"{where(point, 'region')}: declares {declared} but concurrency {c} is in {computed} "
                f"({span(cr.regions.bounds[computed])}; C_max {cr.c_max}, C_min {cr.c_min})",
                file=point.files["point_yaml"], path=("region",), observed=declared, expected=computed,
                **{"fix": f"Set region: {computed} (or submitters_choice).",
                   **region_fix(point, ctx.policy.get("curve").region_values, declared)})


@rule(id="margin-float-ceiling", title="Point on a float-only margin value", clause="R§5.5", severity="warn", scope="point", needs=("point_yaml", "maybe:system_desc"))
def margin_float_ceiling(point, ctx):
    """Warns when a point's concurrency is in range only because R§5.5 computes the margin in floating point.

    What it checks: the margin ends at `math.ceil(1.10 * C_max)` as the authoritative reference
    computes it, in floating point; for 925 values of C_max in 33..20,000 that is one more than exact
    arithmetic gives (C_max 100: 111, not 110). A point sitting exactly on that extra value is in
    range by the reference (and by this checker) but out of range by the rules' prose.
    Why: the discrepancy is invisible in the rules text; a reviewer recomputing by hand would flag
    the point, so it is worth knowing before submission.
    How to fix: Move the point to the exact-arithmetic margin end or below to be in range under
    either reading.
    """
    cr, c = _point_regions(point)
    r = cr.regions
    if r.float_only_margin(c):
        return Fail(f"{where(point, 'concurrency')}: concurrency {c} is in range only through float rounding: "
                    f"{float_margin_note(r)} By exact arithmetic this point would be out of range.",
                    file=point.files["point_yaml"], path=("concurrency",),
                    observed=c, expected=f"<= {exact_margin_end(r.c_max)}",
                    fix=f"Move the point to concurrency {exact_margin_end(r.c_max)} or below.")
    return Pass(f"concurrency {c} is not on a float-only margin value (margin end {r.margin_end})")


@point_metric("region_computed", "Region (computed)")
def _region_computed(point, ctx):
    if point.is_dedicated_offline:
        return "offline"
    cr = curve_regions(point.curve)
    c = point.concurrency
    if cr.regions is None or not isinstance(c, int):
        return None
    return cr.regions.region_of(c) or "out of range"
