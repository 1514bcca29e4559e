"""Model equivalence at run time (R§2.9.5, R§2.9.6): KV cache, run-time sparsity, softmax elision."""
from __future__ import annotations

import math

from checker.load.models.model_equivalence import norm_name
from checker.core.rule import Fail, Pass, Skip, rule
from rules.model_equivalence.policy import (NEEDS, benchmark, dataset_names, filled, is_url, lf, listing, path, policy,
                              prepare, present_block)


@rule(id="me-kv-cache-disclosed", title="KV-cache precision and compression disclosed", clause="R§2.9.5",
      severity="flag", scope="point", needs=NEEDS)
def me_kv_cache_disclosed(point, ctx):
    """The KV cache's precision is stated; reduced precision names its method; compression its disclosure.

    What it checks: `kv_cache.precision` is given; a precision other than the reference ones
    (policy: BF16, FP16, FP32, auto) needs `quantization_method`; a `compression` other than `none`
    needs an http(s) `disclosure_url`. R§2.9.5: "Reduced-precision KV (INT8/INT4/FP8) must have its
    precision and quantization method disclosed" and "KV-cache compression methods that are neither
    in the reference implementation nor disclosed" are disallowed. Cross-query reuse is permitted.
    Why: reduced-precision KV changes the numerics reviewers must judge against the accuracy gate.
    How to fix: Add `kv_cache: {precision: FP8, quantization_method: ...}` (and `disclosure_url`
    for a compression method).

    Example:
      Passing:
        model_equivalence:
          kv_cache: {cross_query_reuse: true, precision: FP8, quantization_method: per-head dynamic scaling,
                     compression: none}
      Failing:
        model_equivalence:
          kv_cache: {precision: INT4, compression: none}
      Failing:
        model_equivalence:
          kv_cache: {precision: BF16, compression: token-merging}
    """
    parsed = present_block(point)
    pol = policy(ctx)
    kv = parsed.model.kv_cache
    if kv is None or not filled(kv.precision):
        return Fail("KV-cache precision not disclosed", file=lf(point), path=path(*(("kv_cache",) if kv else ())),
                    observed=None, expected="kv_cache.precision (BF16/FP16 when not reduced)")
    reference = {p.upper() for p in pol.kv_reference_precisions}
    reduced = kv.precision.strip().upper() not in reference
    if reduced and not filled(kv.quantization_method):
        return Fail(f"reduced-precision KV cache ({kv.precision}) without its quantization method", file=lf(point),
                    path=path("kv_cache", "quantization_method"), observed=None,
                    expected="kv_cache.quantization_method")
    comp = kv.compression
    if filled(comp) and norm_name(comp) not in {norm_name(c) for c in pol.kv_reference_compression}:
        if not is_url(kv.disclosure_url):
            return Fail(f"KV-cache compression {comp!r} without a disclosure", file=lf(point),
                        path=path("kv_cache", "disclosure_url"), observed=kv.disclosure_url,
                        expected="an http(s) URL describing the compression method")
    what = f"{kv.precision} ({kv.quantization_method})" if reduced else kv.precision
    return Pass(f"KV cache {what}" + (f", compression {comp}" if filled(comp) and comp != "none" else ""))


_SPARSITY_FIELDS = ("method", "source_url", "threshold_parameter", "value", "calibration", "schedule")


@rule(id="me-sparsity-disclosed", title="Run-time sparsity disclosed", clause="R§2.9.6.6", severity="flag", scope="point", needs=NEEDS)
def me_sparsity_disclosed(point, ctx):
    """Run-time (dynamic approximate) sparsity discloses method, threshold, per-point value, calibration, schedule.

    What it checks: when `runtime_sparsity` is given: `method`, an http(s) `source_url`,
    `threshold_parameter`, this point's `value` (a finite number), `calibration`, and `schedule`
    (`fixed`, or a non-empty mapping giving the distribution when it varies).
    R§2.9.6.4: it "Must be disclosed: method and source, threshold parameter, calibration procedure,
    per-point value, and a schedule or distribution where it varies".
    Why: thresholding is permitted under the accuracy gate only because reviewers can see it.
    How to fix: Complete the `runtime_sparsity` block for this point.

    Example:
      Passing:
        model_equivalence:
          runtime_sparsity:
            method: attention-score thresholding
            source_url: https://arxiv.org/abs/2512.12087
            threshold_parameter: lambda
            value: 0.001
            calibration: data-independent
            schedule: fixed
      Failing:
        model_equivalence:
          runtime_sparsity: {method: attention-score thresholding, threshold_parameter: lambda, schedule: varies}
    """
    parsed = present_block(point)
    sp = parsed.model.runtime_sparsity
    if sp is None:
        return Pass("no run-time sparsity declared")
    missing = []
    for f in _SPARSITY_FIELDS:
        v = getattr(sp, f)
        ok = {"source_url": is_url(v),
              "value": isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
              "schedule": v == "fixed" or (isinstance(v, dict) and bool(v))}.get(f, filled(v))
        if not ok:
            missing.append(f)
    if missing:
        return Fail(f"run-time sparsity disclosure incomplete: {listing(missing)}", file=lf(point),
                    path=path("runtime_sparsity", missing[0]), observed={f: getattr(sp, f) for f in missing},
                    expected="method, source_url, threshold_parameter, value, calibration, schedule "
                             "(`fixed` or a distribution mapping)")
    return Pass(f"run-time sparsity disclosed: {sp.method}, {sp.threshold_parameter}={sp.value}")


@rule(id="me-sparsity-calibration", title="Sparsity not calibrated on benchmark data", clause="R§2.9.6.4",
      severity="reject-points", scope="point", needs=NEEDS + ("policy:models",))
def me_sparsity_calibration(point, ctx):
    """Run-time sparsity is calibrated on the published calibration set or data-independently (Standardized).

    What it checks: `runtime_sparsity.calibration` is `data-independent` or the benchmark's published
    calibration set (policy); naming the performance or accuracy dataset FAILs as input-based
    optimization. SKIP when the value is neither and the policy has no published set for the
    benchmark, and for Serviced/RDI.
    R§2.9.6.4: "Must not be calibrated on the benchmark performance or accuracy dataset — use the
    published calibration set or a data-independent procedure. Calibrating on benchmark inputs is
    input-based optimization and is banned".
    Why: thresholds tuned on the benchmark inputs encode the dataset into the implementation.
    How to fix: Re-derive the threshold data-independently or on the published calibration set.

    Example:
      Passing:
        division: Standardized
        model_equivalence:
          runtime_sparsity: {method: activation thresholding, calibration: data-independent}
      Failing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          runtime_sparsity: {method: activation thresholding, calibration: cnn_dailymail}
    """
    parsed, pol, div, full, _ = prepare(point, ctx, standardized_only="me-sparsity-disclosed")
    sp = parsed.model.runtime_sparsity
    if sp is None:
        return Pass("no run-time sparsity declared")
    if not filled(sp.calibration):
        return Skip("sparsity calibration not disclosed (see me-sparsity-disclosed)", reason="missing-input")
    got = norm_name(sp.calibration)
    where = dict(file=lf(point), path=path("runtime_sparsity", "calibration"), observed=sp.calibration)
    if got in {norm_name(x) for x in pol.data_independent_calibration}:
        return Pass("sparsity calibration is data-independent")
    if got in dataset_names(point, ctx):
        return Fail("run-time sparsity calibrated on the benchmark dataset: input-based optimization",
                    expected="data-independent, or the published calibration set", **where)
    bid = benchmark(point, ctx)
    fixed = pol.benchmarks.get(bid) if bid else None
    if fixed is None or fixed.calibration_set is None:
        return Skip(f"the published calibration set of {bid or 'this benchmark'} is not in the policy data",
                    reason="not-in-policy")
    if got != norm_name(fixed.calibration_set):
        return Fail(f"sparsity calibrated on {sp.calibration!r}: neither data-independent nor the published set",
                    expected=["data-independent", fixed.calibration_set], **where)
    return Pass(f"sparsity calibrated on the published set {fixed.calibration_set}")


def decoding_of(sampling) -> str | None:
    """greedy / stochastic from a point's sampling disclosure, or None when it does not say."""
    if sampling is None:
        return None
    if sampling.decoding in ("greedy", "stochastic"):
        return sampling.decoding
    t, k = sampling.temperature, sampling.top_k
    if (isinstance(t, (int, float)) and t == 0) or k == 1:
        return "greedy"
    if isinstance(t, (int, float)) and t > 0:
        return "stochastic"
    return None


def _returns_logprobs(v) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v > 0
    return False


@rule(id="me-softmax-elision", title="Softmax elision only under greedy decoding", clause="R§2.9.6.5",
      severity="reject-points", scope="point", needs=NEEDS + ("policy:models",))
def me_softmax_elision(point, ctx):
    """Softmax elision is declared only with greedy sampling and no returned logprobs (Standardized).

    What it checks: a point declaring `softmax_elision: true` (or a `softmax-elision` technique)
    FAILs when the benchmark's reference decoding (policy) or the point's own `sampling` is
    stochastic, or when `sampling.logprobs` says the response returns logprobs. SKIP when neither
    the policy nor the point says whether decoding is greedy; Serviced/RDI SKIP.
    R§2.9.6.5 disallows "Softmax elision where the reference sampling configuration is stochastic,
    or where the response returns logprobs or probabilities"; R§2.9.6.2 permits "Vocabulary softmax
    elision under greedy decoding — argmax(softmax(x)) == argmax(x)".
    Why: without greedy decoding the elided softmax changes the emitted tokens.
    How to fix: Compute the softmax exactly at this point, or keep greedy decoding without logprobs.

    Example:
      Passing:
        division: Standardized
        model_equivalence:
          softmax_elision: true
          sampling: {temperature: 0.0, top_k: 1, logprobs: false}
      Failing:
        division: Standardized
        model_equivalence:
          softmax_elision: true
          sampling: {temperature: 0.7, top_p: 0.95}
    """
    parsed, pol, div, full, _ = prepare(point, ctx)
    me = parsed.model
    declared = me.softmax_elision is True or any(
        t.name in ("softmax-elision", "vocabulary-softmax-elision") for t in parsed.techniques)
    if not declared:
        return Pass("no softmax elision declared")
    if not full:
        return Skip(f"{div}: augmentation is allowed with disclosure", reason="not-applicable")
    bid = benchmark(point, ctx)
    fixed = pol.benchmarks.get(bid) if bid else None
    ref = fixed.decoding if fixed is not None else None
    own = decoding_of(me.sampling)
    where = dict(file=lf(point), path=path("softmax_elision") if me.softmax_elision else path("techniques"))
    if ref == "stochastic" or own == "stochastic":
        whose = "the benchmark's reference sampling" if ref == "stochastic" else "this point's sampling"
        return Fail(f"softmax elision declared while {whose} is stochastic", observed=own or ref,
                    expected="greedy decoding", **where)
    if me.sampling is not None and _returns_logprobs(me.sampling.logprobs):
        return Fail("softmax elision declared while the response returns logprobs", observed=me.sampling.logprobs,
                    expected="no logprobs", **where)
    if ref is None and own is None:
        return Skip(f"neither the policy nor the point says whether {bid or 'the benchmark'} decodes greedily",
                    reason="not-in-policy")
    return Pass("softmax elision under greedy decoding without logprobs (permitted)")


__all__ = ["decoding_of", "listing"]
