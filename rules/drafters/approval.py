"""Speculative-decoding drafters (R§2.9.4, R§9.1; OFFICIAL-CHECKER.md §3 K; RULES.md §7.3).

The approved list is ``rules/policy/<edition>/approved_drafters.yaml`` or ``--approved-drafters
FILE``; an empty list approves nothing. A list that is missing or malformed is a reject FAIL of
``drafter-list-registry`` and the two rules that read it SKIP. The curve rules (same drafter,
per-point configuration, distribution) compare the submitter's own declarations and always run.
Field names of the point.yaml block: see ``rules.drafters.declaration``.
"""
from __future__ import annotations

from checker.domain import cohort_ids as cohorts
from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from rules.drafters.declaration import BLOCK, DISABLED, declaration, describe_identity, match
from checker.core.values import MISSING
from rules.shared.seed_values import point_yaml, registry_failure, registry_source


def _drafters(ctx):
    """The approved-drafter list, or None when it is unusable (drafter-list-registry reports it)."""
    return ctx.policy.get("approved_drafters") if ctx.policy.available("approved_drafters") else None


def _canonical(ctx, name):
    if isinstance(name, str) and ctx.policy.available("models"):
        return ctx.policy.get("models").canonical(name) or name
    return name


def _benchmark(point, lf, ctx) -> str:
    name = lf.get("model_name", default=MISSING)
    if not isinstance(name, str) or not name:
        name = point.curve.name
    return _canonical(ctx, name)


def _entries_for(reg, benchmark, ctx) -> list:
    return [e for e in reg.drafters if _canonical(ctx, e.benchmark) == benchmark]


def _match(point, lf, reg, ctx):
    bench = _benchmark(point, lf, ctx)
    return bench, match(declaration(lf), _entries_for(reg, bench, ctx), bench)


@rule(id="drafter-list-registry", title="Approved-drafter registry", clause="R§2.9.4", severity="reject", scope="package", official=True, needs=("policy:approved_drafters", "policy:models",))
def drafter_list_registry(pkg, ctx):
    """The approved-drafter list (bundled approved_drafters.yaml or --approved-drafters FILE) is well formed.

    What it checks: the file exists, is YAML or JSON, and holds `drafters:` as a list (an empty list
    is valid and approves nothing). Each entry has `benchmark`, `approved_cohort` (a cohort id) and
    an identity: `weight_checksum` (weight-identified, usually with `model_id`) or
    `target_checksum` + `configuration` (configuration-identified); optional `name`, `version`,
    `algorithm`, `precision`, `default_point_config`, `source_url`, `notes`.
    Why: the official checker only warns on an unreadable list and then skips the drafter rules,
    so an unapproved drafter passes. Here the run is rejected and the drafter rules SKIP.
    How to fix: Point --approved-drafters (or MLPERF_ENDPOINTS_APPROVED_DRAFTERS) at a valid list, or
    unset it to use the bundled one; write `drafters: []` for "nothing approved".
    """
    reg = _drafters(ctx)
    src = registry_source(ctx, "approved_drafters")
    if reg is None:
        return registry_failure(ctx, "approved_drafters", "approved-drafter list", "a mapping with a `drafters:` list")
    if not reg.drafters:
        return Pass(f"approved-drafter list {src} is empty: no drafter is approved for any benchmark")
    per = {}
    for e in reg.drafters:
        per.setdefault(_canonical(ctx, e.benchmark), []).append(e)
    listing = ", ".join(f"{b} {len(v)}" for b, v in sorted(per.items()))
    disputed = sum(1 for e in reg.drafters if e.disputed)
    tail = f"; {disputed} disputed (a flag when used)" if disputed else ""
    return Pass(f"approved-drafter list {src}: {len(reg.drafters)} entries ({listing}){tail}")


@rule(id="approved-drafter", title="Approved drafter", clause="R§2.9.4", severity="reject-points",
      scope="point", official=True, needs=("loaded:point_yaml", "registry:approved_drafters",))
def approved_drafter(point, ctx):
    """A point that uses speculative decoding names a drafter on its benchmark's approved list.

    What it checks: a point.yaml `speculative_decoding` block (not `point_config: disabled`) must
    match an approved entry for the point's benchmark (canonical `model_name`): by
    `weight_checksum`, or by `target_checksum` + `configuration`. When the entry names an
    `algorithm`, the point must declare the same one. A benchmark with no approved drafter does not
    allow speculative decoding at all. Points without the block pass. An entry whose approval is
    `disputed` in the list (the sources disagree: DeepSeek-R1 and GPT-OSS heads the official
    checker carries over, which the submitter FAQ says are not approved) is a flag-level FAIL
    naming the disagreement, not a reject.
    A `native` entry (a head that ships inside a checkpoint) is approved together with the approved
    checkpoint that ships it, identified by that checkpoint's model ID and checksum (the newest rules
    text, RULES.md §13): it matches by the checksum, a differing model_id fails, and a block that
    names no model_id is a warning.
    Why: R§2.9.4: only a designated drafter may be used, including one shipped in the canonical
    checkpoint but not listed; swapping the drafter or the algorithm is a model change.
    How to fix: Use an approved drafter and declare its checksum, or turn speculative decoding off
    at this point (`point_config: disabled`) and re-run it.
    """
    lf = point.files["point_yaml"]
    reg = ctx.policy.get("approved_drafters")
    decl = declaration(lf)
    if not decl.present:
        return Pass("no speculative decoding at this point")
    if decl.is_mapping and decl.disabled:
        return Pass("speculative decoding is disabled at this point")
    bench, m = _match(point, lf, reg, ctx)
    if m.entry is None:
        return Fail(m.problem, file=lf, path=m.path, observed=decl.describe(),
                    expected=f"an approved drafter for {bench}")
    if m.entry.disputed:
        key = "weight_checksum" if m.how == "weight checksum" else "target_checksum"
        return Fail(f"drafter {decl.describe()} matches the list entry for {bench} ({m.entry.model_id or m.how}, "
                    f"approved {m.entry.approved_cohort}) by {m.how}, but that approval is disputed: "
                    f"{m.entry.disputed}", file=lf, path=(BLOCK, key), severity=Severity.FLAG,
                    observed=decl.describe(), expected=f"an undisputed approved drafter for {bench}",
                    fix="A reviewer decides whether this head is approved; be ready to show its approval, or run "
                        "the points without speculative decoding.")
    if m.entry.native and decl.get("model_id") is None:
        return Fail(f"drafter {decl.describe()} matches {bench}'s native head by {m.how}, but the block names no "
                    f"model_id: the rules identify a native head by the model ID and checksum of the approved "
                    f"checkpoint that ships it", file=lf, path=(BLOCK,), severity=Severity.WARN,
                    observed=decl.describe(), expected={"model_id": m.entry.model_id},
                    fix=f"Add `model_id: {m.entry.model_id}` to the speculative_decoding block.")
    return Pass(f"drafter {decl.describe()} matches the approved entry for {bench} by {m.how} "
                f"(approved {m.entry.approved_cohort})")


@rule(id="drafter-approval-lead-time", title="Drafter approval lead time", clause="R§2.9.4", severity="reject-points", scope="point", needs=("loaded:point_yaml", "policy:cohort_rules", "registry:approved_drafters"), official=True)
def drafter_approval_lead_time(point, ctx):
    """An approved drafter is used no earlier than two cohorts after its approval.

    What it checks: for a point whose drafter matches an approved entry, `target_cohort` is at
    least `approved_cohort` + 2 cohorts (cohort_rules.yaml: drafter_lead_cohorts); for a native head
    that is the approval cohort of the checkpoint that ships it (RULES.md §13). The finding
    names the earliest usable cohort. Points without a drafter pass; an unapproved drafter or an
    invalid target_cohort is left to approved-drafter / target-cohort (SKIP).
    Why: R§2.9.4: the lead time gives every submitter the same chance to adopt a new drafter.
    How to fix: Target a later cohort, or run without the drafter.
    """
    lf = point.files["point_yaml"]
    reg = ctx.policy.get("approved_drafters")
    decl = declaration(lf)
    if not decl.used:
        return Pass("no drafter is used at this point")
    bench, m = _match(point, lf, reg, ctx)
    if m.entry is None:
        return Skip("the drafter is not on the approved list (see approved-drafter)", reason="not-applicable")
    target, why = cohorts.try_parse(lf.get("target_cohort", default=MISSING))
    if target is None:
        return Skip(f"target_cohort is not a valid cohort (see target-cohort): {why}", reason="invalid-input")
    lead = ctx.policy.get("cohort_rules").drafter_lead_cohorts
    approved = cohorts.parse(m.entry.approved_cohort)
    earliest = approved + lead
    gap = target - approved
    what = (f"the approval of the checkpoint {m.entry.model_id} that ships this native head" if m.entry.native
            else "the drafter's approval")
    if target >= earliest:
        return Pass(f"target_cohort {target} is {gap} cohorts after {what if m.entry.native else 'approval'} "
                    f"{approved} (needs >= {lead})")
    return Fail(f"target_cohort {target.label()} is {gap} cohort(s) after {what} {approved}; "
                f"it is usable from {earliest.label()} (approval + {lead})", file=lf, path=("target_cohort",),
                observed=str(target), expected=f">= {earliest}")


def _decls(curve):
    """[(point, point.yaml, Decl)] for the curve's readable points, computed once per curve."""
    def compute():
        out = []
        for p in curve.points:
            lf = point_yaml(p)
            if lf is not None:
                out.append((p, lf, declaration(lf)))
        return out

    return curve.cached("drafter-decls", compute)


@rule(id="drafter-curve-consistency", title="One drafter per curve", clause="R§2.9.4", severity="reject", scope="curve", needs=("maybe:point_yaml",))
def drafter_curve_consistency(curve, ctx):
    """Every point of a curve that uses speculative decoding uses the same drafter and algorithm.

    What it checks: the drafter identity declared in each point's `speculative_decoding` block
    (`algorithm`, `model_id`, `weight_checksum`, `target_checksum`, `configuration`, compared
    case-insensitively) is the same at every point that declares one; `point_config` may differ,
    and points with speculation disabled and no identity are not compared. The official checker
    does not test this.
    Why: R§2.9.4 / model equivalence: "all points must use the same drafter - same head, same
    algorithm"; swapping the drafter between points is a different model per point.
    How to fix: Use one drafter for the whole curve; vary only its per-point configuration (or
    disable it) and re-run the points that used another drafter.
    """
    ds = _decls(curve)
    groups: dict = {}
    for p, lf, d in ds:
        ident = d.identity()
        if ident is not None:
            groups.setdefault(ident, []).append((p, lf))
    if not groups:
        return Pass("no point of this curve declares a drafter")
    if len(groups) == 1:
        (ident, pts), = groups.items()
        return Pass(f"one drafter at {len(pts)} point(s): {describe_identity(ident)}")
    ordered = sorted(groups.items(), key=lambda kv: (-len(kv[1]), describe_identity(kv[0])))
    p, lf = ordered[1][1][0]
    listing = "; ".join(f"{describe_identity(i)} at {', '.join(q.name for q, _ in pts)}" for i, pts in ordered)
    return Fail(f"{len(groups)} different drafters on one curve: {listing}", file=lf, path=(BLOCK,),
                observed={q.name: describe_identity(i) for i, pts in ordered for q, _ in pts},
                expected="one drafter (same head, same algorithm) at every point")


@rule(id="drafter-point-config", title="Per-point drafter configuration", clause="R§2.9.4", severity="reject-points", scope="point", needs=("loaded:point_yaml",))
def drafter_point_config(point, ctx):
    """On a curve that uses a drafter, every point declares its drafter configuration (or `disabled`).

    What it checks: when any point of the curve has a `speculative_decoding` block, this point's
    block must carry `point_config`: a non-empty mapping of the engine's settings (e.g.
    `speculative-num-steps: 3`, `speculative-eagle-topk: 1`) or the string `disabled`. A point with
    no block at all on such a curve is a flag-level FAIL (declare `point_config: disabled`).
    Why: R§2.9.4 / R§8.3: the configuration may vary per point, including off, but must be
    declared per point so reviewers can tell which points ran speculation and how.
    How to fix: Add `speculative_decoding: {point_config: {...}}` with this point's settings, or
    `point_config: disabled`.
    """
    lf = point.files["point_yaml"]
    if not any(d.present for _, _, d in _decls(point.curve)):
        return Pass("no point of this curve uses speculative decoding")
    decl = declaration(lf)
    if not decl.present:
        return Fail("the curve uses speculative decoding but this point declares no speculative_decoding block",
                    file=lf, path=(), observed=None, expected=f"{BLOCK}.point_config (a mapping, or {DISABLED})",
                    severity=Severity.FLAG,
                    fix=f"Declare `{BLOCK}: {{point_config: {DISABLED}}}` if speculation was off at this point.")
    if not decl.is_mapping:
        return Fail(f"{BLOCK} is not a mapping", file=lf, path=(BLOCK,), observed=str(type(decl.raw).__name__),
                    expected="a mapping")
    pc = decl.get("point_config")
    if isinstance(pc, dict) and pc:
        return Pass(f"point_config declared ({len(pc)} settings)")
    if decl.disabled:
        return Pass("point_config: disabled")
    what = "missing" if pc is None else ("an empty mapping" if pc == {} else f"{pc!r:.60}")
    return Fail(f"{BLOCK}.point_config is {what}", file=lf, path=(BLOCK, "point_config") if pc is not None else (BLOCK,),
                observed=what, expected=f"a non-empty mapping of settings, or {DISABLED!r}")


@rule(id="drafter-config-distribution", title="Drafter configuration distribution", clause="R§2.9.4",
      severity="flag", scope="point", needs=("loaded:point_yaml",))
def drafter_config_distribution(point, ctx):
    """A drafter configuration that varied within the run is reported as a distribution.

    What it checks: a `speculative_decoding` block with `varies_within_run: true` must carry
    `distribution`, a non-empty mapping (e.g. setting value -> share of steps) or list;
    `varies_within_run` must be true or false when present. Points without the block pass.
    Why: R§2.9.4: dynamic speculation (e.g. steps chosen per batch) is allowed, but reviewers need
    the distribution, not one representative value.
    How to fix: Add `distribution:` with the share of the run spent in each configuration.
    """
    lf = point.files["point_yaml"]
    decl = declaration(lf)
    if not decl.present or not decl.is_mapping:
        return Pass("no speculative_decoding block at this point")
    varies = decl.get("varies_within_run")
    if varies is None or varies is False:
        return Pass("the drafter configuration is declared fixed within the run")
    if varies is not True:
        return Fail(f"{BLOCK}.varies_within_run is {varies!r:.40}, not true/false", file=lf,
                    path=(BLOCK, "varies_within_run"), observed=str(varies)[:60], expected="true or false")
    dist = decl.get("distribution")
    if isinstance(dist, (dict, list)) and dist:
        return Pass(f"configuration varied within the run; distribution of {len(dist)} entries declared")
    return Fail("the drafter configuration varied within the run but no distribution is reported", file=lf,
                path=(BLOCK, "distribution") if dist is not None else (BLOCK,),
                observed="missing" if dist is None else str(dist)[:60], expected="a non-empty mapping or list")
