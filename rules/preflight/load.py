"""Pre-flight, part 1: the load a planned config asks for (R§6.1, R§6.2, R§6.4, R§5.5).

Each rule reports once per config (the subject is the config file), at the config's lines, with
the run-folder family's decisions (``rules.shared.run_checks``, ``rules.run_folder.context``).
"""
from __future__ import annotations

import re

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from checker.load.models.client_config import config_format
from checker.core.values import is_int
from rules.preflight.context import lf, no_configs, pattern, region_label, regions
from rules.run_folder.context import dataset_size, region_minimum
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
    the finding names its region (the margin never counts for high_concurrency). A dedicated Offline run's
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
    """What the config fixes of the run's length reaches its region's minimum; no cap cuts the run.

    What it checks: in the config's own format (config.yaml's keys tell the client's older format,
    settings.drain, from the newer one, settings.timeouts). Older format: settings.runtime.min_duration_ms
    (the client's default 600,000 when absent) against the R§6.2 minimum the run-folder rules apply (600 s
    at concurrency <= 32, 1,200 s above and for the Offline run; 2,400 s above 32 for an agentic
    benchmark): below it FAILs; within the policy margin above it is a warning, since the minimum is judged
    on the steady-state window, which excludes ramp-up and drain; a max_duration_ms below min_duration_ms is
    refused by the client; any cap (not 0) warns. Newer format: there is no minimum duration to plan for a
    concurrency run (min_duration_ms only sizes a poisson run with a target_qps and is refused otherwise;
    the run lasts as long as its samples take): a min_duration_ms or a `max_duration_ms: 0` the client
    refuses FAILs; a cap (max_duration_ms, later max_issue_duration_ms) below the minimum FAILs, any other
    cap warns; else SKIP, and preflight-sample-count decides. A key the file does not have is never cited.
    Why: R§6.2; the client never enforces a minimum itself (RUN-FOLDER.md §2), and a cap that elapses drops
    the requests in flight.
    How to fix: Older format: set min_duration_ms above the minimum with room to spare, and leave
    max_duration_ms 0. Newer format: size the run with n_samples_to_issue and leave the cap out.
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
        fmt = config_format(c.data)
        if fmt.name == "older" or (fmt.name == "unknown" and "min_duration_ms" in runtime):
            o = _older_duration(c, runtime, minimum, label, pol)
        else:
            o = _newer_duration(c, runtime, fmt, minimum, label)
        o.subject = rf.subject
        outs.append(o)
    return outs


def _older_duration(c, runtime: dict, minimum: int, label: str, pol):
    """The older client: min_duration_ms (default 600,000) sizes the run; max_duration_ms 0 is no cap."""
    given = "min_duration_ms" in runtime
    raw = runtime.get("min_duration_ms", 600000)
    name = "min_duration_ms" if given else "the older client's default min_duration_ms (not set in the file)"
    path = ("settings", "runtime", "min_duration_ms") if given else ("settings", "runtime")
    ms = _ms(raw)
    cap = _ms(runtime.get("max_duration_ms", 0))
    want = minimum * 1000 * (1 + pol.duration_margin)
    if ms is None:
        return Fail(f"min_duration_ms is {raw!r}: not a duration", file=c, path=path, observed=raw,
                    expected=f">= {minimum * 1000:.0f}")
    if ms < minimum * 1000:
        return Fail(f"{name} {ms:.0f} < {minimum * 1000} ms, the minimum for {label}", file=c, path=path,
                    observed=raw, expected=f">= {minimum * 1000}")
    if cap and cap < ms:
        return Fail(f"max_duration_ms {cap:.0f} < min_duration_ms {ms:.0f}: the client refuses the config", file=c,
                    path=("settings", "runtime", "max_duration_ms"), observed=cap, expected=f"0 or >= {ms:.0f}")
    if ms < want:
        return Fail(f"{name} {ms:.0f} is within {pol.duration_margin:.0%} of the {minimum} s minimum for {label}: the "
                    "steady-state window, which decides, excludes ramp-up and drain", file=c, path=path,
                    observed=raw, expected=f">= {want:.0f}", severity=_WARN,
                    fix="Plan a longer run: min_duration_ms and n_samples_to_issue with room above the minimum.")
    if cap:
        return Fail(f"max_duration_ms {cap:.0f} caps the run: when it elapses, the requests in flight are dropped "
                    "(run-folder-complete flags them)", file=c, path=("settings", "runtime", "max_duration_ms"),
                    observed=cap, expected=0, severity=_WARN,
                    fix="Set max_duration_ms: 0 and size the run with n_samples_to_issue.")
    return Pass(f"{name} {ms:.0f} >= {minimum} s for {label}, with margin")


def _newer_duration(c, runtime: dict, fmt, minimum: int, label: str):
    """The newer client (or a plan naming no format): no minimum to plan; only what it refuses and a cap."""
    where = fmt.label
    if "min_duration_ms" in runtime:  # only a poisson run with a target_qps may set it (not a Pareto point)
        return Fail(f"min_duration_ms is set, but {where} refuses it unless the load pattern is poisson with a "
                    "target_qps: the client will not start this run", file=c,
                    path=("settings", "runtime", "min_duration_ms"), observed=runtime["min_duration_ms"],
                    expected="absent", fix="Remove settings.runtime.min_duration_ms and size the run with "
                                           "n_samples_to_issue (enough passes to last the minimum at your throughput).")
    key = fmt.cap_key
    if key is not None:
        raw = runtime[key]
        cap = _ms(raw)
        path = ("settings", "runtime", key)
        if cap is None or cap <= 0:
            return Fail(f"{key} is {raw!r}: {where} refuses it (leave the key out for no cap)", file=c, path=path,
                        observed=raw, expected="absent (no cap)", fix=f"Remove settings.runtime.{key}.")
        if cap < minimum * 1000:
            return Fail(f"{key} {cap:.0f} ends the performance phase before the {minimum} s minimum for {label}",
                        file=c, path=path, observed=raw, expected=f"absent, or >= {minimum * 1000}",
                        fix=f"Remove settings.runtime.{key} (no cap) and size the run with n_samples_to_issue.")
        return Fail(f"{key} {cap:.0f} caps the run: when it elapses, the requests in flight are dropped "
                    "(run-folder-complete flags them)", file=c, path=path, observed=raw, expected="absent (no cap)",
                    severity=_WARN, fix=f"Remove settings.runtime.{key} and size the run with n_samples_to_issue.")
    return Skip(f"{where}: a concurrency run has no minimum duration to plan, it lasts as long as its samples take "
                f"(the {minimum} s minimum for {label} is checked on the finished run by run-folder-duration; the "
                "sample count by preflight-sample-count)", reason="not-in-config")


@rule(id="preflight-sample-count", title="Planned samples are whole dataset passes", clause="R§6.4, R§4.4",
      severity="flag", scope="plan", needs=("policy:models", "policy:run_rules"))
def preflight_sample_count(plan, ctx):
    """The samples the client will issue are a whole multiple of the dataset, enough passes for a steady state.

    What it checks: the count the client issues for the config (n_samples_to_issue; else, in the
    newer config format, the dataset once; in the older one the whole dataset when min_duration_ms
    is 0, else ceil(10 QPS x min_duration x 1.1) padded up to a multiple of the dataset,
    RUN-FOLDER.md §2; a plan naming neither format and neither key SKIPs: the count depends on the
    client version) is at least one pass and a whole multiple of the
    dataset size (the same test as run-folder-sample-count); fewer passes than the steady-state
    window needs (more than 4 super-passes, R§4.4) is a warning. The dataset size comes from
    --dataset-size or the model the config names. Agentic runs issue all client turns: not applicable.
    Why: R§6.4 (one full pass, a whole multiple); the client stops when the count is issued,
    whatever duration was planned.
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
        runtime = runtime if isinstance(runtime, dict) else {}
        total, how = planned_samples(runtime, size, config_format(c.data).name)
        path = ("settings", "runtime", "n_samples_to_issue") if "n_samples_to_issue" in how else \
            ("settings", "runtime")
        if total is None and "neither client format" in how:
            outs.append(Skip(f"the sample count depends on the client version: {how}; set n_samples_to_issue to "
                             "decide it", reason="missing-context", subject=rf.subject))
            continue
        if total is None:
            outs.append(Fail(f"the sample count cannot be told: {how}", file=c, path=path, subject=rf.subject,
                             observed=how, expected="n_samples_to_issue"))
            continue
        which, text = passes_problem(total, total, size, noun="to issue")
        if which is not None:
            outs.append(Fail(f"{text} (dataset size from {where}; count from {how})", file=c, path=path,
                             subject=rf.subject, observed=total, expected=f"a positive multiple of {size}"))
        elif total // size <= min_passes:
            stops = "; the client stops there whatever min_duration_ms says" if "min_duration_ms" in runtime else ""
            outs.append(Fail(f"{text}: a steady-state window needs at least {min_passes} super-passes, so the run "
                             f"needs more than {min_passes} (count from {how}{stops})", file=c, path=path,
                             subject=rf.subject, observed=total // size, expected=f"> {min_passes} passes",
                             severity=_WARN))
        else:
            outs.append(Pass(f"{text} (dataset size from {where}; count from {how})", subject=rf.subject))
    return outs
