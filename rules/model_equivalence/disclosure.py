"""Model equivalence (R§2.9): the block's shape, disallowed techniques, checkpoint and PTQ rules.

The disclosures live in point.yaml's ``model_equivalence`` block (our convention, documented in
schemas/point.schema.json). Standardized gets every rule; Serviced and RDI, where augmentation is
allowed with disclosure, get the disclosure-completeness rules only (policy: division gating).
Runtime rules (KV cache, sparsity, softmax) are in model_equivalence_runtime.py, fixed parameters
and curve rules in model_equivalence_params.py.
"""
from __future__ import annotations

import re

from checker.core.rule import Fail, Pass, Skip, rule
from rules.model_equivalence.policy import (NEEDS, benchmark, block, dataset_names, filled, is_url, lf, listing, path,
                              prepare, present_block)
from checker.load.models.model_equivalence import norm_name

_CHECKSUM = re.compile(r"^sha256:[0-9a-fA-F]{64}$")


@rule(id="me-block-valid", title="model_equivalence block well-formed", clause="R§2.9, R§8.3", severity="warn", scope="point", needs=("point_yaml",))
def me_block_valid(point, ctx):
    """The point.yaml `model_equivalence` block has the documented shape and value types.

    What it checks: every key of the block that schemas/point.schema.json documents holds the
    documented type (mappings, lists of strings, booleans, finite numbers); technique entries are
    names or mappings with a `name`. A value of the wrong type is ignored by the other rules.
    Why: the rules say techniques are "disclosed in the submission YAML" (R§2.9.3) without field
    names; this block is our convention, so a malformed one is advice, not a rejection.
    How to fix: Correct the value at the reported path (see schemas/point.schema.json).

    Example:
      Passing:
        model_equivalence:
          checkpoint: {source: canonical, checksum: "sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9"}
          techniques: []
      Failing:
        model_equivalence:
          checkpoint: {source: canonical, components_retained: "yes"}
          techniques: [42]
    """
    parsed = block(point)
    if not parsed.present:
        return Skip("point.yaml has no model_equivalence block (me-disclosure-present reports it per curve)",
                    reason="missing-input")
    if parsed.problems:
        first = parsed.problems[0]
        more = f" (and {len(parsed.problems) - 1} more)" if len(parsed.problems) > 1 else ""
        return Fail("; ".join(p.message for p in parsed.problems[:5]) + more, file=lf(point), path=first.path,
                    observed=first.observed, expected="the type documented in schemas/point.schema.json")
    return Pass("the model_equivalence block is well-formed")


@rule(id="me-disallowed-technique", title="No disallowed optimisation technique", clause="R§2.9.2", severity="reject-points", scope="point", needs=NEEDS)
def me_disallowed_technique(point, ctx):
    """No technique on the always-disallowed list is declared (Standardized); Serviced/RDI disclose it.

    What it checks: each entry of `model_equivalence.techniques` against the disallowed list in
    policy (R§2.9.2 "Always disallowed", the frozen-drafter bans of R§2.9.4 and R§2.9.6.5):
    Standardized points declaring one FAIL (reject points). Serviced and RDI may augment, so each
    such technique only needs a disclosure (`description` or `disclosure_url`; FAIL as flag).
    Quoting R§2.9.2: "Endpoints states optimisation rules as a single disallowed list, not a list
    of permitted techniques. Anything not listed as banned ... is permitted." Techniques not on the
    list pass.
    Why: "A submission that hits the quality target while breaking one of the rules above ... is not
    model equivalent. Accuracy doesn't buy forgiveness for a banned technique." (R§2.9.8)
    How to fix: Standardized: remove the technique and re-run the point, or submit in Serviced/RDI.
    Serviced/RDI: give the technique as `{name: ..., description: ..., disclosure_url: https://...}`.

    Example:
      Passing:
        division: Standardized
        model_equivalence:
          techniques: [flash-attention, prefix-caching]
      Failing:
        division: Standardized
        model_equivalence:
          techniques: [query coalescing]
      Failing:
        division: Serviced
        model_equivalence:
          techniques: [lora]
    """
    parsed, pol, div, full, note = prepare(point, ctx)
    banned = [(t, pol.disallowed(t.name)) for t in parsed.techniques if t.name]
    banned = [(t, tid) for t, tid in banned if tid]
    permitted = sorted({t.name for t in parsed.techniques if t.name} - {t.name for t, _ in banned})
    if full:
        if banned:
            t, tid = banned[0]
            info = pol.disallowed_techniques[tid]
            names = [f"{x.raw if isinstance(x.raw, str) else x.name} ({pol.disallowed_techniques[i].title}, "
                     f"{pol.disallowed_techniques[i].clause})" for x, i in banned]
            return Fail(f"{div} point declares disallowed technique(s){note}: " + "; ".join(names),
                        file=lf(point), path=path("techniques", t.index), observed=sorted({i for _, i in banned}),
                        expected=f"none of the disallowed techniques ({info.clause})")
        extra = f"; permitted (not on the disallowed list): {listing(permitted)}" if permitted else ""
        return Pass(f"no disallowed technique declared{extra}")
    never = set(pol.division_bans.get(div, ()))
    barred = [(t, tid) for t, tid in banned if tid in never]
    if barred:
        t, tid = barred[0]
        names = [f"{x.raw if isinstance(x.raw, str) else x.name} ({pol.disallowed_techniques[i].title})"
                 for x, i in barred]
        return Fail(f"{div} point declares a technique {div} may not use even with a disclosure{note}: "
                    + "; ".join(names), file=lf(point), path=path("techniques", t.index),
                    observed=sorted({i for _, i in barred}), expected=f"none of {sorted(never)} in {div}",
                    fix=f"Remove {tid} from the {div} endpoint and re-run the point (R§2.2.2: no cross-query "
                        "response caching).")
    undisclosed = [(t, tid) for t, tid in banned if not t.disclosed]
    if undisclosed:
        t, tid = undisclosed[0]
        shown = ", ".join(f"{x.raw if isinstance(x.raw, str) else x.name} ({tid})" for x, tid in undisclosed)
        return Fail(f"{div} point uses augmentation {shown} without a disclosure",
                    file=lf(point), path=path("techniques", t.index), severity=_flag(),
                    observed=[x.raw for x, _ in undisclosed],
                    expected="{name, description or disclosure_url} for each augmentation",
                    fix="Write each augmentation as {name: ..., description: ..., disclosure_url: https://...}.")
    return Pass(f"{div}: {len(banned)} augmentation(s) disclosed" if banned else f"{div}: no augmentation declared")


def _flag():
    from checker.core.findings import Severity

    return Severity.FLAG


@rule(id="me-checkpoint-disclosed", title="Checkpoint provenance disclosed", clause="R§2.9.3", severity="flag", scope="point", needs=NEEDS)
def me_checkpoint_disclosed(point, ctx):
    """The checkpoint actually served is identified: source, checksum and component retention.

    What it checks: `model_equivalence.checkpoint` exists; `source` is `canonical`, `derived` (PTQ of
    the canonical weights) or `preapproved`; `checksum` is `sha256:<64 hex>` (required in
    Standardized, checked for form whenever given); a derived checkpoint states `components_retained`.
    R§2.9.3: "reviewers check your derived checkpoint against the published model ID or checksum".
    Why: provenance is what lets a reviewer tie every point to one artifact.
    How to fix: Add `checkpoint: {source: derived, checksum: "sha256:...", components_retained: true}`.

    Example:
      Passing:
        model_equivalence:
          checkpoint:
            source: derived
            checksum: "sha256:5c1f0d3a9e7b2c4d6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"
            components_retained: true
      Failing:
        model_equivalence:
          checkpoint: {source: my-own-weights}
    """
    parsed, pol, div, full, note = prepare(point, ctx)
    ck = parsed.model.checkpoint
    if ck is None:
        return Fail("no `checkpoint` disclosure: reviewers cannot tie the points to an artifact", file=lf(point),
                    path=path(), observed=None, expected="checkpoint: {source, checksum, components_retained}")
    problems = []
    if ck.source not in pol.checkpoint_sources:
        problems.append((("checkpoint", "source"), ck.source, f"one of {pol.checkpoint_sources}",
                         f"`checkpoint.source` is {ck.source!r}, not one of {listing(pol.checkpoint_sources)}"))
    if ck.checksum is None:
        if full:
            problems.append((("checkpoint", "checksum"), None, "sha256:<64 hex digits>",
                             f"`checkpoint.checksum` is missing (required in {div}{note})"))
    elif not _CHECKSUM.match(ck.checksum.strip()):
        problems.append((("checkpoint", "checksum"), ck.checksum, "sha256:<64 hex digits>",
                         "`checkpoint.checksum` is not of the form sha256:<64 hex digits>"))
    if ck.source == "derived" and ck.components_retained is None:
        problems.append((("checkpoint", "components_retained"), None, "true",
                         "a derived checkpoint must state `components_retained`"))
    if problems:
        keys, obs, exp, _ = problems[0]
        return Fail("; ".join(p[3] for p in problems), file=lf(point), path=path(*keys), observed=obs, expected=exp)
    return Pass(f"checkpoint disclosed: {ck.source}" + (f", {ck.checksum[:19]}..." if ck.checksum else ""))


@rule(id="me-checkpoint-provenance", title="Checkpoint complete and eligible", clause="R§2.9.3", severity="reject-points", scope="point", needs=NEEDS)
def me_checkpoint_provenance(point, ctx):
    """A derived checkpoint keeps every canonical component; a pre-approved one is on the list.

    What it checks: Standardized: `checkpoint.components_retained: false` FAILs whatever the
    `source` (a canonical or pre-approved checkpoint that states its components were stripped is
    not canonical any more); it must be true for a derived checkpoint (R§2.9.3: "You may not strip components from the derived checkpoint ... This holds even where
    the component does not participate in producing output"); a `preapproved` checkpoint's checksum
    is on the policy's pre-approved list (SKIP while none is published). Serviced/RDI: stripping is
    static weight removal, allowed only when declared in `techniques` with a disclosure.
    Declining to use a component at run time (`unused_components`) is permitted, and such a
    component need not be resident in accelerator memory (`[CKPT-RESIDENCY]`, resolved "not
    required" in the newest rules text, RULES.md §13): nothing is asked about where it is loaded.
    Why: "Removing it from the artifact is not [permitted]": the freed memory is KV-cache capacity.
    How to fix: Rebuild the derived checkpoint with every component (MTP/EAGLE heads included) and
    list the ones you do not use in `unused_components`.

    Example:
      Passing:
        division: Standardized
        model_equivalence:
          checkpoint: {source: derived, components_retained: true, unused_components: [mtp_head]}
      Failing:
        division: Standardized
        model_equivalence:
          checkpoint: {source: derived, components_retained: false}
    """
    parsed, pol, div, full, note = prepare(point, ctx)
    ck = parsed.model.checkpoint
    if ck is not None and ck.components_retained is False:
        # the submitter states components were stripped: whatever the source says, that is the fact
        src = f"{ck.source} checkpoint" if isinstance(ck.source, str) and ck.source.strip() else "checkpoint"
        if full:
            return Fail(f"{div} {src} states components_retained: false: canonical components were stripped{note}",
                        file=lf(point), path=path("checkpoint", "components_retained"), observed=False, expected=True)
        removal = [t for t in parsed.techniques if pol.disallowed(t.name) == "static-weight-removal"]
        if not any(t.disclosed for t in removal):
            return Fail(f"{div} {src} strips components without declaring static weight removal",
                        file=lf(point), path=path("checkpoint", "components_retained"), severity=_flag(),
                        observed=False, expected="true, or a disclosed `static-weight-removal` technique",
                        fix="Declare {name: static-weight-removal, description: ..., disclosure_url: ...}.")
        return Pass(f"{div}: component removal disclosed as an augmentation")
    if ck is None or ck.source not in pol.checkpoint_sources:
        return Skip("checkpoint source not disclosed (see me-checkpoint-disclosed)", reason="missing-input")
    unused = [u for u in (ck.unused_components or []) if isinstance(u, str)]
    tail = (f"; not used at run time (permitted; residency in accelerator memory is not required): {listing(unused)}"
            if unused else "")
    if ck.source == "derived":
        if ck.components_retained is None:
            return Skip("components_retained not declared (see me-checkpoint-disclosed)", reason="missing-input")
        return Pass("derived checkpoint keeps every canonical component" + tail)
    if ck.source == "preapproved" and full:
        if not pol.preapproved_checkpoints:
            return Skip("no pre-approved checkpoint list in the policy data: cannot verify the pre-approval",
                        reason="not-in-policy")
        if (ck.checksum or "").strip().lower() not in {c.lower() for c in pol.preapproved_checkpoints}:
            return Fail("checkpoint declared pre-approved but its checksum is not on the pre-approved list",
                        file=lf(point), path=path("checkpoint", "checksum"), observed=ck.checksum,
                        expected="a checksum on the pre-approved list")
        return Pass("pre-approved checkpoint on the list" + tail)
    return Pass(f"{ck.source} checkpoint" + tail)


@rule(id="me-quantization-disclosed", title="Post-training quantization disclosed", clause="R§2.9.3",
      severity="flag", scope="point", needs=NEEDS)
def me_quantization_disclosed(point, ctx):
    """A derived (quantized) checkpoint discloses method, formats, calibration set and a public description.

    What it checks: when `checkpoint.source` is `derived` or a `quantization` block is given, it has
    `method`, a non-empty `formats` list, `calibration_set` and an http(s) `description_url`.
    R§2.9.3: PTQ is permitted provided "Only the published calibration set is used", "The method is
    publicly described well enough to be reproduced", "It passes the accuracy gate" and "It is
    disclosed in the submission YAML".
    Why: an undisclosed or irreproducible quantization cannot be reviewed.
    How to fix: Complete `quantization: {method, formats, calibration_set, description_url}`.

    Example:
      Passing:
        model_equivalence:
          checkpoint: {source: derived}
          quantization:
            method: GPTQ
            formats: [INT4]
            calibration_set: cnn_dailymail-calibration
            description_url: https://example.org/gptq-recipe
      Failing:
        model_equivalence:
          checkpoint: {source: derived}
          quantization: {method: GPTQ, formats: []}
    """
    parsed = present_block(point)
    me = parsed.model
    derived = me.checkpoint is not None and me.checkpoint.source == "derived"
    q = me.quantization
    if q is None:
        if derived:
            return Fail("derived checkpoint without a `quantization` disclosure", file=lf(point), path=path(),
                        observed=None, expected="quantization: {method, formats, calibration_set, description_url}")
        return Pass("no weight transformation declared")
    missing = []
    if not filled(q.method):
        missing.append("method")
    if not q.formats or not all(filled(f) for f in q.formats):
        missing.append("formats")
    if not filled(q.calibration_set):
        missing.append("calibration_set")
    if not is_url(q.description_url):
        missing.append("description_url")
    if missing:
        return Fail(f"quantization disclosure incomplete: {listing(missing)} missing or empty", file=lf(point),
                    path=path("quantization", missing[0]), observed=missing, expected="every field filled")
    return Pass(f"quantization disclosed: {q.method} ({', '.join(q.formats)}), calibration set {q.calibration_set}")


@rule(id="me-calibration-set", title="Only the published calibration set", clause="R§2.9.3", severity="reject-points", scope="point", needs=NEEDS + ("policy:models",))
def me_calibration_set(point, ctx):
    """Quantization was calibrated on the benchmark's published calibration set (Standardized).

    What it checks: `quantization.calibration_set` equals the benchmark's published calibration set
    id (policy data, per benchmark); a set naming the benchmark's performance or accuracy dataset is
    input-based optimization. SKIP when the policy has no published set for the benchmark, and for
    Serviced/RDI (augmentation allowed with disclosure).
    R§2.9.3: "You may either derive a quantized checkpoint from the reference checkpoint using only
    the MLPerf-provided calibration data, or use a publicly available checkpoint pre-approved".
    Why: calibrating on benchmark inputs encodes the dataset into the weights (R§2.9.2).
    How to fix: Re-run the calibration on the published calibration set and re-measure the points.

    Example:
      Passing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          quantization: {method: AWQ, formats: [INT4], calibration_set: cnn_dailymail-calibration}
      Failing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          quantization: {method: AWQ, formats: [INT4], calibration_set: cnn_dailymail}
    """
    parsed, pol, div, full, _ = prepare(point, ctx, standardized_only="me-quantization-disclosed")
    q = parsed.model.quantization
    if q is None:
        return Pass("no post-training quantization declared")
    if not filled(q.calibration_set):
        return Skip("calibration set not disclosed (see me-quantization-disclosed)", reason="missing-input")
    got = norm_name(q.calibration_set)
    where = dict(file=lf(point), path=path("quantization", "calibration_set"), observed=q.calibration_set)
    if got in dataset_names(point, ctx):
        return Fail("quantization calibrated on the benchmark's performance/accuracy dataset: input-based "
                    "optimization", expected="the published calibration set", **where)
    bid = benchmark(point, ctx)
    fixed = pol.benchmarks.get(bid) if bid else None
    if fixed is None or fixed.calibration_set is None:
        return Skip(f"the published calibration set of {bid or 'this benchmark'} is not in the policy data",
                    reason="not-in-policy")
    if got != norm_name(fixed.calibration_set):
        return Fail(f"calibration set {q.calibration_set!r} is not the published one for {bid}",
                    expected=fixed.calibration_set, **where)
    return Pass(f"calibrated on the published set {fixed.calibration_set}")
