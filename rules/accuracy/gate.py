"""The accuracy gate: thresholds, sample counts and the agentic targets (RULES.md §5, R§4.3, R§9.1).

No tolerance anywhere (S§6.6). Thresholds come from ``accuracy.yaml``: a bound the rule states as a
share of the reference (99 %) is the exact product, and scores are compared exactly as written
(decimal/fraction arithmetic, fractions scaled x100 exactly), so no float artefact decides.
"""
from __future__ import annotations

from fractions import Fraction

from rules.accuracy.view import point_accuracy
from checker.domain.point_metrics import point_metric
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from rules.accuracy.results import coverage
from checker.domain.benchmark import curve_model, is_agentic
from checker.core.models import extras_of
from checker.core.values import show_number
from rules.accuracy.policy import bad_number, entry_scale, exact


def _targets(point, ctx):
    """(model id, ModelTargets) for a single-turn point with thresholds; else ``Skipped`` naming why."""
    curve = point.curve
    mid = curve_model(curve, ctx.policy.get("models"))
    if mid is None:
        raise Skipped("benchmark model unknown (see model-name-valid)", reason="missing-input")
    if is_agentic(curve, ctx.policy.get("models")):
        raise Skipped(f"{mid} is agentic: see agentic-accuracy-inline/-swebench", reason="not-applicable")
    t = ctx.policy.get("accuracy").models.get(mid)
    if t is None:
        raise Skipped(f"No accuracy thresholds defined for {mid}", reason="no-thresholds")
    return mid, t


def _scale_of(entry, keys, accepted, tscale) -> int:
    vals = [entry.metrics[k] for k in keys if k in entry.metrics]
    return entry_scale(vals, accepted, tscale)


def gated_entries(acc, targets) -> list:
    """The accuracy runs that carry a gated metric (all runs when none does: the gate reports that)."""
    single = len(targets.metrics) == 1
    hit = [e for e in acc.runs if any(m in e.metrics for m in targets.metrics) or (single and e.scalar)]
    return hit or acc.runs


def gate_values(acc, targets, tscale: int) -> dict:
    """metric -> dict(value, problem, path, parts) over the point's accuracy-run entries.

    A metric carried by several entries (GPT-OSS sub-datasets) is their sample-weighted mean. An
    unnamed scalar score stands for the metric only when the model has exactly one.
    """
    on_scale = [k for k, t in targets.metrics.items() if t.on_score_scale]
    single = len(targets.metrics) == 1
    out = {}
    for m, t in targets.metrics.items():
        parts, problem, path = [], None, None
        for e in acc.runs:
            key = m if m in e.metrics else ("score" if single and e.scalar else None)
            if key is None:
                continue
            v = e.metrics[key]
            path = path or e.metric_paths[key]
            why = bad_number(v)
            if why is not None:
                problem, path = f"{m} of {e.name!r} is {why}", e.metric_paths[key]
                break
            k = _scale_of(e, on_scale + (["score"] if e.scalar else []), targets.score_scales, tscale) \
                if t.on_score_scale else 1
            parts.append((exact(v) * k, e.sample_count, e.name, k, key))
        if problem is None and not parts:
            found = sorted({k for e in acc.runs for k in e.metrics})
            names = ", ".join(e.name for e in acc.runs)
            problem = f"metric {m} is missing from {names} (metrics present: {', '.join(found) or 'none'})"
        value = None
        if problem is None:  # exact (Fraction) arithmetic: no float artefact decides the gate
            w = [p[1] for p in parts]
            if len(parts) > 1 and all(isinstance(x, int) and x > 0 for x in w):
                value = sum((p[0] * p[1] for p in parts), Fraction(0)) / sum(w)
            else:
                value = sum((p[0] for p in parts), Fraction(0)) / len(parts)
        out[m] = {"value": value, "problem": problem, "path": path, "parts": parts}
    return out


@rule(id="accuracy-gate", title="Accuracy gate", clause="R§9.1, R§5", severity="reject",
      scope="point", needs=("policy:models", "policy:accuracy", "maybe:accuracy", "maybe:accuracy_legacy"), official=True)
def accuracy_gate(point, ctx):
    """Every gated accuracy metric of the model meets its threshold at this point, with no tolerance.

    What it checks: for single-turn models (accuracy.yaml `models`), each gated metric (Llama:
    ROUGE-1/2/L/Lsum and generated length +-10 %; GPT-OSS and DeepSeek-R1: exact match) is present
    in the point's accuracy entries, is a finite number, and meets its threshold (`>=`, or within
    the range), compared exactly: a target stated as a share of the reference is the exact product
    (ROUGE-Lsum 0.99 x 35.793 = 35.43507, shown rounded as 35.44). Scores written as fractions are scaled x100 (the finding says
    so). A metric carried by several datasets is their sample-weighted mean. A missing or renamed
    metric, NaN or infinity FAIL. Models without thresholds SKIP with "No accuracy thresholds
    defined"; agentic models are judged by the agentic-accuracy-* rules.
    Why: accuracy is a hard gate with no variability allowance (S§6.6, R§2.9.8); the rule is "each
    score >= 99 % of reference" (RULES.md §5), so the rounded-up table value would reject
    compliant scores. Targets: rules/policy/v1.0/accuracy.yaml.
    How to fix: Fix the serving configuration until the accuracy run meets the target; copy the
    scorer's file unchanged (metric names as the scorer writes them).
    """
    lf, acc = point_accuracy(point)
    if lf is None or acc is None or not acc.runs:
        return Skip("no accuracy run at this point", reason="not-applicable")
    mid, targets = _targets(point, ctx)
    tscale = ctx.policy.get("accuracy").threshold_scale
    vals = gate_values(acc, targets, tscale)
    bad, shown = [], []
    first_path = None
    for m, t in targets.metrics.items():
        r = vals[m]
        ds = ", ".join(sorted({p[2] for p in r["parts"]})) or "-"
        note = " (fraction x100)" if any(p[3] == 100 for p in r["parts"]) else ""
        note += " (unnamed scalar score)" if any(p[4] == "score" for p in r["parts"]) else ""
        if r["problem"] is not None:
            bad.append(r["problem"] + f", threshold {t.describe()}")
        elif not t.meets(r["value"]):
            bad.append(f"{m} = {show_number(float(r['value']))}{note} on {ds}, threshold {t.describe()}")
        else:
            shown.append(f"{m} {show_number(float(r['value']))}{note} {t.describe()}")
            continue
        first_path = first_path or r["path"]
    observed = {m: (None if vals[m]["value"] is None else round(float(vals[m]["value"]), 6)) for m in targets.metrics}
    expected = {m: t.describe() for m, t in targets.metrics.items()}
    if bad:
        return Fail(f"{mid}: " + "; ".join(bad), file=lf, path=first_path or ("accuracy_scores",),
                    observed=observed, expected=expected)
    return Pass(f"{mid}: " + ", ".join(shown))


@rule(id="accuracy-sample-count", title="Accuracy sample count", clause="R§6.6, R§5", severity="reject", scope="point", needs=("policy:models", "policy:accuracy", "maybe:accuracy", "maybe:accuracy_legacy"), official=True)
def accuracy_sample_count(point, ctx):
    """The accuracy run scored at least the model's accuracy dataset size, repeats included.

    What it checks: the sum over the accuracy entries that carry a gated metric of `unit_samples`
    x `num_repeats` (else `total_samples`) is at least accuracy.yaml's `min_samples` (Llama 13,368; GPT-OSS 4,395;
    DeepSeek-R1 4,388). An entry that states no count is a FAIL (the official checker skips).
    Why: accuracy is measured on the whole accuracy set, each sample once (R§5); a subset can
    pass a gate the full set would fail.
    How to fix: Run the accuracy phase on the full dataset with the required repeats.
    """
    lf, acc = point_accuracy(point)
    if lf is None or acc is None or not acc.runs:
        return Skip("no accuracy run at this point", reason="not-applicable")
    mid, targets = _targets(point, ctx)
    runs = gated_entries(acc, targets)
    unstated = [e for e in runs if e.sample_count is None]
    if unstated:
        e = unstated[0]
        return Fail(f"accuracy entry {e.name!r} states no sample count (unit_samples x num_repeats or total_samples)",
                    file=lf, path=e.path, observed=None, expected=f">= {targets.min_samples} samples")
    total = sum(e.sample_count for e in runs)
    parts = ", ".join(f"{e.name} {e.sample_count}" for e in runs)
    if total < targets.min_samples:
        return Fail(f"{mid}: {total} accuracy samples ({parts}) < {targets.min_samples}", file=lf,
                    path=runs[0].path, observed=total, expected=f">= {targets.min_samples}")
    return Pass(f"{mid}: {total} accuracy samples ({parts}) >= {targets.min_samples}")


def _agentic_targets(curve, ctx):
    mid = curve_model(curve, ctx.policy.get("models"))
    return mid, (ctx.policy.get("accuracy").agentic.get(mid) if mid else None)


@rule(id="agentic-accuracy", title="Agentic accuracy targets defined", clause="R§3.2, R§4.3", severity="warn", scope="curve", needs=("policy:models", "policy:accuracy"), official=True)
def agentic_accuracy(curve, ctx):
    """An agentic curve's model has published accuracy targets.

    What it checks: the agentic benchmark model has inline, SWE-bench and OSL targets in
    accuracy.yaml `agentic`. Single-turn curves SKIP.
    Why: without targets the agentic gates cannot run; a clean report must not be read as
    "agentic accuracy passed" (checkers before v1.1.0.0 said nothing at all).
    How to fix: Use a rules/policy edition that defines targets for this model, or ask the WG.
    """
    if not is_agentic(curve, ctx.policy.get("models")):
        return Skip("single-turn benchmark", reason="not-applicable")
    mid, t = _agentic_targets(curve, ctx)
    if t is None:
        return Fail(f"No accuracy thresholds defined for agentic model {mid or curve.name}", file=curve.rel,
                    observed=mid or curve.name, expected="a model with agentic targets")
    return Pass(f"{mid}: inline {t.inline.describe()}, SWE-bench mean {t.swebench.describe()}, "
                f"OSL/turn {t.osl_per_turn.describe()}")


def _score_of(entry, accepted, tscale):
    """(value on the threshold scale, problem, path) of a single-score entry (scalar or one-key dict)."""
    keys = list(entry.metrics)
    key = "score" if "score" in keys else (keys[0] if len(keys) == 1 else None)
    if key is None:
        return None, f"entry {entry.name!r} has {len(keys)} metrics and no single score", entry.path
    v, path = entry.metrics[key], entry.metric_paths[key]
    why = bad_number(v)
    if why is not None:
        return None, f"score of {entry.name!r} is {why}", path
    return exact(v) * entry_scale([v], accepted, tscale), None, path


@rule(id="agentic-accuracy-inline", title="Agentic inline accuracy", clause="R§4.3, R§9.1", severity="reject", scope="point",
      needs=("policy:models", "policy:accuracy", "maybe-loaded:accuracy", "maybe-loaded:accuracy_legacy"), official=True)
def agentic_accuracy_inline(point, ctx):
    """Agentic: the point's inline accuracy (`dataset_type: performance` entry) meets the model's minimum.

    What it checks: every point of an agentic curve has accuracy_results.json with an inline
    entry whose score (fraction or percent) is finite and >= the inline minimum (Kimi K3 58.32,
    Qwen3.6 55.86, DeepSeek-V4.1-Flash 52.36). A missing entry is a FAIL.
    Why: R§4.3 applies inline accuracy at every submitted agentic point.
    How to fix: Enable inline accuracy in the client config and copy the run's accuracy file.
    """
    curve = point.curve
    if not is_agentic(curve, ctx.policy.get("models")):
        return Skip("single-turn benchmark", reason="not-applicable")
    mid, t = _agentic_targets(curve, ctx)
    if t is None:
        return Skip(f"No accuracy thresholds defined for {mid or curve.name}", reason="no-thresholds")
    lf, acc = point_accuracy(point)
    if lf is None:
        return Fail("no accuracy_results.json: the inline accuracy is missing", file=point.rel,
                    observed=None, expected=t.inline.describe())
    e = acc.inline
    if e is None:
        return Fail("no inline entry (dataset_type: performance) in the accuracy file", file=lf,
                    path=("accuracy_scores",), observed=[x.name for x in acc.entries], expected="an inline entry")
    tscale = ctx.policy.get("accuracy").threshold_scale
    v, problem, path = _score_of(e, t.score_scales, tscale)
    if problem is not None:
        return Fail(problem, file=lf, path=path, observed=None, expected=t.inline.describe())
    if not t.inline.meets(v):
        return Fail(f"{mid}: inline accuracy {show_number(float(v))} on {e.name!r}, threshold {t.inline.describe()}", file=lf,
                    path=path, observed=round(float(v), 6), expected=t.inline.describe())
    return Pass(f"{mid}: inline accuracy {show_number(float(v))} {t.inline.describe()}")


@rule(id="agentic-accuracy-swebench", title="Agentic SWE-bench accuracy", clause="R§4.3, R§9.1", severity="reject", scope="curve",
      needs=("policy:models", "policy:accuracy", "maybe:point_yaml", "maybe-loaded:accuracy", "maybe-loaded:accuracy_legacy",
             "maybe:system_desc"), official=True)
def agentic_accuracy_swebench(curve, ctx):
    """Agentic: the mean of the four mandatory-region SWE-bench results meets the model's minimum.

    What it checks: the accuracy runs matched to ultra_low, low_concurrency, med_concurrency and high_concurrency (as in
    accuracy-coverage) each carry a SWE-bench Verified score (dataset names in accuracy.yaml
    `swebench_datasets`, else the run's only entry); all four are finite; their arithmetic mean is
    >= the minimum (Kimi K3 93.5, Qwen3.6 69.0, DeepSeek-V4.1-Flash 96.4). Individual results need
    not pass (multi-turn mean-of-N, R§5).
    Why: R§4.3 judges agentic SWE-bench on the mean of the four results.
    How to fix: Run the SWE-bench accuracy at one point per mandatory region and copy each file.
    """
    if not is_agentic(curve, ctx.policy.get("models")):
        return Skip("single-turn benchmark", reason="not-applicable")
    mid, t = _agentic_targets(curve, ctx)
    if t is None:
        return Skip(f"No accuracy thresholds defined for {mid or curve.name}", reason="no-thresholds")
    pol = ctx.policy.get("accuracy")
    _regions, why, covered, missing, _extra = coverage(curve, True)
    if missing:
        return Skip("cannot take the mean of four: no accuracy run for " + ", ".join(missing)
                    + " (see accuracy-coverage)", reason="missing-input")
    by_name = {p.name: p for p in curve.points}
    values, shown = [], []
    for band in ("ultra_low", "low_concurrency", "med_concurrency", "high_concurrency"):
        p = by_name[covered[band][0]]
        lf, acc = point_accuracy(p)
        swe = [e for e in acc.runs if pol.is_swebench(e.name)] or (acc.runs if len(acc.runs) == 1 else [])
        if not swe:
            return Fail(f"{p.name}: no SWE-bench entry among {[e.name for e in acc.runs]}", file=lf,
                        path=("accuracy_scores",), observed=[e.name for e in acc.runs], expected=pol.swebench_datasets)
        v, problem, path = _score_of(swe[0], t.score_scales, pol.threshold_scale)
        if problem is not None:
            return Fail(f"{p.name}: {problem}", file=lf, path=path, observed=None, expected=t.swebench.describe())
        values.append(v)
        shown.append(f"{p.name} {show_number(float(v))}")
    mean = sum(values, Fraction(0)) / len(values)
    msg = f"{mid}: SWE-bench mean {show_number(float(mean))} of {', '.join(shown)}, threshold {t.swebench.describe()}"
    if not t.swebench.meets(mean):
        return Fail(msg, file=curve.rel, observed=round(float(mean), 6), expected=t.swebench.describe())
    return Pass(msg)


def osl_per_turn(summary):
    """(mean output tokens per turn, source key path) from result_summary.json, or (None, None)."""
    data = extras_of(summary)
    full = data.get("output_sequence_lengths_full_run")
    if isinstance(full, dict) and isinstance(full.get("output_sequence_lengths"), dict):
        return full["output_sequence_lengths"].get("avg"), ("output_sequence_lengths_full_run",
                                                             "output_sequence_lengths", "avg")
    osl = summary.output_sequence_lengths
    if osl is not None and osl.avg is not None:
        return osl.avg, ("output_sequence_lengths", "avg")
    return None, None


@rule(id="agentic-osl-range", title="Agentic output length per turn", clause="R§4.3, R§9.1", severity="reject", scope="point", needs=("policy:models", "policy:accuracy", "result_summary"), official=True)
def agentic_osl_range(point, ctx):
    """Agentic: the full-run mean output length per turn lies in the model's range.

    What it checks: `output_sequence_lengths_full_run.output_sequence_lengths.avg` of
    result_summary.json (else `output_sequence_lengths.avg`: in an agentic run each request is a
    turn) is finite and within accuracy.yaml's `osl_per_turn` range (Kimi K3 425..520, Qwen3.6
    344..422, DeepSeek-V4.1-Flash 793..970). Missing is a FAIL.
    Why: R§4.3 bounds per-turn output length at every point, so a server cannot truncate or pad.
    How to fix: Serve with the reference sampling settings and output limits.
    """
    curve = point.curve
    if not is_agentic(curve, ctx.policy.get("models")):
        return Skip("single-turn benchmark", reason="not-applicable")
    mid, t = _agentic_targets(curve, ctx)
    if t is None:
        return Skip(f"No accuracy thresholds defined for {mid or curve.name}", reason="no-thresholds")
    lf = point.files["result_summary"]
    v, path = osl_per_turn(point.summary)
    rng = t.osl_per_turn.describe()
    if v is None:
        return Fail("result_summary.json states no mean output length per turn", file=lf,
                    path=("output_sequence_lengths",), observed=None, expected=rng)
    why = bad_number(v)
    if why is not None:
        return Fail(f"mean output length per turn is {why}", file=lf, path=path, observed=v, expected=rng)
    if not t.osl_per_turn.meets(v):
        return Fail(f"{mid}: mean output length per turn {show_number(v)} tokens, not {rng}", file=lf, path=path,
                    observed=v, expected=rng)
    return Pass(f"{mid}: mean output length per turn {show_number(v)} tokens, {rng}")


@point_metric("accuracy", "Accuracy (first gated metric)")
def _accuracy_metric(point, ctx):
    lf, acc = point_accuracy(point)
    if acc is None or not acc.runs:
        return None
    try:
        _mid, targets = _targets(point, ctx)
    except Skipped:
        return None
    vals = gate_values(acc, targets, ctx.policy.get("accuracy").threshold_scale)
    first = next(iter(targets.metrics))
    v = vals[first]["value"]
    return float(v) if v is not None else None


@point_metric("accuracy_inline", "Inline accuracy (agentic)", "%")
def _inline_metric(point, ctx):
    if not is_agentic(point.curve, ctx.policy.get("models")):
        return None
    _lf, acc = point_accuracy(point)
    mid, t = _agentic_targets(point.curve, ctx)
    if acc is None or acc.inline is None or t is None:
        return None
    v, problem, _ = _score_of(acc.inline, t.score_scales, ctx.policy.get("accuracy").threshold_scale)
    return float(v) if problem is None else None
