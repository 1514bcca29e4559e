"""Week-0 predicates of the official's region and Offline declarations (endpoints-submission-cli 1.5.3.0).

region-declared and offline-declared check a validated point.yaml's words only (absent is fine).
(region-basis never errs on a package: its ERROR needs a curve with no concurrency to count, and every
r<N> directory counts as N; week0.yaml never_error.)
"""
from __future__ import annotations

from checker.domain.regions import ULTRA_LOW_MAX, RegionInputError, compute_regions
from rules.shared import official_view as ov


def _declared(sub, policy, rule: str, field: str, allowed: list) -> list:
    hits = []
    for point in sub.points():
        r = ov.point_config(point, policy)
        value = getattr(r.model, field) if r.model is not None else None
        if value is not None and value not in allowed:
            hits.append(ov.hit(rule, point.subject, f"point.yaml {field} {ov.spell(value)} is not one of "
                               f"{', '.join(allowed)}", r.lf, (field,),
                               f"write {field} as one of {', '.join(allowed)}, or leave it out"))
    return hits


def region_declared(sub, policy) -> list:
    return _declared(sub, policy, "region-declared", "region", policy.get("week0").region_values)


def offline_declared(sub, policy) -> list:
    return _declared(sub, policy, "offline-declared", "offline", policy.get("week0").offline_values)


def _curve(curve, policy):
    """(validated point Reads, every counted concurrency) of a curve as the official reads it."""
    loaded = [(p, ov.point_config(p, policy)) for p in curve.points]
    loaded = [(p, r) for p, r in loaded if r.model is not None]
    ids = {id(p) for p, _r in loaded}
    present = [r.model.concurrency for _p, r in loaded] + [ov.concurrency(p, policy) for p in curve.points
                                                           if id(p) not in ids]
    return loaded, present


def regions(curve, policy):
    """(the official's regions or None, why they could not be computed or ""): C_max and C_min (the override,
    else the lowest counted concurrency capped at 32)."""
    cmax = ov.c_max(curve, policy)
    override, problems = ov.c_min_override(curve, policy)
    _loaded, present = _curve(curve, policy)
    if cmax is None or problems or not present:
        return None, ""
    cmin = override if override is not None else min(min(present), ULTRA_LOW_MAX)
    try:
        return compute_regions(cmax, cmin), ""
    except RegionInputError:
        return None, f"C_max {cmax} and C_min {cmin} leave no regions (the automated check wants C_min in 1..32 " \
                     "and C_max above 32)"


def region_computation(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        _r, why = regions(curve, policy)
        if why:
            point, _d = ov.curve_desc(curve, policy)
            hits.append(ov.hit("region-computation", curve.subject, why, point.files.get("system_desc") if point else
                               curve.rel, ("max_supported_concurrency",),
                               "declare the curve's real C_max (above 32) and run its points at concurrency 1 or more"))
    return hits


def concurrency_in_range(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        reg, _why = regions(curve, policy)
        if reg is None:
            continue
        for point, r in _curve(curve, policy)[0]:
            if r.model.offline != "dedicated" and reg.region_of(r.model.concurrency) is None:
                hits.append(ov.hit("concurrency-in-range", point.subject, f"point.yaml concurrency {r.model.concurrency} "
                                   f"is above the curve's margin (C_max {reg.c_max} + 10 %: {reg.margin_end})", r.lf,
                                   ("concurrency",), "run the point within the regions, or declare the real C_max"))
    return hits


def coverage(sub, policy) -> list:
    """ultra-low (1..32, or 1..C_min with an override), low, med and high concurrency coverage (a margin point
    covers nothing)."""
    hits = []
    for curve in sub.curves():
        if not curve.points:
            continue
        reg, _why = regions(curve, policy)
        override, _p = ov.c_min_override(curve, policy)
        _loaded, present = _curve(curve, policy)
        limit = reg.c_min if reg is not None and override is not None else ULTRA_LOW_MAX
        wanted = [("ultra-low-concurrency-coverage", "ultra_low", 1, limit)]
        if reg is not None:
            wanted += [(f"{name.split('_')[0]}-concurrency-coverage", name, *reg.bounds[name])
                       for name in ("low_concurrency", "med_concurrency", "high_concurrency")]
        for rule, label, lo, hi in wanted:
            if not any(lo <= c <= hi for c in present if c is not None):
                hits.append(ov.hit(rule, curve.subject, f"no point of the curve runs in {label.replace('_', ' ')} "
                                   f"({lo}..{hi}); the automated check wants one", curve.points[0].files.get("point_yaml")
                                   or curve.rel, ("concurrency",), f"add a point at a concurrency in {lo}..{hi}"))
    return hits


PREDICATES = [
    (frozenset({"region-computation"}), region_computation),
    (frozenset({"concurrency-in-range"}), concurrency_in_range),
    (frozenset({"ultra-low-concurrency-coverage", "low-concurrency-coverage", "med-concurrency-coverage",
                "high-concurrency-coverage"}), coverage),
    (frozenset({"region-declared"}), region_declared),
    (frozenset({"offline-declared"}), offline_declared),
]
