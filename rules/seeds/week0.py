"""Week-0 predicates of the official's seed rules (endpoints-submission-cli 1.5.3.0), over validated
point.yaml models (rules.shared.official_view).

seed-runtime-match: after lifting the v0.7 names (scheduler_random_seed, dataloader_random_seed) to
the v1.0 ones, each of the bound set's three seeds must be declared with its value (lax int): an
absent seed is a mismatch (the client's config.yaml names have no model_seed). seed-set-membership,
-consistency and -adoption compare `seed_set` and `target_cohort` with the registry; target-cohort is
its pattern; seed-config-legacy holds a point that binds no set to the v0.7 seeds.
"""
from __future__ import annotations

import re

from rules.shared import official_view as ov
from rules.shared.registry_policy import SEED_KEYS


def _models(curve, policy):
    for point in curve.points:
        r = ov.point_config(point, policy)
        if r.model is not None:
            yield point, r


def _sets(policy) -> dict:
    seeds = policy.get("seed_sets")
    return seeds.bound_sets(policy.get("week0").seed_adoption_cohorts) if seeds is not None else {}


def runtime_seeds(model) -> dict:
    """The three seeds the official compares: the v1.0 names, else their v0.7 predecessors."""
    rt = model.runtime_settings.runtime
    got = {k: getattr(rt, k) for k in SEED_KEYS}
    if got["scheduler_rng_seed"] is None:
        got["scheduler_rng_seed"] = rt.scheduler_random_seed
    if got["sample_index_rng_seed"] is None:
        got["sample_index_rng_seed"] = rt.dataloader_random_seed
    return got


def seed_runtime_match(sub, policy) -> list:
    sets = _sets(policy)
    hits = []
    for curve in sub.curves():
        for point, r in _models(curve, policy):
            bound = sets.get(r.model.seed_set or "")
            if bound is None:
                continue  # an unknown set is seed-set-membership's
            got = runtime_seeds(r.model)
            bad = [k for k, want in bound.seeds.items() if got[k] != want]
            if bad:
                words = "; ".join(f"{k} {'is missing' if got[k] is None else f'is {got[k]}'} (set {bound.id} has "
                                  f"{bound.seeds[k]})" for k in bad)
                hits.append(ov.hit("seed-runtime-match", point.subject, f"point.yaml runtime_settings.runtime: {words}",
                                   r.lf, ("runtime_settings", "runtime", bad[0]),
                                   f"write runtime_settings.runtime.{bad[0]}: {bound.seeds[bad[0]]} (and each seed of "
                                   f"set {bound.id} under its v1.0 name)"))
    return hits


def seed_set_membership(sub, policy) -> list:
    sets = _sets(policy)
    return [ov.hit("seed-set-membership", p.subject, f"point.yaml seed_set {ov.spell(r.model.seed_set)} is not a "
                   f"published seed set ({', '.join(sorted(sets)) or 'none'})", r.lf, ("seed_set",),
                   f"name a published set: {', '.join(sorted(sets))}")
            for curve in sub.curves() for p, r in _models(curve, policy)
            if r.model.seed_set is not None and r.model.seed_set not in sets]


def seed_set_consistency(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        found = [(p, r) for p, r in _models(curve, policy) if r.model.seed_set is not None]
        declared = sorted({r.model.seed_set for _p, r in found})
        if len(declared) > 1:
            p, r = found[-1]
            hits.append(ov.hit("seed-set-consistency", curve.subject, f"the curve's points name seed sets "
                               f"{', '.join(declared)}; the automated check wants one", r.lf, ("seed_set",),
                               "name the same seed set at every point"))
    return hits


def seed_set_adoption(sub, policy) -> list:
    sets = _sets(policy)
    hits = []
    for curve in sub.curves():
        for point, r in _models(curve, policy):
            bound, target = sets.get(r.model.seed_set or ""), r.model.target_cohort
            if bound is None or target is None or bound.window is None:
                continue
            window = [str(c) for c in bound.window]
            if target not in window:
                hits.append(ov.hit("seed-set-adoption", point.subject, f"point.yaml target_cohort {ov.spell(target)} is "
                                   f"outside seed set {bound.id}'s adoption window ({', '.join(window)})", r.lf,
                                   ("target_cohort",), f"target one of {', '.join(window)}, or bind a newer set"))
    return hits


def target_cohort(sub, policy) -> list:
    pattern = re.compile(policy.get("week0").cohort_pattern)
    return [ov.hit("target-cohort", p.subject, f"point.yaml target_cohort {ov.spell(r.model.target_cohort)} is not "
                   "YYYY-MM-C0 or YYYY-MM-C1", r.lf, ("target_cohort",), "write target_cohort as e.g. 2026-11-C0")
            for curve in sub.curves() for p, r in _models(curve, policy)
            if r.model.target_cohort is not None and not pattern.fullmatch(r.model.target_cohort)]


def seed_config_legacy(sub, policy) -> list:
    legacy = policy.get("week0").legacy_seed
    hits = []
    for curve in sub.curves():
        for point, r in _models(curve, policy):
            if r.model.seed_set is not None:
                continue
            got = runtime_seeds(r.model)
            bad = [k for k in ("scheduler_rng_seed", "sample_index_rng_seed") if got[k] != legacy]
            if bad:
                hits.append(ov.hit("seed-config-legacy", point.subject, f"point.yaml names no seed_set and "
                                   f"runtime_settings.runtime.{bad[0]} is {ov.spell(got[bad[0]])}, not the v0.7 seed "
                                   f"{legacy}", r.lf, ("seed_set",), "name the published seed set (seed_set: A) and "
                                   "write its seeds"))
    return hits


PREDICATES = [
    (frozenset({"seed-runtime-match"}), seed_runtime_match),
    (frozenset({"seed-set-membership"}), seed_set_membership),
    (frozenset({"seed-set-consistency"}), seed_set_consistency),
    (frozenset({"seed-set-adoption"}), seed_set_adoption),
    (frozenset({"target-cohort"}), target_cohort),
    (frozenset({"seed-config-legacy"}), seed_config_legacy),
]
