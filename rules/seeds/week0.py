"""Week-0 predicate of the official's seed comparison (endpoints-submission-cli 1.5.3.0).

The official lifts the v0.7 names (scheduler_random_seed, dataloader_random_seed) to the new ones
(a WARNING, not an ERROR) and compares each declared seed with the bound set's as a lax int, so a
quoted seed of the right value passes; an absent seed is not compared.
"""
from __future__ import annotations

from checker.core.week0 import Hit

from rules.parsing.week0 import LEGACY_SEEDS, SEED_KEYS
from rules.shared.lax import MISSING, lax_int


def seed_runtime_match(sub, policy) -> list[Hit]:
    """The runtime seeds (v0.7 names lifted) equal the bound set's, compared as lax ints."""
    seeds = policy.get("seed_sets")
    sets = {e.id: e for e in seeds.entries} if seeds is not None else {}
    hits = []
    for point in sub.points():
        lf = point.files.get("point_yaml")
        d = lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else None
        if d is None or not isinstance(d.get("seed_set"), str) or d["seed_set"] not in sets:
            continue
        rt = d.get("runtime_settings", {}).get("runtime") if isinstance(d.get("runtime_settings"), dict) else None
        if not isinstance(rt, dict):
            continue
        got = {k: rt.get(k, MISSING) for k in SEED_KEYS}
        for old, new in LEGACY_SEEDS.items():
            if got[new] is MISSING and old in rt:
                got[new] = rt[old]
        entry = sets[d["seed_set"]]
        bad = [k for k, v in got.items() if v is not MISSING and v is not None and lax_int(v) != getattr(entry, k)]
        if bad:
            hits.append(Hit("seed-runtime-match", point.subject, f"{', '.join(bad)} differ from set {entry.id}"))
    return hits


PREDICATES = [(frozenset({"seed-runtime-match"}), seed_runtime_match)]
