"""Pre-flight, part 2: what a planned config fixes besides the load (R§2.1.1, R§6.5, R§2.9.1, R§6.3.3).

Seeds, streaming and the fixed sampling values use the kernels the run-folder and model-equivalence
rules use on finished runs; each finding sits at the config's line.
"""
from __future__ import annotations

from checker.core.rule import Fail, Pass, Skip, rule
from rules.model_equivalence.params import config_sampling, fixed_sampling
from rules.preflight.context import lf, no_configs, pattern
from rules.run_folder.context import seed_set
from rules.shared.run_checks import seeds_outcome, streaming_value

#: client defaults for model_params keys the config may leave out (RUN-FOLDER.md §2)
_CLIENT_DEFAULTS = {"max_new_tokens": 1024}


@rule(id="preflight-seeds", title="Planned seeds are the bound set's", clause="R§2.1.1", severity="reject",
      scope="plan", needs=("policy:run_folder", "policy:cohort_rules", "policy:seed_sets"))
def preflight_seeds(plan, ctx):
    """Each config's RNG seeds equal the bound seed set's (--seed-set ID), as run-folder-seeds checks after the run.

    What it checks: settings.runtime.scheduler_random_seed and dataloader_random_seed equal the bound
    set's scheduler_rng_seed and sample_index_rng_seed (seed-set registry, or --seed-sets).
    Why: R§2.1.1 / R§9.1: every point runs with the published seeds of its one bound set; a wrong
    seed found after the run costs the run.
    How to fix: Copy the bound set's seeds into settings.runtime.
    """
    outs = []
    for rf in plan.configs:
        set_id, where = seed_set(rf, ctx)
        if set_id is None:
            o = Skip(where, reason="missing-context")
        else:
            o = seeds_outcome(lf(rf), set_id, where, ctx)
        o.subject = rf.subject
        outs.append(o)
    return outs or no_configs()


@rule(id="preflight-streaming", title="Planned streaming on", clause="R§6.5", severity="flag", scope="plan")
def preflight_streaming(plan, ctx):
    """A fixed-concurrency config streams its responses: model_params.streaming resolves to on.

    What it checks: model_params.streaming is `on`, or `auto` in an online config (the client turns
    it on), as run-folder-streaming requires of the run; the dedicated Offline run is exempt.
    Why: R§6.5 (rules d2d9da6): fixed-concurrency performance runs use streaming responses; TTFT and
    TPOT are only measurable on streamed responses.
    How to fix: Set model_params.streaming: on.
    """
    outs = []
    for rf in plan.configs:
        verdict, _k, _t = pattern(rf)
        c = lf(rf)
        if verdict == "offline":
            outs.append(Skip("dedicated Offline run: exempt from streaming", reason="not-applicable", subject=rf.subject))
            continue
        value, note = streaming_value(c.data)
        if value != "on":
            outs.append(Fail(f"model_params.streaming is {c.get('model_params', 'streaming')!r}{note}", file=c,
                             path=("model_params", "streaming"), subject=rf.subject, observed=value, expected="on"))
        else:
            outs.append(Pass(f"streaming on{note}", subject=rf.subject))
    return outs or no_configs()


def _benchmark(rf, ctx):
    """Canonical model id from model_params.name (the model id or its Hugging Face id), or None."""
    models = ctx.policy.get("models")
    name = lf(rf).get("model_params", "name")
    if not isinstance(name, str):
        return None
    return models.canonical(name) or next((k for k, m in models.models.items() if name and m.hf_id == name), None)


@rule(id="preflight-sampling", title="Planned sampling is the benchmark's", clause="R§2.9.1, R§2.9.7",
      severity="reject-points", scope="plan", needs=("policy:model_equivalence", "policy:models"))
def preflight_sampling(plan, ctx):
    """model_params sets the benchmark's fixed sampling values (temperature, top-k/p, repetition penalty, max tokens).

    What it checks: each value the policy fixes for the benchmark (named by model_params.name)
    against model_params, as me-fixed-sampling compares config.yaml after the run; a fixed value the
    config leaves out is compared with the client's default where the client has one (max_new_tokens
    1024), else not compared (listed in the PASS). The Standardized rules are assumed (a config
    names no division).
    Why: R§2.9.1: the sampling parameters are fixed by the benchmark and must not be changed.
    How to fix: Set the benchmark's values in model_params.
    """
    pol = ctx.policy.get("model_equivalence")
    outs = []
    for rf in plan.configs:
        c = lf(rf)
        bid = _benchmark(rf, ctx)
        fixed, want = fixed_sampling(pol, bid)
        if not want:
            outs.append(Skip(f"no fixed sampling values for {bid or repr(c.get('model_params', 'name'))} in the policy "
                             "data", reason="not-in-policy", subject=rf.subject))
            continue
        mp = c.get("model_params")
        mp = dict(mp) if isinstance(mp, dict) else {}
        defaults = {ck: v for ck, v in _CLIENT_DEFAULTS.items() if ck not in mp}
        differ, seen = config_sampling({**defaults, **mp}, want, pol.config_keys)
        if differ:
            k, ck, got, fix_v = differ[0]
            shown = "; ".join(f"model_params.{b} is {o!r}{' (the client default)' if b in defaults else ''}, fixed at "
                              f"{e!r}" for _a, b, o, e in differ)
            outs.append(Fail(f"{bid}: {shown}", file=c, path=("model_params", ck) if ck in mp else ("model_params",),
                             subject=rf.subject, observed={b: o for _a, b, o, _e in differ},
                             expected={b: e for _a, b, _o, e in differ}))
            continue
        unstated = sorted(k for k in want if k not in {a for a, _b in seen})
        tail = f"; not set (not compared): {', '.join(unstated)}" if unstated else ""
        outs.append(Pass(f"{bid}: model_params matches the fixed values where set "
                         f"({', '.join(b for _a, b in seen) or 'none'}){tail}", subject=rf.subject))
    return outs or no_configs()


@rule(id="preflight-warmup-salt", title="Planned warmup salted", clause="R§6.3.3", severity="flag", scope="plan")
def preflight_warmup_salt(plan, ctx):
    """A config with warmup enabled salts it: the client's warmup draws from the performance dataset.

    What it checks: settings.warmup.enabled true needs settings.warmup.salt true (the client prefixes
    each warmup prompt with a random salt); no warmup passes. run-folder-events-warmup checks the
    same from the log after the run.
    Why: R§6.3.3: warmup must not use performance-dataset samples unless salting is on.
    How to fix: Set settings.warmup.salt: true (or disable the warmup).
    """
    outs = []
    for rf in plan.configs:
        c = lf(rf)
        w = c.get("settings", "warmup")
        w = w if isinstance(w, dict) else {}
        if w.get("enabled") is not True:
            outs.append(Pass("no warmup (settings.warmup.enabled is not true)", subject=rf.subject))
        elif w.get("salt") is not True:
            outs.append(Fail(f"warmup enabled with salt {w.get('salt')!r}: the warmup would send unsalted "
                             "performance-dataset prompts", file=c, path=("settings", "warmup", "salt") if "salt" in w
                             else ("settings", "warmup"), subject=rf.subject, observed=w.get("salt"), expected=True))
        else:
            outs.append(Pass("warmup salted", subject=rf.subject))
    return outs or no_configs()
