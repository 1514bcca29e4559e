"""Seed binding and cohorts (S§4.6, R§2.1.1, R§9.1; OFFICIAL-CHECKER.md §3 J).

The registry is ``rules/policy/<edition>/seed_sets.yaml`` or ``--seed-sets FILE``. Fail closed: a
registry that is missing or malformed is a reject FAIL of ``seed-set-registry``, and the rules that
read it (membership, runtime match, adoption) SKIP with reason "registry-unusable". Rules that
only compare the submitter's own files (consistency, legacy fallback, config.yaml) still run.
"""
from __future__ import annotations

from collections import Counter

from checker.domain import cohort_ids as cohorts
from checker.core.findings import Severity
from checker.load.models.keys import near_miss, rename_for_missing
from checker.core.fixes import Edit
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from rules.shared.registry_policy import SEED_KEYS
from checker.core.values import MISSING, show
from rules.shared.seed_values import (CLIENT_SEED_KEYS, adoption_cohorts, registry_failure, declared_seeds, evidence, point_yaml,
                              registry, registry_source, seed_edits, seed_fix_text, seed_problem, stale_seed_note)


@rule(id="seed-set-registry", title="Seed-set registry", clause="S§4.6", severity="reject",
      scope="package", official=True, needs=("policy:seed_sets", "policy:cohort_rules",))
def seed_set_registry(pkg, ctx):
    """The seed-set registry (bundled seed_sets.yaml or --seed-sets FILE) exists and is well formed.

    What it checks: the file named by --seed-sets / MLPERF_ENDPOINTS_SEED_SETS (or the bundled
    rules/policy/<edition>/seed_sets.yaml) exists, is YAML or JSON, and has one of the two accepted
    shapes: the published `cohort: {version, cohort-id, seed_sets: [...]}` or the older bare
    `seed_sets: [...]` list. Each set has an `id` and three integer seeds in 0..2^64-1
    (scheduler_rng_seed, sample_index_rng_seed, model_seed); ids are unique; cohort ids parse.
    Why: every seed rule compares against this file. The official checker only warns when it cannot
    read it and then skips the seed rules, so a typo in the path turns wrong seeds into a pass.
    Here a missing or malformed registry rejects, and the rules that need it SKIP with reason
    "registry-unusable".
    How to fix: Point --seed-sets (or MLPERF_ENDPOINTS_SEED_SETS) at the published seedset.yaml,
    or unset it to use the bundled copy; fix the YAML at the line shown.
    """
    reg = registry(ctx)
    src = registry_source(ctx, "seed_sets")
    if reg is None:
        return registry_failure(ctx, "seed_sets", "seed-set registry",
                                "a seed-set file in the published `cohort:` shape or a bare `seed_sets:` list")
    n = adoption_cohorts(ctx) if ctx.policy.available("cohort_rules") else 4
    sets = reg.bound_sets(n)
    parts = []
    for sid, bs in sorted(sets.items()):
        if bs.window:
            parts.append(f"set {sid} adoptable {cohorts.span(list(bs.window))}")
        else:
            parts.append(f"set {sid} (no cohort: adoption cannot be checked)")
    return Pass(f"seed-set registry {src} ({reg.shape}): " + "; ".join(parts))


@rule(id="target-cohort", title="Target cohort", clause="S§4.6", severity="reject", scope="point",
      needs=("loaded:point_yaml",), official=True, consequence_of=("unknown-key",))
def target_cohort(point, ctx):
    """`target_cohort` in point.yaml is a cohort id `YYYY-MM-C0` or `YYYY-MM-C1`.

    What it checks: the value is a string of the form YYYY-MM-C0 / YYYY-MM-C1 with a month 01..12
    (C0 = the cohort opening on the first Wednesday of the month, C1 = the third). The finding
    names the cohort's opening date.
    Why: the seed-set adoption window and the drafter lead time are counted in cohorts from this
    value; `2026-13-C0`, `2026-10-C2` or `2026-10-c0` would make both meaningless.
    How to fix: Write the cohort you submit into, e.g. `target_cohort: 2026-11-C0`, in every point.yaml.
    """
    lf = point.files["point_yaml"]
    raw = lf.get("target_cohort", default=MISSING)
    if raw is MISSING:
        return Fail("target_cohort is missing", file=lf, path=(), observed=None, expected="YYYY-MM-C0 or YYYY-MM-C1")
    cohort, why = cohorts.try_parse(raw)
    if cohort is None:
        return Fail(f"target_cohort: {why}", file=lf, path=("target_cohort",), observed=evidence(raw),
                    expected="YYYY-MM-C0 or YYYY-MM-C1")
    return Pass(f"target_cohort {cohort.label()}")


def _declared_set(lf):
    return lf.get("seed_set", default=MISSING)


@rule(id="seed-set-consistency", title="Seed set consistency", clause="R§9.1", severity="reject",
      scope="submission", official=True, needs=("maybe:point_yaml",), consequence_of=("unknown-key",))
def seed_set_consistency(sub, ctx):
    """Every point of the submission records the same `seed_set`.

    What it checks: the `seed_set` value of every readable point.yaml, across all systems and
    curves of the submission (a point without one counts as "none"); the FAIL lists each value
    with its points. The official checker compares within one curve only.
    Why: a submission binds to exactly one seed set for its lifetime (S§4.6, R§9.1 "Seed-set
    validity"); two sets in one submission mean some points were run with other seeds.
    How to fix: Re-run the points that used another set with the bound set's seeds, and record
    the same `seed_set` in every point.yaml.
    """
    groups: dict = {}
    first_lf = {}
    spelt: dict = {}  # point name -> the misspelt seed_set key it carries
    for p in sub.points():
        lf = point_yaml(p)
        if lf is None:
            continue
        raw = _declared_set(lf)
        if raw is MISSING or raw is None:
            key = "none"
            u = near_miss(lf, (), "seed_set")
            if u is not None:
                spelt[p.name] = (u, lf)
        elif isinstance(raw, str):
            key = raw if len(raw) <= 40 else f"{raw[:40]}... ({len(raw)} characters)"
        else:
            key = f"{show(raw)} (not a string)"
        groups.setdefault(key, []).append(p)
        first_lf.setdefault(key, (p, lf))
    if not groups:
        return Skip("no readable point.yaml in this submission", reason="missing-input")
    if len(groups) == 1:
        (key, pts), = groups.items()
        if key == "none":
            return Pass(f"no point declares seed_set ({len(pts)} points; v0.7 fallback, see seed-config-legacy)")
        return Pass(f"all {len(pts)} points bind seed set {key}")
    counts = Counter({k: len(v) for k, v in groups.items()})
    majority = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    odd_key = sorted(k for k in groups if k != majority)[0]
    p, lf = first_lf[odd_key]
    listing = "; ".join(f"{k} at {', '.join(q.name for q in groups[k])}" for k in sorted(groups))
    notes = "; ".join(f"{name}: {u.describe(ulf)}" for name, (u, ulf) in sorted(spelt.items()))
    path, fix, edits = ("seed_set",), None, ()
    if p.name in spelt:
        path = spelt[p.name][0].path
        fix = f"Rename `{spelt[p.name][0].key}` to `seed_set` in {p.name}/point.yaml."
        if len(groups) == 2 and odd_key == "none" and len(groups["none"]) == len(spelt):
            renames = [rename_for_missing(ulf, (), "seed_set") for _u, ulf in spelt.values()]
            if all(renames) and all(u.key is not None and ulf.get(*u.path) == majority for u, ulf in spelt.values()):
                edits = sum(renames, ())
    return Fail(f"{len(groups)} different seed_set values across {sum(counts.values())} points: {listing}"
                + (f" ({notes})" if notes else ""),
                file=lf, path=path, observed={q.subject.label(): k for k, qs in groups.items() for q in qs},
                expected=f"one seed_set everywhere (most points use {majority})", fix=fix, edits=edits)


@rule(id="seed-set-membership", title="Seed set membership", clause="R§9.1", severity="reject",
      scope="point", official=True, needs=("loaded:point_yaml", "registry:seed_sets",))
def seed_set_membership(point, ctx):
    """The point's `seed_set` is the id of a published seed set.

    What it checks: `seed_set` is a string naming a set in the seed-set registry (exact,
    case-sensitive). A point without `seed_set` is left to seed-config-legacy (SKIP).
    Why: only MLCommons-published sets may seed the client (S§4.6); an unknown id cannot be
    checked against any values.
    How to fix: Bind one of the published sets (the finding lists them), e.g. `seed_set: A`.
    """
    lf = point.files["point_yaml"]
    reg = ctx.policy.get("seed_sets")
    raw = _declared_set(lf)
    if raw is MISSING or raw is None:
        return Skip("no seed_set declared: the v0.7 fallback applies (see seed-config-legacy)", reason="not-applicable")
    ids = sorted(s.id for s in reg.entries)
    if not isinstance(raw, str):
        return Fail(f"seed_set is {show(raw)}, not a set id string", file=lf, path=("seed_set",),
                    observed=evidence(raw), expected=ids)
    if raw in ids:
        return Pass(f"seed set {raw} is published")
    near = [i for i in ids if i.lower() == raw.strip().lower()]
    hint = f" (did you mean {near[0]!r}? ids are case-sensitive)" if near else ""
    return Fail(f"seed_set {show(raw)} is not a published seed set; published: {', '.join(ids)}{hint}",
                file=lf, path=("seed_set",), observed=raw, expected=ids, **_set_id_fix(lf, reg, raw, near))


def _set_id_fix(lf, reg, raw: str, near: list) -> dict:
    """The published id ``raw`` misspells by case or spaces, when it is the only one and the point's three seeds
    are exactly that set's: then nothing but the id is wrong."""
    if len(near) != 1:
        return {}
    entry = next(e for e in reg.entries if e.id == near[0])
    declared = declared_seeds(lf)
    if any(declared[k].raw != getattr(entry, k) or declared[k].problem is not None for k in SEED_KEYS):
        return {}
    return {"edits": (Edit(lf, ("seed_set",), "value", entry.id, old=raw, value=entry.id, plain=False),),
            "fix": f"Write `seed_set: {entry.id}` (the point's seeds are set {entry.id}'s)."}


def _bound(lf, reg, ctx):
    """The BoundSet of the point's declared set; ``Skipped`` when it declares none or an unknown one."""
    raw = _declared_set(lf)
    if raw is MISSING or raw is None:
        raise Skipped("no seed_set declared: the v0.7 fallback applies (see seed-config-legacy)",
                      reason="not-applicable")
    sets = reg.bound_sets(adoption_cohorts(ctx))
    if not isinstance(raw, str) or raw not in sets:
        raise Skipped(f"seed_set {show(raw)} is not a published set (see seed-set-membership)",
                      reason="unknown-seed-set")
    return sets[raw]


@rule(id="seed-runtime-match", title="Seed runtime match", clause="R§2.1.1", severity="reject",
      scope="point", needs=("loaded:point_yaml", "policy:cohort_rules", "registry:seed_sets"), official=True,
      consequence_of=("run-folder-seeds", "unknown-key"))
def seed_runtime_match(point, ctx):
    """The runtime seeds in point.yaml equal the bound seed set's values, each one exactly.

    What it checks: `runtime_settings.runtime.scheduler_rng_seed`, `.sample_index_rng_seed` and
    `.model_seed` against the set named by `seed_set`, compared as exact integers (set A's values
    exceed int64). A seed written as a string, a float, a negative number, a value above 2^64-1, or
    missing is reported as such. The v0.7 names `scheduler_random_seed` / `dataloader_random_seed`
    are read where the v1.0 name is absent; equal values then give a warn-level FAIL asking for the
    v1.0 names. The FAIL names every seed that differs, with both values.
    Why: R§2.1.1: the client's RNGs and salt must be seeded from the bound set; other seeds mean
    another request order and other salts than every other submitter.
    How to fix: Copy the three values of the bound set into runtime_settings.runtime as plain
    integers (no quotes, no exponent) and re-run the points that used other seeds.
    """
    lf = point.files["point_yaml"]
    reg = ctx.policy.get("seed_sets")
    bs = _bound(lf, reg, ctx)
    declared = declared_seeds(lf)
    diffs, legacy = [], []
    for key in SEED_KEYS:
        d = declared[key]
        want = bs.seeds[key]
        prob = d.problem
        name = ".".join(d.path[2:])
        if prob is None and d.raw == want:
            if d.legacy:
                legacy.append(d)
            continue
        got = prob if prob and prob != "missing" else ("missing" if prob else str(d.raw))
        diffs.append((d, f"{name} {got} (set {bs.id}: {want})"))
    if diffs:
        first = diffs[0][0]
        edits, notes = seed_edits(point, lf, bs.id, bs.seeds, declared)
        return Fail(f"{len(diffs)} of 3 seeds differ from seed set {bs.id}: " + "; ".join(t for _, t in diffs),
                    file=lf, path=first.path,
                    observed={d.key: evidence(d.raw) for d, _ in diffs},
                    expected={d.key: bs.seeds[d.key] for d, _ in diffs}, edits=tuple(edits),
                    parts=tuple(d.path for d, _ in diffs),
                    **({"fix": seed_fix_text(edits, notes)} if edits or notes else {}))
    if legacy:
        names = ", ".join(f"{d.path[-1]} -> {d.key}" for d in legacy)
        return Fail(f"seeds equal set {bs.id}, but under v0.7 names ({names})", file=lf, path=legacy[0].path,
                    observed=[d.path[-1] for d in legacy], expected=[d.key for d in legacy],
                    severity=Severity.WARN, fix="Rename the keys to the v1.0 names in runtime_settings.runtime.",
                    edits=tuple(Edit(lf, d.path, "key", d.key, old=d.path[-1], value=d.key) for d in legacy))
    return Pass(f"all 3 runtime seeds equal seed set {bs.id}")


@rule(id="seed-set-adoption", title="Seed set adoption", clause="S§4.6", severity="reject",
      scope="point", needs=("loaded:point_yaml", "policy:cohort_rules", "registry:seed_sets"), official=True)
def seed_set_adoption(point, ctx):
    """The bound seed set is adoptable for the point's `target_cohort`.

    What it checks: `target_cohort` lies in the set's adoption window: its publication cohort
    (`cohort-id` of the registry) and the next three (cohort_rules.yaml), or the set's explicit
    `cohorts:` list when the registry gives one. A target before publication fails too. The
    finding prints the window. A registry in the bare `seed_sets:` shape has no publication
    cohort, so adoption cannot be proved: SKIP with that reason (never a PASS).
    A target after every window of the registry says that the bundled registry may be older than the
    published one (sets are published at each publication date, RULES.md §13) and how to pass the
    published file. No cadence is assumed: the windows are the registry's.
    Why: S§4.6: a submission may only bind a set adoptable for the cohort it enters; sets rotate
    so that seeds are not known long in advance.
    How to fix: Bind a set whose window includes your target cohort, or correct target_cohort.
    After an amendment keep the original cohort: the adoption test is not re-applied.
    """
    lf = point.files["point_yaml"]
    reg = ctx.policy.get("seed_sets")
    bs = _bound(lf, reg, ctx)
    if not bs.window:
        return Skip(f"the seed-set registry ({reg.shape}) gives no publication cohort for set {bs.id}: adoption "
                    "cannot be proved; pass the published seedset.yaml with --seed-sets", reason="no-cohort-in-registry")
    target, why = cohorts.try_parse(lf.get("target_cohort", default=MISSING))
    if target is None:
        return Skip(f"target_cohort is not a valid cohort (see target-cohort): {why}", reason="invalid-input")
    win = list(bs.window)
    src = f"published {bs.published}" if bs.window_source == "cohort-id" else "its cohorts list"
    if target in win:
        return Pass(f"target_cohort {target} is in set {bs.id}'s adoption window {cohorts.span(win)}")
    when = "before the set's publication" if target < win[0] else "after the window closed"
    others = sorted(sid for sid, o in reg.bound_sets(adoption_cohorts(ctx)).items() if o.window and target in o.window)
    if others:
        tail, fix = f"; adoptable for it: set {', '.join(others)}", None
    elif target > win[-1]:  # no set of the registry is adoptable yet for a later cohort: a newer one may be published
        tail = f"; {stale_seed_note(ctx.policy, target)}"
        fix = ("Pass the published seedset.yaml: endpoints-checker check --seed-sets FILE (or "
               "MLPERF_ENDPOINTS_SEED_SETS=FILE); then bind the set adoptable for your target_cohort and rerun with its "
               "seeds, or keep the bound set and correct target_cohort.")
    else:
        tail, fix = "", None
    return Fail(f"target_cohort {target.label()} is outside set {bs.id}'s adoption window {cohorts.span(win)} "
                f"({src}); it is {when}{tail}", file=lf, path=("target_cohort",), observed=str(target),
                expected=[str(c) for c in win], fix=fix)


@rule(id="seed-config-legacy", title="Seed config legacy", clause="S§4.6", severity="warn",
      scope="point", needs=("loaded:point_yaml", "policy:cohort_rules",), official=True)
def seed_config_legacy(point, ctx):
    """A point without `seed_set` falls back to the v0.7 seeds (42): warn, or reject if not 42.

    What it checks: only points that declare no `seed_set`. Their scheduler and sample-index
    seeds (and model_seed when given) must equal the v0.7 value 42 (cohort_rules.yaml); then the
    finding is a warn-level FAIL (v1.0 requires a published set). Any other value, or a seed that
    is not an integer, is a reject-level FAIL: those seeds come from no published source.
    Points that bind a set PASS (the fallback is not in use).
    Why: S§4.6 keeps the v0.7 convention only as a fallback; seeds from nowhere defeat the rotation.
    How to fix: Bind the published set for your cohort: add `seed_set` and copy its three seeds.
    """
    lf = point.files["point_yaml"]
    raw = _declared_set(lf)
    if raw is not MISSING and raw is not None:
        return Pass(f"seed_set {show(raw)} is declared: the v0.7 fallback is not in use")
    u = near_miss(lf, (), "seed_set")
    if u is not None:  # the point meant to bind a set: the fallback is not what it asked for
        return Skip(f"no `seed_set`, but {u.describe(lf)}: the v0.7 fallback is not assumed (see unknown-key and "
                    "point-disclosure-complete)", reason="misspelt-key")
    legacy = ctx.policy.get("cohort_rules").legacy_seed
    declared = declared_seeds(lf)
    bad = []
    for key in SEED_KEYS:
        d = declared[key]
        if key == "model_seed" and d.raw is MISSING:
            continue
        prob = seed_problem(d.raw)
        if prob is not None or d.raw != legacy:
            bad.append((d, prob or str(d.raw)))
    if bad:
        first = bad[0][0]
        return Fail("no seed_set and seeds that are not the v0.7 value "
                    f"{legacy}: " + "; ".join(f"{d.path[-1]} {t}" for d, t in bad), file=lf, path=first.path,
                    observed={d.key: evidence(d.raw) for d, _ in bad}, expected={d.key: legacy for d, _ in bad},
                    severity=Severity.REJECT)
    return Fail(f"no seed_set: the point uses the v0.7 fallback (every seed {legacy}); v1.0 binds a published set",
                file=lf, path=(), observed=None, expected="seed_set and the set's seeds")


#: client config.yaml key (settings.runtime.*) -> point.yaml runtime seed it must equal
CONFIG_SEEDS = {ckey: pkey for pkey, ckey in CLIENT_SEED_KEYS.items()}


def _bound_seed_fix(point, lf, ctx, declared, keys: set) -> dict:
    """Where the point binds a published set and config.yaml shows the run used its seeds, the edits that
    make point.yaml say so; where the run used other seeds, a fix text saying the point needs a re-run."""
    raw = _declared_set(lf)
    reg = ctx.policy.get("seed_sets") if ctx.policy.available("seed_sets") else None
    entry = next((e for e in reg.entries if e.id == raw), None) if reg is not None and isinstance(raw, str) else None
    if entry is None:
        return {}
    seeds = {k: getattr(entry, k) for k in SEED_KEYS if k in keys}
    edits, notes = seed_edits(point, lf, entry.id, seeds, declared)
    text = seed_fix_text(edits, [n for n in notes if "re-run" in n])
    return {"edits": tuple(edits), **({"fix": text} if text else {})}


def _config_seeds_fail(point, lf, ctx, declared, diffs):
    """config-seeds-match's FAIL, at point.yaml (config.yaml records what ran and is never edited): where the run
    used the bound set's seeds (or no set is known), point.yaml misstates them and holds the wrong value; where
    point.yaml holds the set's seed and the run used another, only a re-run fixes it."""
    reg = ctx.policy.get("seed_sets") if ctx.policy.available("seed_sets") else None
    raw_set = _declared_set(lf)
    entry = next((e for e in reg.entries if e.id == raw_set), None) if reg is not None and isinstance(raw_set, str) \
        else None
    rerun = [d for d in diffs if entry is not None and seed_problem(d[3]) is None and d[3] == getattr(entry, d[1])]
    edit = [d for d in diffs if d not in rerun]
    words, observed, expected = [], {}, {}
    for ckey, pkey, craw, praw, c_txt, p_txt in edit:
        words.append(f"point.yaml's {pkey} is {p_txt}; config.yaml shows the run used {c_txt} "
                     f"(settings.runtime.{ckey})")
        observed[pkey], expected[pkey] = evidence(praw), evidence(craw)
    for ckey, pkey, craw, praw, c_txt, p_txt in rerun:
        words.append(f"config.yaml shows the run used {pkey} {c_txt} (settings.runtime.{ckey}), not seed set "
                     f"{entry.id}'s {p_txt} that point.yaml declares: only a re-run fixes it")
        observed[pkey], expected[pkey] = evidence(craw), evidence(praw)
    first = (edit or rerun)[0]
    fix = _bound_seed_fix(point, lf, ctx, declared, {d[1] for d in diffs})
    if "fix" not in fix:
        fix["fix"] = ("Re-run the point with seed set {}'s seeds.".format(entry.id) if not edit else
                      "Write the seeds config.yaml records in point.yaml's runtime_settings.runtime, if the run used "
                      "the bound set's seeds; else re-run the point with them.")
    return Fail("; ".join(words), file=lf, path=declared[first[1]].path,
                observed=observed, expected=expected, parts=tuple(declared[d[1]].path for d in diffs), **fix)


@rule(id="config-seeds-match", title="config.yaml seeds match point.yaml", clause="R§2.1.1", severity="reject",
      scope="point", needs=("loaded:point_yaml", "policy:seed_sets", "loaded:config"),
      consequence_of=("seed-runtime-match", "run-folder-seeds"))
def config_seeds_match(point, ctx):
    """The seeds in the point's config.yaml equal the runtime seeds its point.yaml declares.

    What it checks: where `config.yaml` (the client's resolved run config) records a seed,
    `settings.runtime.scheduler_random_seed` must equal point.yaml's
    `runtime_settings.runtime.scheduler_rng_seed`, and `settings.runtime.dataloader_random_seed`
    its `sample_index_rng_seed` (the client has no config key for model_seed). Exact integers. A
    seed config.yaml does not record contradicts nothing: it is not compared, and the finding names
    it (SKIP when config.yaml records neither seed, as the corpus packages' `concurrency: N` files).
    Why: config.yaml is what the run actually used; point.yaml is what the submitter declares.
    R§2.1.1 requires the RNGs to be seeded from the bound set through the YAML config, so the two
    must agree where both say something. config.yaml is optional (v1.0) and may record no settings;
    the seeds are bound on point.yaml (seed-runtime-match). The official checker never reads
    config.yaml's content.
    How to fix: Re-run the point with the bound set's seeds in settings.runtime, or correct
    point.yaml if it misstates the seeds the run used.
    """
    cfg = point.files["config"]
    lf = point.files["point_yaml"]
    declared = declared_seeds(lf)
    diffs, unrecorded = [], []
    for ckey, pkey in CONFIG_SEEDS.items():
        craw = cfg.get("settings", "runtime", ckey, default=MISSING)
        praw = declared[pkey].raw
        if craw is MISSING:
            unrecorded.append(f"settings.runtime.{ckey}")
            continue
        cprob, pprob = seed_problem(craw), seed_problem(praw)
        if cprob is None and pprob is None and craw == praw:
            continue
        diffs.append((ckey, pkey, craw, praw, cprob or str(craw), pprob or str(praw)))
    if diffs:
        return _config_seeds_fail(point, lf, ctx, declared, diffs)
    if len(unrecorded) == len(CONFIG_SEEDS):
        return Skip(f"config.yaml records no seeds ({', '.join(unrecorded)}): nothing to compare with point.yaml "
                    "(seed-runtime-match checks point.yaml's seeds)", reason="not-recorded")
    if unrecorded:
        return Pass(f"config.yaml's recorded seeds equal point.yaml's; not recorded, so not compared: "
                    f"{', '.join(unrecorded)}")
    return Pass("config.yaml scheduler and dataloader seeds equal point.yaml's")
