"""How each point was run (R§6): load pattern, streaming, duration, query counts, run completion.

Official ids (OFFICIAL-CHECKER.md §3 E, G, H) keep their meaning; where the official tool is
stale or silent (streaming after rules d2d9da6, NaN durations, `complete: false`, whole-multiple
sample counts, dropped requests) the rule follows RULES.md and says so in its docstring.
"""
from __future__ import annotations

import math

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from checker.domain.benchmark import is_agentic
from checker.core.values import is_int, loaded_mapping, show
from rules.procedure.policy import (NEEDS, dataset_pass_size, is_number, minimum_duration, model_type, stream_flag,
                                    usable)


@rule(id="load-pattern", title="Load pattern", clause="R§6.1", severity="reject-points",
      scope="point", needs=("point_yaml", NEEDS, "policy:models"), official=True,
      consequence_of=("run-folder-load-pattern", "unknown-key"))
def load_pattern(point, ctx):
    """Every point except a dedicated Offline run uses a fixed-concurrency load pattern at a positive level.

    What it checks: `runtime_settings.load_pattern` is `concurrency` (single-turn) or
    `agentic_inference` (agentic benchmarks; lists in run_rules.yaml), and `concurrency` is a positive
    integer. `poisson`, `max_throughput` and a missing pattern fail, and so does a pattern that does
    not fit the model's benchmark type in models.yaml (agentic_inference on a single-turn model). A point declaring
    `offline: dedicated` is exempt and its pattern name is not tested (the Offline pattern is not
    pinned down by the rules, RULES.md C7).
    Why: R§6.1 — Pareto points are measured at fixed concurrency; R§9.1 rejects non-conforming points.
    How to fix: Run the point with `settings.load_pattern.type: concurrency` and
    `target_concurrency: N`, and record `runtime_settings.load_pattern: concurrency` in point.yaml.
    """
    lf = point.files["point_yaml"]
    lp_pol = ctx.policy.get("run_rules").load_patterns
    declared = lf.get("runtime_settings", "load_pattern")
    if point.is_dedicated_offline:
        return Pass(f"dedicated Offline point: exempt (pattern {show(declared)} not tested)")
    allowed = lp_pol.single_turn + lp_pol.agentic
    path = ("runtime_settings", "load_pattern")
    if declared is None:
        return Fail("runtime_settings.load_pattern is not declared", file=lf, path=path, observed=None,
                    expected=allowed)
    if declared not in allowed:
        return Fail(f"load pattern {show(declared)} is not a fixed-concurrency pattern", file=lf, path=path,
                    observed=declared, expected=allowed)
    kind = model_type(point, ctx)
    want = {"agentic": lp_pol.agentic, "single-turn": lp_pol.single_turn}.get(kind)
    if want is not None and declared not in want:
        return Fail(f"load pattern {declared!r} does not fit a {kind} benchmark", file=lf, path=path,
                    observed=declared, expected=want)
    c = lf.get("concurrency")
    if not is_int(c) or c <= 0:
        return Fail(f"concurrency {show(c)} is not a positive integer", file=lf, path=("concurrency",),
                    observed=c, expected="an integer > 0")
    return Pass(f"load pattern {declared} at concurrency {c}")


@rule(id="streaming-config", title="Streaming config", clause="R§6.5", severity="flag",
      scope="point", needs=("point_yaml", NEEDS, "maybe:config"), official=True)
def streaming_config(point, ctx):
    """Fixed-concurrency performance points stream their responses (current rules, d2d9da6).

    What it checks: config.yaml `model_params.streaming` resolves to `on` at every point except a
    dedicated Offline run (exempt). `stream_all_chunks` may be either value; it is recorded as
    evidence in the finding, never judged. Without config.yaml (optional as of v1.0) streaming cannot
    be verified and the rule SKIPs.
    Why: R§6.5 as of rules d2d9da6 (2026-10-02). The official checker v1.1.0.0 still implements the
    older rule (fails `stream_all_chunks: false`) and never reads `model_params.streaming`; we follow
    the current rules.
    How to fix: Run the point with `model_params.streaming: on` (the default `auto` resolves to on for
    online runs) and keep the client's config.yaml in r<N>/.
    """
    chunks, chunks_src = stream_flag(point)
    evidence = {"stream_all_chunks": chunks, "stream_all_chunks_source": chunks_src}
    note = f"stream_all_chunks={show(chunks)} ({chunks_src}; either value allowed)"
    if point.is_dedicated_offline:
        return Pass(f"dedicated Offline point: exempt; stream_all_chunks={show(chunks)} recorded", extra=evidence)
    cf = point.files.get("config")
    if not usable(cf):
        why = "absent" if cf is None or not cf.exists else "not usable"
        return Skip(f"config.yaml is {why}, so model_params.streaming cannot be verified; {note}",
                    reason="missing-input", extra=evidence)
    value = cf.get("model_params", "streaming")
    pol = ctx.policy.get("run_rules").streaming
    if value is None:
        return Skip(f"config.yaml records no model_params.streaming; {note}", reason="missing-input", extra=evidence)
    if value in pol.accepted:
        return Pass(f"streaming on; stream_all_chunks={show(chunks)} recorded", extra=evidence)
    if isinstance(value, str) and value in pol.auto and cf.get("type") not in ("offline",):
        return Pass(f"model_params.streaming is {value!r}, which the client resolves to on for online runs; {note}",
                    extra=evidence)
    return Fail(f"model_params.streaming is {show(value)}: fixed-concurrency performance runs must stream",
                file=cf, path=("model_params", "streaming"), observed=value, expected="on", extra=evidence)


#: R§4.4 statuses whose window is not the official result: the whole run is published, and measured
_FALLBACK_STATUSES = ("insufficient_duration", "insufficient_passes", "partial_dataset")


def _duration_basis(point):
    """(seconds or None, problem or None, LoadedFile, path, basis text)."""
    yf = point.files["point_yaml"]
    ss = yf.get("steady_state")
    fallback = isinstance(ss, dict) and ss.get("status") in _FALLBACK_STATUSES
    if isinstance(ss, dict) and not fallback:
        window = ss.get("window")
        if isinstance(window, dict) and "duration_s" in window:
            v = window["duration_s"]
            path = ("steady_state", "window", "duration_s")
            basis = "steady-state window issue-time span (point.yaml steady_state.window.duration_s)"
            if not is_number(v):
                return None, f"is {show(v)}, not a number", yf, path, basis
            return float(v), None, yf, path, basis
    sf = point.files.get("result_summary")
    note = "" if ss is None else (f" (steady_state status {ss['status']}: the whole run is the official basis, R§4.4)"
                                  if fallback else " (the steady_state block has no window.duration_s)")
    basis = f"whole-run duration (result_summary.json duration_ns){note}"
    if loaded_mapping(sf) is None:
        return None, "result_summary.json is not usable", None, (), basis
    v = sf.get("duration_ns")
    if "duration_ns" not in sf.data:
        return None, "is not recorded", sf, (), basis
    if not is_number(v):
        return None, f"is {show(v)}, not a number", sf, ("duration_ns",), basis
    return v / 1e9, None, sf, ("duration_ns",), basis


@rule(id="point-duration", title="Point duration", clause="R§6.2", severity="flag",
      scope="point", needs=("point_yaml", NEEDS, "policy:models", "maybe:result_summary"), official=True,
      consequence_of=("run-folder-duration",))
def point_duration(point, ctx):
    """The point ran at least its minimum duration: 600 s at concurrency <= 32, 1,200 s above.

    What it checks: the steady-state window's issue-time span (`steady_state.window.duration_s`)
    when point.yaml has a steady_state block whose window is the official result, else the whole-run
    `duration_ns` of result_summary.json, which a status of insufficient_duration, insufficient_passes
    or partial_dataset publishes instead (R§4.4; the official checker measures such a window anyway and
    warns); the finding says which. Minimums (run_rules.yaml): 600 s for
    concurrency <= 32, 1,200 s above (margin and dedicated Offline points included), 2,400 s for
    agentic points above 32. NaN, infinite, negative or non-numeric values FAIL, and so does a
    window longer than the whole tracked run (`duration_ns`): the files contradict each other.
    Why: R§6.2 and R§4.4 (measured over issue time, not wall clock); R§9.1 flags short points. The
    official checker lets a NaN window duration pass.
    How to fix: Rerun the point longer than the minimum (issue more dataset passes), so that the
    detected steady-state window itself spans the minimum.
    """
    minimum, why = minimum_duration(point, ctx)
    seconds, problem, lf, path, basis = _duration_basis(point)
    if problem is not None:
        if lf is None:
            return Skip(f"no duration to judge: {problem}", reason="missing-input")
        return Fail(f"{basis}: the value {problem}", file=lf, path=path, observed=lf.get(*path),
                    expected=f"a finite number of seconds >= {minimum}" if minimum else "a finite number")
    if not math.isfinite(seconds) or seconds < 0:
        what = f"negative ({seconds:g})" if seconds < 0 else show(seconds)
        return Fail(f"{basis} is {what}", file=lf, path=path, observed=show(seconds),
                    expected=f">= {minimum} s")
    if path and path[0] == "steady_state":  # the window lies inside the tracked run
        sf = point.files.get("result_summary")
        dur = sf.get("duration_ns") if sf is not None and sf.ok else None
        if is_int(dur) and dur > 0 and seconds * 1e9 > dur + 1000:
            return Fail(f"the steady-state window spans {seconds:,.1f} s, longer than the whole tracked run "
                        f"({dur / 1e9:,.1f} s, result_summary.json duration_ns): the two files contradict each other",
                        file=lf, path=path, observed=seconds, expected=f"<= {dur / 1e9:,.3f} s (the tracked run)",
                        fix="Copy point.yaml's steady_state block from this run's own diagnostics; rerun the point "
                            "if the run itself is too short.")
    if minimum is None:
        return Skip(f"{basis} is {seconds:,.1f} s, but the minimum is unknown: {why}", reason="missing-input")
    if seconds < minimum:
        return Fail(f"{basis} is {seconds:,.1f} s, below the {minimum:,.0f} s minimum ({why})", file=lf, path=path,
                    observed=round(seconds, 3), expected=f">= {minimum:,.0f} s",
                    extra={"basis": basis, "minimum_s": minimum})
    short = "steady-state window" if path and path[0] == "steady_state" else "whole-run duration"
    return Pass(f"{short} {seconds:,.0f} s >= {minimum:,.0f} s", extra={"basis": basis, "minimum_s": minimum})


def _counts(point):
    """(issued, completed, failed, problems[(field, message)]) from result_summary.json raw values."""
    sf = point.files["result_summary"]
    vals, probs = {}, []
    for key in ("n_samples_issued", "n_samples_completed", "n_samples_failed"):
        v = sf.get(key)
        if key not in sf.data:
            probs.append((key, f"{key} is not recorded"))
        elif not is_int(v) or v < 0:
            probs.append((key, f"{key} is {show(v)}, not a non-negative integer"))
        else:
            vals[key] = v
    return vals.get("n_samples_issued"), vals.get("n_samples_completed"), vals.get("n_samples_failed"), probs


@rule(id="min-query-count", title="Min query count", clause="R§6.4", severity="flag",
      scope="point", needs=("point_yaml", "result_summary", "policy:models", NEEDS), official=True,
      consequence_of=("run-folder-sample-count",))
def min_query_count(point, ctx):
    """The point completed at least one full pass over its performance dataset.

    What it checks: successful completions (`n_samples_completed - n_samples_failed`; the client
    counts failed requests as completed, RUN-FOLDER.md §7) >= the size of the benchmark model's
    dataset (models.yaml; the model fixes its dataset, so an unknown or wrong point.yaml `dataset`
    never makes this SKIP: dataset-matches-model reports the name). Only when the model itself is
    unknown is the declared `dataset` looked up, and SKIP when that fails too. A WG-approved Ultra
    Low subset (`n_samples_from_dataset`) counts at concurrency <= 32 only. Inconsistent counters:
    SKIP (metric-consistency-accounting). The official checker skips unknown datasets silently.
    Why: R§6.4 — minimum completed queries = one full dataset pass; R§9.1 flags the point.
    How to fix: Issue at least one full pass (`n_samples_to_issue` a multiple of the dataset size)
    and make sure requests succeed.
    """
    size, how = dataset_pass_size(point, ctx)
    if size is None:
        return Skip(f"dataset size unknown: {how}", reason="unknown-dataset")
    sf = point.files["result_summary"]
    counts = consistent_counts(point)
    if counts is None:
        return Skip("sample counts are missing or inconsistent (see metric-consistency-accounting)",
                    reason="input-not-valid")
    _i, completed, failed = counts
    ok = completed - failed
    if ok < size:
        extra = f" ({completed} completed, {failed} of them failed)" if failed else ""
        return Fail(f"{ok:,} successful queries{extra}, fewer than one pass ({how})", file=sf,
                    path=("n_samples_completed",), observed=ok, expected=f">= {size}")
    return Pass(f"{ok:,} successful queries >= {size:,}", extra={"dataset": how})


@rule(id="samples-whole-multiple", title="Samples issued are whole dataset passes", clause="R§6.4",
      severity="flag", scope="point",
      needs=("point_yaml", "result_summary", "policy:models", NEEDS),
      consequence_of=("min-query-count", "run-folder-sample-count"))
def samples_whole_multiple(point, ctx):
    """Total samples issued are a positive whole multiple of the dataset size.

    What it checks: `n_samples_issued % dataset_size == 0` and `n_samples_issued > 0`, with the
    size of the benchmark model's dataset (models.yaml; by point.yaml `dataset` only when the model
    is unknown; a WG-approved ultra_low subset counts at concurrency <= 32). Unknown model and
    dataset, inconsistent counters (metric-consistency-accounting)
    or an agentic benchmark (how samples map to trajectories is unpublished): SKIP with reason.
    Why: R§6.4 requires whole passes so every sample weighs the same in the result; the official
    checker does not test it.
    How to fix: Set `settings.runtime.n_samples_to_issue` to k x dataset size and let the run finish
    (a max-duration cap that cuts the issue phase short breaks the multiple).
    """
    if is_agentic(point.curve, ctx.policy.get("models")):
        return Skip("agentic benchmark: how samples map to the dataset's trajectories is not published, so whole "
                    "passes cannot be read from the counters", reason="not-applicable")
    size, how = dataset_pass_size(point, ctx)
    if size is None:
        return Skip(f"dataset size unknown: {how}", reason="unknown-dataset")
    sf = point.files["result_summary"]
    if consistent_counts(point) is None:
        return Skip("sample counts are missing or inconsistent (see metric-consistency-accounting)",
                    reason="input-not-valid")
    issued = sf.get("n_samples_issued")
    if not is_int(issued) or issued <= 0:
        return Fail(f"n_samples_issued is {show(issued)}, not a positive integer", file=sf,
                    path=("n_samples_issued",), observed=issued, expected=f"a positive multiple of {size}")
    if issued % size:
        return Fail(f"{issued:,} samples issued is {issued // size} whole passes plus {issued % size:,} samples ({how})", file=sf,
                    path=("n_samples_issued",), observed=issued,
                    expected=f"a multiple of {size} (e.g. {max(1, issued // size) * size:,})")
    return Pass(f"{issued:,} issued = {issued // size} x {size:,}", extra={"dataset": how})


@rule(id="run-complete", title="Run finished", clause="R§9.1", severity="reject-points",
      scope="point", needs=("result_summary",))
def run_complete(point, ctx):
    """result_summary.json does not say the run stopped short: no `complete: false`, no `state: INTERRUPTED`.

    What it checks: `complete` false or `state` "INTERRUPTED" rejects the point. A value the client
    does not write (`complete` not a boolean, another `state` word) is a warning naming it. Neither
    field recorded (the official corpus's summaries record neither) is a SKIP saying what could not be
    read: absence contradicts nothing. The sample counters (`n_samples_failed <= n_samples_completed
    <= n_samples_issued`; the client counts failed requests as completed, RUN-FOLDER.md §7) are
    metric-consistency-accounting's, so one broken counter gives one finding; dropped requests are
    samples-dropped's.
    Why: `complete: false` means the run drained out or was interrupted and `state: INTERRUPTED` that
    it was aborted: the point is not usable (RULES.md §12). Only those two make it so; the official
    checker ignores both flags and its PointSummary does not require them.
    How to fix: Rerun the point to completion and copy the client's result_summary.json unchanged.
    """
    sf = point.files["result_summary"]
    has_complete, has_state = "complete" in sf.data, "state" in sf.data
    complete, state = sf.get("complete"), sf.get("state")
    stopped = []
    if complete is False:
        stopped.append(("complete", "complete is False"))
    if isinstance(state, str) and state.strip().upper() == "INTERRUPTED":
        stopped.append(("state", f"state is {show(state)}"))
    if stopped:
        return Fail("the run did not finish cleanly: " + "; ".join(m for _, m in stopped), file=sf,
                    path=(stopped[0][0],), observed={k: sf.get(k) for k, _ in stopped},
                    expected={"complete": True, "state": "complete"})
    odd = []
    if has_complete and complete is not True:
        odd.append(("complete", f"complete is {show(complete)} (the client writes true or false)"))
    if has_state and not (isinstance(state, str) and state.strip().lower() == "complete"):
        odd.append(("state", f"state is {show(state)} (the client writes complete or INTERRUPTED)"))
    if odd:
        return Fail("whether the run finished cannot be read: " + "; ".join(m for _, m in odd), file=sf,
                    path=(odd[0][0],), observed={k: sf.get(k) for k, _ in odd},
                    expected={"complete": True, "state": "complete"}, severity=Severity.WARN,
                    fix="Copy the client's result_summary.json unchanged (complete: true, state: complete).")
    if not has_complete and not has_state:
        return Skip("result_summary.json records neither `complete` nor `state`: whether the run finished "
                    "cannot be read from it (only complete: false or state: INTERRUPTED would reject the point)",
                    reason="not-recorded")
    said = ", ".join(t for t, h in (("complete: true", has_complete), ("state: complete", has_state)) if h)
    return Pass(f"run complete ({said})")


def consistent_counts(point):
    """(issued, completed, failed) when failed <= completed <= issued all hold, else None."""
    issued, completed, failed, probs = _counts(point)
    if probs or not (failed <= completed <= issued):
        return None
    return issued, completed, failed


@rule(id="samples-dropped", title="No requests dropped", clause="R§6.4", severity="flag",
      scope="point", needs=("result_summary",), consequence_of=("run-folder-complete",))
def samples_dropped(point, ctx):
    """Every issued request completed (issued minus completed is zero).

    What it checks: `n_samples_issued - n_samples_completed`. A positive difference means requests
    were issued and never completed: the client's max-duration cap or an interrupt drops in-flight
    requests without an error and still reports `complete: true` (RUN-FOLDER.md §7 item 3).
    Counts that are missing or inconsistent SKIP here (metric-consistency-accounting reports them).
    Why: dropped requests are left out of the metrics and break the whole-pass accounting of R§6.4;
    a reviewer should know.
    How to fix: Let the run drain instead of capping it mid-flight (raise `max_duration_ms`, or bound
    the run by `n_samples_to_issue`).
    """
    counts = consistent_counts(point)
    if counts is None:
        return Skip("sample counts are missing or inconsistent (see metric-consistency-accounting)",
                    reason="input-not-valid")
    issued, completed, _failed = counts
    dropped = issued - completed
    if dropped > 0:
        sf = point.files["result_summary"]
        return Fail(f"{dropped:,} of {issued:,} issued requests never completed (dropped at the duration cap or by "
                    "an interrupt)", file=sf, path=("n_samples_completed",), observed=dropped, expected=0)
    return Pass(f"all {issued:,} issued requests completed")
