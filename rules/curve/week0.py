"""Week-0 predicates of the official's region and Offline declarations (endpoints-submission-cli 1.5.3.0).

region-declared and offline-declared check a validated point.yaml's words only (absent is fine).
region-basis is an ERROR only when the curve's C_max is known and no point has a concurrency the
official can count (an unknown C_max is a WARNING that skips the region rules).
"""
from __future__ import annotations

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


def c_max(curve, policy) -> int | None:
    """The curve's C_max as the official reads it: its validated system description's, else the raw
    field of the first readable one when it is a positive int."""
    _point, desc = ov.curve_desc(curve, policy)
    if desc is None:
        return None
    if desc.model is not None:
        return desc.model.max_supported_concurrency
    raw = desc.data.get("max_supported_concurrency")
    return raw if isinstance(raw, int) and not isinstance(raw, bool) and raw > 0 else None


def region_basis(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        if not curve.points or c_max(curve, policy) is None:
            continue
        counted = [p for p in curve.points
                   if ov.point_config(p, policy).model is not None or ov.concurrency(p, policy) is not None]
        if not counted:
            first = curve.points[0]
            hits.append(ov.hit("region-basis", curve.subject, "no point of the curve has a concurrency the automated "
                               "check can read (point.yaml or the r<N> name)", first.files.get("point_yaml"),
                               ("concurrency",), "write each point's concurrency in its point.yaml"))
    return hits


PREDICATES = [
    (frozenset({"region-declared"}), region_declared),
    (frozenset({"offline-declared"}), offline_declared),
    (frozenset({"region-basis"}), region_basis),
]
