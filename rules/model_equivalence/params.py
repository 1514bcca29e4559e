"""Model equivalence: the parameters the benchmark fixes (R§2.9.1, R§2.9.7) and the curve-level rules."""
from __future__ import annotations

from typing import Any

from checker.load.models.model_equivalence import parse
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import loaded_mapping
from rules.model_equivalence.policy import NEEDS, benchmark, block, division, lf, listing, path, policy, prepare
from rules.model_equivalence.runtime import decoding_of

_SAMPLING_KEYS = ("temperature", "top_k", "top_p", "repetition_penalty", "max_output_tokens", "stop")


def _same(a: Any, b: Any) -> bool:
    """Equality of disclosed and fixed values: numbers by value (never bools), lists as sets."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))
    return a == b


def fixed_sampling(pol, bid):
    """(the benchmark's policy entry or None, {sampling key: fixed value}) for benchmark ``bid``."""
    fixed = pol.benchmarks.get(bid) if bid else None
    want = {k: v for k, v in (fixed.sampling.model_dump() if fixed and fixed.sampling else {}).items()
            if v is not None}
    return fixed, want


def config_sampling(mp: dict, want: dict, config_keys: dict) -> tuple[list, list]:
    """Client model_params against the fixed values: ([(key, config key, observed, fixed)] that differ,
    [(key, config key)] compared). A value model_params does not state is not compared."""
    differ, seen = [], []
    for k, ck in sorted(config_keys.items()):
        if k in want and isinstance(mp, dict) and ck in mp:
            seen.append((k, ck))
            if not _same(mp[ck], want[k]):
                differ.append((k, ck, mp[ck], want[k]))
    return differ, seen


def _config(point):
    """(LoadedFile, model_params dict) of the point's config.yaml when it loaded, else (None, {})."""
    cf = loaded_mapping(point.files.get("config"))
    if cf is None:
        return None, {}
    mp = cf.data.get("model_params")
    return (cf, mp) if isinstance(mp, dict) else (None, {})


@rule(id="me-fixed-sampling", title="Fixed sampling parameters unchanged", clause="R§2.9.1, R§2.9.7",
      severity="reject-points", scope="point", needs=NEEDS + ("policy:models", "maybe:config"))
def me_fixed_sampling(point, ctx):
    """`sampling` (and config.yaml's model_params where present) equal the benchmark's fixed values.

    What it checks: Standardized: each sampling value the policy fixes for the benchmark
    (temperature, top-k, top-p, repetition penalty, max output tokens, stop sequences, greedy vs
    stochastic) equals what is given: `model_equivalence.sampling` where the block states the key,
    and config.yaml's `model_params` where it holds the key (`max_output_tokens` is
    `max_new_tokens` there). A value that is not disclosed is not a change: it is not compared (the
    PASS lists it), and a point where neither file states any of them gets a warn-level FAIL
    ("not disclosed"). SKIP when the policy has none of the benchmark's values. Serviced/RDI: the
    sampling configuration is disclosed.
    R§2.9.1: "You must not change those. This covers the sampling parameters — temperature, top-k,
    top-p, repetition penalty, greedy-vs-stochastic, max output tokens, stop sequences".
    Why: "Match the benchmark's sampling configuration exactly: greedy means greedy." (R§2.9.7)
    How to fix: Set the fixed values in the client config and the disclosure, and re-run the point.

    Example:
      Passing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          sampling: {temperature: 0.0, top_k: 1, top_p: 1.0, repetition_penalty: 1.0, max_output_tokens: 128}
      Failing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          sampling: {temperature: 0.0, top_k: 1, top_p: 1.0, repetition_penalty: 1.0, max_output_tokens: 96}
    """
    parsed = block(point)
    if parsed.present and parsed.model is None:
        return Skip("the model_equivalence block is not a valid mapping (see me-block-valid)", reason="input-not-valid")
    pol = policy(ctx)
    div, full, note = division(point, pol)
    s = parsed.model.sampling if parsed.model is not None else None
    if not full:
        if not parsed.present:
            return Skip("point.yaml has no model_equivalence block (me-disclosure-present reports it per curve)",
                        reason="missing-input")
        if s is None:
            return Fail(f"{div}: sampling configuration not disclosed", file=lf(point), path=path(),
                        severity=_severity("flag"), observed=None, expected="model_equivalence.sampling")
        return Pass(f"{div}: sampling configuration disclosed")
    bid = benchmark(point, ctx)
    fixed, want = fixed_sampling(pol, bid)
    if not want and (fixed is None or fixed.decoding is None):
        return Skip(f"the fixed sampling values of {bid or 'this benchmark'} are not in the policy data",
                    reason="not-in-policy")
    # compare what is given, where it is given: not disclosed is not changed
    bad: list[tuple] = []  # (file, path, key, observed, expected)
    compared: list[str] = []  # what was compared, as the finding names it
    given: set[str] = set()  # fixed keys stated somewhere
    for k, v in want.items():
        got = getattr(s, k) if s is not None else None
        if got is None:
            continue
        compared.append(k)
        given.add(k)
        if not _same(got, v):
            bad.append((lf(point), path("sampling", k), k, got, v))
    declared = decoding_of(s)
    if fixed is not None and fixed.decoding is not None and declared is not None:
        compared.append("decoding")
        if declared != fixed.decoding:
            bad.append((lf(point), path("sampling"), "decoding", declared, fixed.decoding))
    cf, mp = _config(point)
    differ, seen = config_sampling(mp, want, pol.config_keys)
    for k, ck in seen:
        compared.append(f"config.yaml model_params.{ck}")
        given.add(k)
    for k, ck, got, fixed_value in differ:
        bad.append((cf, ("model_params", ck), f"config.yaml model_params.{ck}", got, fixed_value))
    if bad:
        f0, p0, *_ = bad[0]
        return Fail(f"{div} point changes fixed sampling parameters{note}: "
                    + "; ".join(f"{k} is {o!r}, fixed at {e!r}" for _, _, k, o, e in bad),
                    file=f0, path=p0, observed={k: o for _, _, k, o, _ in bad},
                    expected={k: e for _, _, k, _, e in bad})
    unstated = [k for k in want if k not in given]
    if not compared:
        where = "model_equivalence.sampling" if parsed.present else "a model_equivalence.sampling block"
        return Fail(f"sampling not disclosed: neither {where} nor config.yaml model_params states any of the fixed "
                    f"values of {bid} ({listing(sorted(want))}); nothing to compare", file=lf(point),
                    path=path() if parsed.present else (), severity=_severity("warn"), observed=None,
                    expected={k: want[k] for k in sorted(want)},
                    fix="Disclose the sampling values the point ran with: model_equivalence.sampling in point.yaml "
                        "(and keep config.yaml's model_params).")
    unknown = [k for k in _SAMPLING_KEYS if k not in want]
    tail = f"; not disclosed (not compared): {listing(unstated)}" if unstated else ""
    tail += f" (not in the policy: {listing(unknown)})" if unknown else ""
    return Pass(f"sampling matches the fixed values of {bid} where given: {listing(compared)}{tail}")


def _shown(flags: dict, name: str) -> str:
    return repr(flags[name]) if name in flags else "unset"


def _severity(name: str):
    from checker.core.findings import Severity

    return Severity(name)


@rule(id="me-chat-template-flags", title="Chat-template flags as specified", clause="R§2.9.7", severity="reject-points", scope="point", needs=NEEDS + ("policy:models", "maybe:config"))
def me_chat_template_flags(point, ctx):
    """Chat-template flags (`enable_thinking`, `clear_thinking`, `preserve_thinking`) equal the benchmark's.

    What it checks: Standardized: `model_equivalence.chat_template_flags` and, where present,
    config.yaml's `model_params.chat_template_kwargs` set exactly the flags the policy gives for the
    benchmark (a flag the benchmark does not set must not be set). SKIP when the policy has no
    flags for the benchmark, and for Serviced/RDI.
    R§2.9.7: "the rule names the template's flags explicitly — enable_thinking, clear_thinking,
    preserve_thinking and their equivalents. These have to match the benchmark specification."
    Why: "Flipping a thinking flag changes the effective input to the model, so it is a template
    modification, not a serving-side setting."
    How to fix: Use the benchmark's chat-template flags and re-run the point.

    Example:
      Passing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          chat_template_flags: {}
      Failing:
        division: Standardized
        model_name: llama3_1-8b
        model_equivalence:
          chat_template_flags: {enable_thinking: true}
    """
    parsed, pol, div, full, note = prepare(point, ctx, standardized_only="")
    bid = benchmark(point, ctx)
    fixed = pol.benchmarks.get(bid) if bid else None
    if fixed is None or fixed.chat_template_flags is None:
        return Skip(f"the chat-template flags of {bid or 'this benchmark'} are not in the policy data",
                    reason="not-in-policy")
    want = fixed.chat_template_flags
    own = parsed.model.chat_template_flags or {}
    sources = [(lf(point), path("chat_template_flags"), own, set(want) | set(own))]
    cf, mp = _config(point)
    kwargs = mp.get("chat_template_kwargs")
    if cf is not None and isinstance(kwargs, dict):  # where present: only the keys the config sets
        names = set(kwargs) & (set(want) | set(pol.thinking_flags))
        sources.append((cf, ("model_params", "chat_template_kwargs"), kwargs, names))
    for f, p, flags, names in sources:
        bad = sorted(n for n in names if (n in flags) != (n in want) or (n in flags and not _same(flags[n], want[n])))
        if bad:
            return Fail(f"chat-template flags differ from the benchmark's{note}: "
                        + "; ".join(f"{n} is {_shown(flags, n)}, the benchmark's is {_shown(want, n)}" for n in bad),
                        file=f, path=p + ((bad[0],) if bad[0] in flags else ()),
                        observed={n: flags.get(n) for n in bad}, expected={n: want.get(n) for n in bad})
    return Pass(f"chat-template flags match {bid}: " + (listing(sorted(want)) if want else "none set"))


def _fingerprint(me) -> dict[str, Any]:
    """The values that identify one served model: checksum, quantization, KV precision."""
    out: dict[str, Any] = {}
    if me.checkpoint is not None and me.checkpoint.checksum is not None:
        out["checkpoint.checksum"] = me.checkpoint.checksum.strip().lower()
    q = me.quantization
    if q is not None:
        if q.method is not None:
            out["quantization.method"] = q.method
        if q.formats is not None:
            out["quantization.formats"] = sorted(str(f) for f in q.formats if f is not None)
        if q.calibration_set is not None:
            out["quantization.calibration_set"] = q.calibration_set
    if me.kv_cache is not None and me.kv_cache.precision is not None:
        out["kv_cache.precision"] = me.kv_cache.precision.strip().upper()
    return out


@rule(id="me-checkpoint-consistency", title="Same checkpoint at every point", clause="R§2.9.3, R§9.1",
      severity="flag", scope="curve", needs=("maybe:point_yaml",))
def me_checkpoint_consistency(curve, ctx):
    """Every point of the curve serves the same checkpoint, quantization and KV-cache precision.

    What it checks: across the points with a model_equivalence block, `checkpoint.checksum`,
    `quantization.method`, `.formats`, `.calibration_set` and `kv_cache.precision` take one value
    each (values a point does not state are not compared). Runs in every division: R§9.1
    "Configuration consistency — Same model, endpoint config, software stack, seed set across
    points" (failure action: Flag).
    Why: a different checkpoint across points is a different system, not one Pareto curve.
    How to fix: Re-run the odd points with the curve's checkpoint, or submit them as another system.

    Example:
      Passing:
        model_equivalence:
          checkpoint: {source: derived, checksum: "sha256:5c1f0d3a9e7b2c4d6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"}
          quantization: {calibration_set: cnn_dailymail-calibration}
          kv_cache: {precision: FP8}
      Failing:
        model_equivalence:
          checkpoint: {source: derived, checksum: "sha256:ffff0d3a9e7b2c4d6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4"}
          kv_cache: {precision: BF16}
    """
    prints = []
    for p in curve.points:
        parsed = parse(p) if p.yaml is not None else None
        if parsed is not None and parsed.model is not None:
            prints.append((p, _fingerprint(parsed.model)))
    if len(prints) < 2:
        return Skip("fewer than two points carry a model_equivalence block", reason="missing-input")
    for key in ("checkpoint.checksum", "quantization.method", "quantization.formats", "quantization.calibration_set",
                "kv_cache.precision"):
        seen: dict[str, list] = {}
        for p, fp in prints:
            if key in fp:
                seen.setdefault(repr(fp[key]), []).append(p)
        if len(seen) > 1:
            groups = sorted(seen.values(), key=lambda ps: (-len(ps), ps[0].name))
            odd = groups[1][0]
            values = {pt.name: _fingerprint(parse(pt).model)[key] for ps in groups for pt in ps}
            return Fail(f"`{key}` differs across the curve: " + "; ".join(
                f"{listing(pt.name for pt in ps)}: {values[ps[0].name]}" for ps in groups),
                file=odd.files["point_yaml"], path=("model_equivalence", *key.split(".")),
                observed=values, expected=f"one value at every point (most points: {values[groups[0][0].name]})")
    return Pass(f"{len(prints)} points declare one checkpoint, quantization and KV precision")


_ASK = ("checkpoint (source, sha256 checksum, components retained)",
        "quantization (method, formats, calibration set, public description) if the weights were transformed",
        "kv_cache (precision, quantization method, compression)",
        "runtime_sparsity (method, source, threshold, per-point value, calibration, schedule) if used",
        "techniques, sampling and chat_template_flags")


@rule(id="me-disclosure-present", title="Model-equivalence disclosures present", clause="R§2.9.3, R§8.3",
      severity="warn", scope="curve", needs=("maybe:point_yaml",), consequence_of=("unknown-key",))
def me_disclosure_present(curve, ctx):
    """Every point of the curve carries a `model_equivalence` block (advice; one finding per curve).

    What it checks: the points whose point.yaml loaded but has no `model_equivalence` block. The
    rules require the disclosures "in the submission YAML" (R§2.9.3: PTQ "is disclosed in the
    submission YAML"; R§2.9.5, R§2.9.6.6) but publish no field names, so a missing block is a
    warning naming the disclosures reviewers will ask for, never a FAIL of higher severity.
    Why: without the block none of the other model-equivalence rules can run on the point.
    How to fix: Add the block (schemas/point.schema.json documents it) to every point.yaml.

    Example:
      Passing:
        model_equivalence:
          checkpoint: {source: canonical}
      Failing:
        model_notes: FP8 weights, FP8 KV cache
    """
    loaded = [p for p in curve.points if p.yaml is not None]
    if not loaded:
        return Skip("no point.yaml of this curve loaded", reason="missing-input")
    missing = [p for p in loaded if not parse(p).present]
    if missing:
        return Fail(f"{len(missing)} of {len(loaded)} points have no model_equivalence block "
                    f"({', '.join(p.name for p in missing)}); reviewers will ask for: " + "; ".join(_ASK),
                    file=missing[0].files["point_yaml"], path=(), observed=[p.name for p in missing],
                    parts=tuple(p.name for p in missing),
                    expected="a model_equivalence block at every point")
    return Pass(f"all {len(loaded)} points carry a model_equivalence block")
