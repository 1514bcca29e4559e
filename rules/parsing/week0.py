"""Week-0 predicates of the official's point.yaml and result_summary.json checks (1.5.3.0).

point-config-valid: point.yaml is read (PyYAML, YAML 1.1) as a mapping and validates as the official's
PointConfig (week0_schemas.yaml: lax pydantic, warmup bounds). result-file-valid: every point's
result_summary.json validates as its PointSummary. load-pattern and point-disclosure-complete are
validators of a PointConfig that validated, read from the model (its coerced values).
"""
from __future__ import annotations

from rules.shared import official_view as ov


def point_config_valid(sub, policy) -> list:
    hits = []
    for point in sub.points():
        r = ov.point_config(point, policy)
        if r.present:  # a missing point.yaml is measurement-points-present
            hits += ov.file_hits("point-config-valid", point.subject, r, "point.yaml")
    return hits


def result_file_valid(sub, policy) -> list:
    hits = []
    for point in sub.points():
        r = ov.summary(point, policy)
        if r.present:  # a missing one is result-summary-present
            hits += ov.file_hits("result-file-valid", point.subject, r, "result_summary.json")
    return hits


def load_pattern(sub, policy) -> list:
    """runtime_settings.load_pattern is concurrency or agentic_inference and concurrency above 0; a
    dedicated Offline point is exempt."""
    allowed = policy.get("week0").load_patterns
    hits = []
    for point in sub.points():
        r = ov.point_config(point, policy)
        m = r.model
        if m is None or m.offline == "dedicated":
            continue
        lp = m.runtime_settings.load_pattern
        if lp not in allowed:
            hits.append(ov.hit("load-pattern", point.subject, f"point.yaml runtime_settings.load_pattern {ov.spell(lp)} "
                               f"is not one the automated check accepts ({', '.join(allowed)})", r.lf,
                               ("runtime_settings", "load_pattern"), f"set load_pattern to {allowed[0]}"))
        elif m.concurrency <= 0:
            hits.append(ov.hit("load-pattern", point.subject, f"point.yaml concurrency is {m.concurrency}; the "
                               "automated check wants a concurrency above 0", r.lf, ("concurrency",),
                               "set concurrency to the point's concurrency (1 or more)"))
    return hits


def disclosure_complete(sub, policy) -> list:
    """Every disclosure field of the official's list is present and not empty."""
    required = policy.get("week0").disclosure_fields
    hits = []
    for point in sub.points():
        r = ov.point_config(point, policy)
        if r.model is None:
            continue
        missing = [f for f in required if getattr(r.model, f) in (None, "")]
        if missing:
            hits.append(ov.hit("point-disclosure-complete", point.subject, f"point.yaml lacks {', '.join(missing)}; "
                               "the automated check wants every disclosure field", r.lf, (missing[0],),
                               f"add {', '.join(missing)} to point.yaml"))
    return hits


PREDICATES = [
    (frozenset({"load-pattern"}), load_pattern),
    (frozenset({"point-config-valid"}), point_config_valid),
    (frozenset({"result-file-valid"}), result_file_valid),
    (frozenset({"point-disclosure-complete"}), disclosure_complete),
]
