"""Week-0 predicates of the official's region rules (endpoints-submission-cli 1.5.3.0): pure, over loaded data.

The official's point.yaml `region` is optional: only a value outside its vocabulary is an ERROR
(its own compliant fixture omits the field). region-basis is an ERROR only when no point of the
curve has a readable concurrency (an unreadable C_max is a WARNING that skips the region rules).
"""
from __future__ import annotations

from checker.core.week0 import Hit

from rules.shared.lax import MISSING, lax_int


def region_declared(sub, policy) -> list[Hit]:
    allowed = policy.get("week0").region_values
    hits = []
    for point in sub.points():
        lf = point.files.get("point_yaml")
        data = lf.data if lf is not None and lf.ok else None
        if not isinstance(data, dict):
            continue
        region = data.get("region", MISSING)
        if region is not MISSING and region is not None and region not in allowed:
            hits.append(Hit("region-declared", point.subject, f"region {region!r}"))
    return hits


def region_basis(sub, policy) -> list[Hit]:
    hits = []
    for curve in sub.curves():
        readable = [p for p in curve.points if _yaml(p) is not None and lax_int(_yaml(p).get("concurrency")) is not None]
        if curve.points and not readable:
            hits.append(Hit("region-basis", curve.subject, "no concurrency readable"))
    return hits


def _yaml(point):
    lf = point.files.get("point_yaml")
    return lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else None


PREDICATES = [
    (frozenset({"region-declared"}), region_declared),
    (frozenset({"region-basis"}), region_basis),
]
