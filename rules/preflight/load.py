"""Pre-flight, part 1: the load a planned config asks for (R§6.1, R§6.2, R§6.4, R§5.5).

Each rule reports once per config (the subject is the config file), at the config's lines, with
the run-folder family's decisions (``rules.shared.run_checks``, ``rules.run_folder.context``).
"""
from __future__ import annotations

import re

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from rules.preflight.context import lf, no_configs, pattern, region_label, regions
from rules.run_folder.context import dataset_size, is_int, region_minimum
from rules.shared.run_checks import invalid_pattern, passes_problem, planned_samples

_LP = ("settings", "load_pattern")
_WARN = Severity.WARN


def _type_ok(rf, offline: bool) -> tuple[bool, str]:
    """The client pairs the benchmark type with the pattern: offline needs max_throughput, online the others."""
    data = lf(rf).data
    t = data.get("type")
    mode = data.get("benchmark_mode") if t == "submission" else t
    want = "offline" if offline else "online"
    return (mode in (want, None)), f"type {t!r}" + (f" (benchmark_mode {mode!r})" if t == "submission" else "")


@rule(id="preflight-load-pattern", title="Planned load pattern", clause="R§6.1", severity="reject-points",
      scope="plan")
def preflight_load_pattern(plan, ctx):
    """Each planned config runs fixed concurrency at a positive target (max_throughput: the dedicated Offline run).

    What it checks: settings.load_pattern.type is `concurrency` (`agentic_inference` for an agentic
    benchmark) with a positive integer target_concurrency, or `max_throughput` for the dedicated
    Offline run; `poisson` and the rest never make a Pareto point (the same decision as
    run-folder-load-pattern). The config's `type` must go with it (online / offline), as the client
    requires.
    Why: R§6.1: every point runs the fixed-concurrency pattern except the Offline point.
    How to fix: Set `settings.load_pattern: {type: concurrency, target_concurrency: N}`.
    """
    outs = []
    for rf in plan.configs:
        verdict, kind, t = pattern(rf)
        c = lf(rf)
        if verdict == "missing":
            outs.append(Fail("settings.load_pattern.type is not set", file=c, path=_LP, subject=rf.subject,
                             observed=None, expected="concurrency"))
        elif verdict == "invalid":
            o = invalid_pattern(kind, c, _LP + ("type",))
            o.subject = rf.subject
            outs.append(o)
        elif verdict == "fixed" and (not is_int(t) or t <= 0):
            outs.append(Fail(f"{kind} without a positive integer target_concurrency ({t!r})", file=c,
                             path=_LP + ("target_concurrency",), subject=rf.subject, observed=t,
                             expected="a positive integer"))
        else:
            ok, shown = _type_ok(rf, verdict == "offline")
            what = f"{kind} at {t}" if verdict == "fixed" else "max_throughput: the dedicated Offline run"
            if not ok:
                outs.append(Fail(f"{what}, but the config's {shown} does not go with it: the client refuses it",
                                 file=c, path=("type",), subject=rf.subject, observed=c.data.get("type"),
                                 expected="offline" if verdict == "offline" else "online"))
            else:
                outs.append(Pass(what, subject=rf.subject))
    return outs or no_configs()


@rule(id="preflight-concurrency", title="Planned concurrency is a legal point", clause="R§5.5, R§9.1",
      severity="flag", scope="plan", needs=("policy:models",))
def preflight_concurrency(plan, ctx):
    """Each planned target concurrency lies in a region of the declared C_max, and the Offline run reaches C_max.

    What it checks: with --max-concurrency (C_max) and C_min derived from the set (its lowest
    concurrency, as R§5.4 derives it from the curve), each target lies in [1, ceil(1.1 x C_max)];
    the finding names its region (the margin never counts for High). A dedicated Offline run's
    concurrency is the performance dataset's size, which must be at least C_max (else elect the
    C_max point instead).
    Why: R§9.1 flags out-of-range points; a point planned outside every region is a wasted run.
    How to fix: Plan the point inside the regions of your C_max (`endpoints-checker regions -M C_max`).
    """
    if not plan.configs:
        return no_configs()
    reg, cmax, note = regions(plan, ctx)
    if reg is None:
        return Skip(note, reason="missing-context")
    outs = []
    for rf in plan.configs:
        verdict, _kind, t = pattern(rf)
        c = lf(rf)
        if verdict == "offline":
            size, where = dataset_size(rf, ctx)
            if size is None:
                outs.append(Skip(f"Offline run: {where}", reason="missing-context", subject=rf.subject))
            elif size < cmax:
                outs.append(Fail(f"the dedicated Offline run's concurrency is the dataset size {size} ({where}), below "
                                 f"C_max {cmax}: a dedicated run must reach C_max (R§5.7.2)", file=c, path=_LP + ("type",),
                                 subject=rf.subject, observed=size, expected=f">= {cmax}",
                                 fix="Elect the C_max point as the Offline point (point.yaml offline: elected) "
                                     "instead of a dedicated run."))
            else:
                outs.append(Pass(f"dedicated Offline run at the dataset size {size} >= C_max {cmax}", subject=rf.subject))
        elif verdict != "fixed" or not is_int(t) or t <= 0:
            outs.append(Skip("not a fixed-concurrency config (see preflight-load-pattern)", reason="not-applicable",
                             subject=rf.subject))
        elif reg.region_of(t) is None:
            outs.append(Fail(f"target_concurrency {t} is above the margin end {reg.margin_end} ({note}): out of range",
                             file=c, path=_LP + ("target_concurrency",), subject=rf.subject, observed=t,
                             expected=f"1..{reg.margin_end}"))
        else:
            outs.append(Pass(f"concurrency {t} lands in {region_label(reg, t)} ({note})", subject=rf.subject))
    return outs


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$")


def _ms(value) -> float | None:
    """min_duration_ms as the client reads it: milliseconds, or a string such as "600s" / "10m"."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    m = _DURATION.match(value) if isinstance(value, str) else None
    if not m:
        return None
    return float(m.group(1)) * {"ms": 1, None: 1, "s": 1000, "m": 60000, "h": 3600000}[m.group(2)]


@rule(id="preflight-duration", title="Planned duration covers the region minimum", clause="R§6.2",
      severity="flag", scope="plan", needs=("policy:run_folder", "policy:run_rules"))
def preflight_duration(plan, ctx):
    """Each config's min_duration_ms reaches its region's minimum, with a margin; a duration cap does not cut the run.

    What it checks: settings.runtime.min_duration_ms (client default 600,000) against the R§6.2
    minimum the run-folder rules apply (600 s at concurrency <= 32, 1,200 s above and for the
    Offline run; 2,400 s above 32 for an agentic benchmark): below it FAILs; within the policy
    margin above it is a warning, since the minimum is judged on the steady-state window, which
    excludes ramp-up and drain. A max_duration_ms below min_duration_ms is refused by the client;
    any cap warns, because a cap that elapses drops the requests in flight (run-folder-complete).
    Why: R§6.2; the client never enforces min_duration_ms itself (RUN-FOLDER.md §2).
    How to fix: Set min_duration_ms above the minimum with room to spare, and leave max_duration_ms 0.
    """
    if not plan.configs:
        return no_configs()
    pol = ctx.policy.get("run_folder")
    durations = ctx.policy.get("run_rules").durations
    outs = []
    for rf in plan.configs:
        verdict, kind, t = pattern(rf)
        c = lf(rf)
        if verdict not in ("fixed", "offline") or (verdict == "fixed" and (not is_int(t) or t <= 0)):
            outs.append(Skip("not a planned Pareto point (see preflight-load-pattern)", reason="not-applicable",
                             subject=rf.subject))
            continue
        if verdict == "offline":
            label, minimum = "the dedicated Offline run", pol.min_duration_s.other
        else:
            label, minimum = region_minimum(rf, ctx, t, pol)
            if kind == "agentic_inference" and t > pol.ultra_low_max_concurrency:
                label, minimum = f"an agentic point above {pol.ultra_low_max_concurrency}", durations.agentic_above_min_s
            elif t > pol.ultra_low_max_concurrency:
                label = f"concurrency {t} (above {pol.ultra_low_max_concurrency})"
        runtime = c.get("settings", "runtime")
        runtime = runtime if isinstance(runtime, dict) else {}
        raw = runtime.get("min_duration_ms", 600000)
        path = ("settings", "runtime", "min_duration_ms")
        ms = _ms(raw)
        cap = _ms(runtime.get("max_duration_ms", 0))
        want = minimum * 1000 * (1 + pol.duration_margin)
        if ms is None:
            outs.append(Fail(f"min_duration_ms is {raw!r}: not a duration", file=c, path=path, subject=rf.subject,
                             observed=raw, expected=f">= {minimum * 1000:.0f}"))
        elif ms < minimum * 1000:
            outs.append(Fail(f"min_duration_ms {ms:.0f} < {minimum * 1000} ms, the minimum for {label}", file=c,
                             path=path, subject=rf.subject, observed=raw, expected=f">= {minimum * 1000}"))
        elif cap and cap < ms:
            outs.append(Fail(f"max_duration_ms {cap:.0f} < min_duration_ms {ms:.0f}: the client refuses the config",
                             file=c, path=("settings", "runtime", "max_duration_ms"), subject=rf.subject,
                             observed=cap, expected=f"0 or >= {ms:.0f}"))
        elif ms < want:
            outs.append(Fail(f"min_duration_ms {ms:.0f} is within {pol.duration_margin:.0%} of the {minimum} s minimum "
                             f"for {label}: the steady-state window, which decides, excludes ramp-up and drain",
                             file=c, path=path, subject=rf.subject, observed=raw, expected=f">= {want:.0f}",
                             severity=_WARN, fix="Plan a longer run: min_duration_ms and n_samples_to_issue with "
                                                 "room above the minimum."))
        elif cap:
            outs.append(Fail(f"max_duration_ms {cap:.0f} caps the run: when it elapses, the requests in flight are "
                             "dropped (run-folder-complete flags them)", file=c,
                             path=("settings", "runtime", "max_duration_ms"), subject=rf.subject, observed=cap,
                             expected=0, severity=_WARN, fix="Set max_duration_ms: 0 and size the run with "
                                                             "n_samples_to_issue."))
        else:
            outs.append(Pass(f"min_duration_ms {ms:.0f} >= {minimum} s for {label}, with margin", subject=rf.subject))
    return outs


@rule(id="preflight-sample-count", title="Planned samples are whole dataset passes", clause="R§6.4, R§4.4",
      severity="flag", scope="plan", needs=("policy:models", "policy:run_rules"))
def preflight_sample_count(plan, ctx):
    """The samples the client will issue are a whole multiple of the dataset, enough passes for a steady state.

    What it checks: the count the client issues for the config (n_samples_to_issue; else the whole
    dataset when min_duration_ms is 0; else ceil(10 QPS x min_duration x 1.1) padded up to a
    multiple of the dataset, RUN-FOLDER.md §2) is at least one pass and a whole multiple of the
    dataset size (the same test as run-folder-sample-count); fewer passes than the steady-state
    window needs (more than 4 super-passes, R§4.4) is a warning. The dataset size comes from
    --dataset-size or the model the config names. Agentic runs issue all client turns: not applicable.
    Why: R§6.4 (one full pass, a whole multiple); the client stops when the count is issued,
    whatever min_duration_ms says.
    How to fix: Set n_samples_to_issue to a whole multiple of the dataset size, enough passes to
    last the minimum duration at your throughput.
    """
    if not plan.configs:
        return no_configs()
    min_passes = ctx.policy.get("run_rules").steady_state.min_super_passes
    outs = []
    for rf in plan.configs:
        verdict, kind, t = pattern(rf)
        c = lf(rf)
        if verdict not in ("fixed", "offline") or kind == "agentic_inference":
            outs.append(Skip("agentic or not a planned Pareto point: the count is not a number of dataset passes",
                             reason="not-applicable", subject=rf.subject))
            continue
        size, where = dataset_size(rf, ctx)
        if size is None:
            outs.append(Skip(where, reason="missing-context", subject=rf.subject))
            continue
        runtime = c.get("settings", "runtime")
        total, how = planned_samples(runtime if isinstance(runtime, dict) else {}, size)
        path = ("settings", "runtime", "n_samples_to_issue") if "n_samples_to_issue" in how else \
            ("settings", "runtime")
        if total is None:
            outs.append(Fail(f"the sample count cannot be told: {how}", file=c, path=path, subject=rf.subject,
                             observed=how, expected="n_samples_to_issue"))
            continue
        which, text = passes_problem(total, total, size, noun="to issue")
        if which is not None:
            outs.append(Fail(f"{text} (dataset size from {where}; count from {how})", file=c, path=path,
                             subject=rf.subject, observed=total, expected=f"a positive multiple of {size}"))
        elif total // size <= min_passes:
            outs.append(Fail(f"{text}: a steady-state window needs at least {min_passes} super-passes, so the run "
                             f"needs more than {min_passes} (count from {how}; the client stops there whatever "
                             "min_duration_ms says)", file=c, path=path, subject=rf.subject, observed=total // size,
                             expected=f"> {min_passes} passes", severity=_WARN))
        else:
            outs.append(Pass(f"{text} (dataset size from {where}; count from {how})", subject=rf.subject))
    return outs
