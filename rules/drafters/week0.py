"""Week-0 predicate of the official's approved-drafter rule (endpoints-submission-cli 1.5.3.0).

A point's `speculative_decoding` block must match an entry of the approved list for its benchmark
by weight_checksum, or by target_checksum + configuration; the official never weighs a dispute.
"""
from __future__ import annotations

from checker.core.week0 import Hit


def approved_drafter(sub, policy) -> list[Hit]:
    entries = policy.get("approved_drafters").drafters or []
    hits = []
    for curve in sub.curves():
        mine = [e for e in entries if e.benchmark == curve.name]
        for point in curve.points:
            lf = point.files.get("point_yaml")
            d = lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else {}
            spec = d.get("speculative_decoding")
            if not isinstance(spec, dict):
                continue
            ok = any((e.weight_checksum and spec.get("weight_checksum") == e.weight_checksum) or
                     (getattr(e, "target_checksum", None) and spec.get("target_checksum") == e.target_checksum
                      and spec.get("configuration") == getattr(e, "configuration", None)) for e in mine)
            if not ok:
                hits.append(Hit("approved-drafter", point.subject, "no approved entry matches"))
    return hits


PREDICATES = [(frozenset({"approved-drafter"}), approved_drafter)]
