"""Reading seeds and the seed-set registry for the seed rules: exact integers, never floats.

A seed is an unsigned 64-bit integer. YAML may carry it as an int (exact, any size), a float
(precision already lost), a quoted string, a bool or a negative number: each is reported, never
coerced. ``declared_seeds`` also accepts the v0.7 / client names (scheduler_random_seed,
dataloader_random_seed) where the v1.0 name is absent, and says so.
"""
from __future__ import annotations

import re
from typing import Any

import msgspec

from checker.core.rule import REGISTRY_UNUSABLE, Fail, Skipped
from checker.core.values import MISSING, is_int, loaded_mapping
from rules.shared.registry_policy import SEED_KEYS, U64_MAX

RUNTIME = ("runtime_settings", "runtime")
#: point.yaml runtime seed -> its v0.7 / client name: the key the client's config.yaml records it under
#: (settings.runtime.*), also accepted in point.yaml where the v1.0 name is absent. The client has no key for
#: model_seed (the server applies it, and no run-folder file records it). The one seed-key map.
CLIENT_SEED_KEYS = {"scheduler_rng_seed": "scheduler_random_seed", "sample_index_rng_seed": "dataloader_random_seed"}
_INT_TEXT = re.compile(r"^\s*[+-]?\d+\s*$")


def seed_problem(raw: Any) -> str | None:
    """Why ``raw`` is not a valid seed (None when it is an int in 0..2^64-1)."""
    if raw is MISSING:
        return "missing"
    if raw is None:
        return "empty (null)"
    if isinstance(raw, bool):
        return f"{str(raw).lower()}, not an integer"
    if isinstance(raw, int):
        if raw < 0:
            return f"{raw} is negative (seeds are unsigned 64-bit: 0 .. {U64_MAX})"
        if raw > U64_MAX:
            return f"{raw} is larger than 2^64-1 = {U64_MAX}"
        return None
    if isinstance(raw, float):
        return (f"written as a floating-point number ({raw!r}): a float cannot hold a 64-bit seed exactly; "
                "write the integer digits")
    if isinstance(raw, str):
        shown = raw if len(raw) <= 40 else raw[:40] + "..."
        if _INT_TEXT.match(raw):
            return f"written as a string ({shown!r}): remove the quotes so it is an integer"
        return f"a string ({shown!r}), not an integer"
    return f"a {type(raw).__name__ if not isinstance(raw, (dict, list)) else ('mapping' if isinstance(raw, dict) else 'list')}, not an integer"


def evidence(raw: Any) -> Any:
    """JSON evidence for a raw value: ints stay exact ints; the missing marker becomes None."""
    return None if raw is MISSING else raw


class DeclaredSeed(msgspec.Struct, frozen=True):
    key: str  # v1.0 name
    raw: Any  # the value as written, or MISSING
    path: tuple  # where it is (or would be) in point.yaml
    legacy: bool  # found under the v0.7 / client name

    @property
    def problem(self) -> str | None:
        return seed_problem(self.raw)


def declared_seeds(lf) -> dict[str, DeclaredSeed]:
    """The three runtime seeds of a point.yaml, by v1.0 name (legacy spellings as a fallback)."""
    out = {}
    for key in SEED_KEYS:
        path = RUNTIME + (key,)
        raw = lf.get(*path, default=MISSING)
        legacy = False
        if raw is MISSING and key in CLIENT_SEED_KEYS:
            alt = RUNTIME + (CLIENT_SEED_KEYS[key],)
            if lf.get(*alt, default=MISSING) is not MISSING:
                raw, path, legacy = lf.get(*alt, default=MISSING), alt, True
        out[key] = DeclaredSeed(key, raw, path, legacy)
    return out


def point_yaml(point):
    """The point.yaml LoadedFile when it loaded as a mapping, else None."""
    return loaded_mapping(point.files.get("point_yaml"))


def registry(ctx):
    """The SeedSetsPolicy, or None when the seed-set registry is unusable (seed-set-registry reports it)."""
    return ctx.policy.get("seed_sets") if ctx.policy.available("seed_sets") else None


def usable_registry(ctx):
    """The SeedSetsPolicy; ``Skipped`` naming seed-set-registry when it is unusable (as ``registry:seed_sets``
    does, for a rule that judges something else first)."""
    reg = registry(ctx)
    if reg is None:
        raise Skipped(ctx.policy.unusable("seed_sets"), reason=REGISTRY_UNUSABLE)
    return reg


def adoption_cohorts(ctx) -> int:
    return ctx.policy.get("cohort_rules").seed_set_adoption_cohorts


def registry_source(ctx, name: str) -> str:
    """Display form of where a registry came from (the override path, or the bundled edition file)."""
    path = ctx.policy.overrides.get(name)
    if path:
        return path
    return f"bundled rules/policy/{ctx.policy.edition}/{name}.yaml"


def registry_failure(ctx, name: str, what: str, expected: str):
    """The FAIL of a registry rule whose file cannot be used: the problem and where it sits."""
    src = registry_source(ctx, name)
    prob = ctx.policy.problem(name)
    msg = prob.message if prob else "not loaded"
    where = f"{prob.file}:{prob.line}" if prob and prob.line else (prob.file if prob else src)
    return Fail(f"the {what} cannot be used: {msg} ({where})", file=prob.file if prob else src,
                observed=msg, expected=expected)


def ran_seed(point, key: str) -> Any:
    """The seed the run used for ``key``, as the point's config.yaml records it (exact integer), else MISSING."""
    cfg = point.files.get("config")
    name = CLIENT_SEED_KEYS.get(key)
    if name is None or loaded_mapping(cfg) is None:
        return MISSING
    v = cfg.get("settings", "runtime", name, default=MISSING)
    return v if is_int(v) and seed_problem(v) is None else MISSING


def seed_edits(point, lf, set_id: str, seeds: dict, declared: dict) -> tuple[list, list[str]]:
    """(the Edits writing the bound set's seeds into point.yaml, notes on the seeds that cannot be fixed).

    A seed is fixed only where config.yaml shows the run used the set's value: then point.yaml misstates
    what ran. Where the run used another value, point.yaml is not the problem: the point needs a re-run."""
    from checker.core.fixes import Edit, fixable_file

    edits, notes = [], []
    for key, want in seeds.items():
        d = declared[key]
        if d.problem is None and d.raw == want:
            continue
        ran = ran_seed(point, key)
        if ran is MISSING:
            why = "no client key records it" if key not in CLIENT_SEED_KEYS else "config.yaml does not record it"
            notes.append(f"{key}: what ran cannot be verified ({why})")
            continue
        if ran != want:
            notes.append(f"{key}: the run used {ran} (config.yaml settings.runtime.{CLIENT_SEED_KEYS[key]}), not set "
                         f"{set_id}'s {want}: the point needs a re-run with the set's seeds")
            continue
        if not fixable_file(lf):
            continue
        if d.raw is MISSING:
            if isinstance(lf.get(*RUNTIME), dict):
                edits.append(Edit(lf, RUNTIME + (key,), "insert", str(want), value=want))
        else:
            edits.append(Edit(lf, d.path, "value", str(want), old=d.raw, value=want))
    return edits, notes


def seed_fix_text(edits: list, notes: list[str]) -> str | None:
    """A fix text for ``seed_edits``' result (None: nothing to add to the rule's own text)."""
    parts = []
    if edits:
        parts.append("Write " + ", ".join(f"`{e.path[-1]}: {e.new}`" for e in edits)
                     + " in runtime_settings.runtime (config.yaml shows the run used these seeds)")
    parts += notes
    return ("; ".join(parts) + ".") if parts else None


def stale_seed_note(policy, target) -> str:
    """What to tell a user whose target_cohort no set of the registry in use is adoptable for."""
    registries = policy.provenance.get("registries") or {}
    info = registries.get("seed_sets") if isinstance(registries.get("seed_sets"), dict) else {}
    override = policy.overrides.get("seed_sets")
    if override:
        return (f"no set of {override} (--seed-sets) is adoptable for {target}: pass the seed-set file published for "
                "that cohort")
    taken = f", taken {info['taken']}" if info.get("taken") else ""
    return (f"no bundled seed set is adoptable for {target}: the bundled registry (rules/policy/{policy.edition}/"
            f"seed_sets.yaml{taken}) may be older than the published one; pass the published seedset.yaml with "
            "--seed-sets FILE or MLPERF_ENDPOINTS_SEED_SETS=FILE (`endpoints-checker policy` shows the registry's age)")
