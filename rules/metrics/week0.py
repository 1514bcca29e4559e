"""Week-0 predicates of the official's result-summary rules (endpoints-submission-cli 1.5.3.0).

Accounting: completed + failed = issued, skipped when issued is 0 or absent. Query count: only the
ten datasets of the official's table (week0.yaml min_query_count), keyed by point.yaml `dataset`;
any other dataset string skips the rule.
"""
from __future__ import annotations

from checker.core.week0 import Hit

from rules.shared.lax import lax_int


def _data(point, kind):
    lf = point.files.get(kind)
    return lf.data if lf is not None and lf.ok and not lf.bom and isinstance(lf.data, dict) else None


def accounting(sub, policy) -> list[Hit]:
    hits = []
    for point in sub.points():
        d = _data(point, "result_summary")
        if d is None:
            continue
        issued = lax_int(d.get("n_samples_issued", 0)) or 0
        done, failed = lax_int(d.get("n_samples_completed")), lax_int(d.get("n_samples_failed", 0)) or 0
        if issued and done is not None and done + failed != issued:
            hits.append(Hit("metric-consistency-accounting", point.subject, f"{done} + {failed} != {issued}"))
    return hits


def min_query_count(sub, policy) -> list[Hit]:
    table = policy.get("week0").min_query_count
    hits = []
    for point in sub.points():
        y, d = _data(point, "point_yaml"), _data(point, "result_summary")
        if y is None or d is None or not isinstance(y.get("dataset"), str) or y["dataset"] not in table:
            continue
        done = lax_int(d.get("n_samples_completed"))
        if done is not None and done < table[y["dataset"]]:
            hits.append(Hit("min-query-count", point.subject, f"{done} < {table[y['dataset']]}"))
    return hits


PREDICATES = [
    (frozenset({"metric-consistency-accounting"}), accounting),
    (frozenset({"min-query-count"}), min_query_count),
]
