"""Week-0 predicate of the official's approved-drafter rule (endpoints-submission-cli 1.5.3.0).

A validated point.yaml whose `speculative_decoding` mapping is not empty must match an approved entry
of the curve's benchmark (the first model_name its points declare, else the directory's name) by
weight_checksum, or by target_checksum plus an equal, non-empty configuration.
"""
from __future__ import annotations

from rules.shared import official_view as ov


def _matches(entry, spec: dict) -> bool:
    if entry.weight_checksum is not None:
        return spec.get("weight_checksum") == entry.weight_checksum
    target = getattr(entry, "target_checksum", None)
    if target is not None:
        config = getattr(entry, "configuration", None)
        return spec.get("target_checksum") == target and bool(config) and spec.get("configuration") == config
    return False


def approved_drafter(sub, policy) -> list:
    entries = policy.get("approved_drafters").drafters or []
    hits = []
    for curve in sub.curves():
        models = [(p, ov.point_config(p, policy)) for p in curve.points]
        models = [(p, r) for p, r in models if r.model is not None]
        benchmark = next((r.model.model_name for _p, r in models if r.model.model_name), curve.name)
        mine = [e for e in entries if e.benchmark == benchmark]
        for point, r in models:
            spec = r.model.speculative_decoding
            if spec and not any(_matches(e, spec) for e in mine):
                named = ", ".join(f"{k} {ov.spell(spec[k])}" for k in ("weight_checksum", "target_checksum")
                                  if k in spec) or "no checksum"
                hits.append(ov.hit("approved-drafter", point.subject, f"point.yaml speculative_decoding ({named}) "
                                   f"matches no approved drafter of {benchmark} (by weight_checksum, or "
                                   "target_checksum and configuration)", r.lf, ("speculative_decoding",),
                                   "use an approved drafter and copy its checksum from the approved list"))
    return hits


PREDICATES = [(frozenset({"approved-drafter"}), approved_drafter)]
