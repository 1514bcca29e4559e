"""Week-0 predicates of the official's region and Offline declarations (endpoints-submission-cli 1.5.3.0).

region-declared and offline-declared check a validated point.yaml's words only (absent is fine).
(region-basis never errs on a package: its ERROR needs a curve with no concurrency to count, and every
r<N> directory counts as N; week0.yaml never_error.)
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


PREDICATES = [
    (frozenset({"region-declared"}), region_declared),
    (frozenset({"offline-declared"}), offline_declared),
]
