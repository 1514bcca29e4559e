"""Run-folder rules, part 3: the events.jsonl audit against result_summary.json (RUN-FOLDER.md §1.4).

``checker.load.run_folder`` streams each log once (``checker.load.events``); these rules compare what it
rebuilt with the summary. Tolerances are policy data (run_folder.yaml ``tolerances``).
"""
from __future__ import annotations

from checker.load.models.accuracy import score_items
from checker.load.models.client_config import config_warmup
from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from checker.core.values import is_int
from rules.run_folder.context import idx_map, run_kind, summary, within
from rules.run_folder.ending import client_version, ending

_PROBLEM_TEXT = {
    "malformed-line": "malformed line(s)",
    "blank-line": "blank line(s)",
    "line-too-long": "line(s) over 64 MiB",
    "truncated-last-line": "truncated last line",
    "unknown-event-type": "event(s) of an unknown type",
    "event-for-unknown-sample": "event(s) for a sample never issued",
    "event-before-issue": "event(s) timestamped before their sample's issue",
    "duplicate-issue": "sample(s) issued twice",
    "duplicate-first-chunk": "second first-chunk event(s)",
    "event-after-session-ended": "event(s) after session.ended",
    "session-ended-twice": "session.ended twice",
    "session-started-late": "session.started after samples",
    "session-never-started": "no session.started event",
    "tracking-started-twice": "start_performance_tracking while already tracking",
    "tracking-stopped-without-start": "stop_performance_tracking without a start",
    "tracking-never-stopped": "performance tracking never stopped",
    "nesting-too-deep": "line(s) nested too deep to decode",
    "nul-run": "run of NUL bytes (zero-filled or sparse tail): the audit stopped there",
}
_NOT_FAILING = {"no-final-newline"}
#: problems that mean the log stops before the run ended: the run was killed, or the copy is short
_CUT_SHORT = {"truncated-last-line", "tracking-never-stopped"}


@rule(id="run-folder-events-log", title="events.jsonl is a whole, ordered log", clause="R§6.3.2",
      severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "maybe:config", "maybe:final_snapshot", "maybe:result_summary", "has:events-log"))
def run_folder_events_log(rf, ctx):
    """events.jsonl decodes line by line, in order, with known event types and an intact last line.

    What it checks: the log can be read; every line is one JSON event with a string event_type
    and a timestamp_ns integer in 0..2^62; event types are the client's (session.*, sample.*,
    error.*); each sample's events follow its issue; the session events come in order (started,
    tracking start/stop, ended); timestamp_ns never steps back by more than the policy tolerance
    (events come from several processes, so small steps back are normal; intermediate-chunk events
    are counted, not ordered); the last line is not cut off.
    Why: reviewers cross-check the metrics and the warmup against this log (R§6.3.2); a damaged or
    spliced log cannot back the published numbers.
    How to fix: Keep events.jsonl exactly as the client wrote it (copy it whole; never edit it).
    """
    a = rf.events_audit
    if a is not None and a.error is not None and ctx.opt("events", True):
        return Fail(f"events.jsonl cannot be audited: {a.error}", file=a.path, observed=a.error,
                    expected="a readable event log")
    pol = ctx.policy.get("run_folder")
    tol = pol.tolerances.timestamp_backstep_ns
    end = ending(rf, pol.external_scorers)
    parts = []
    for kind, n in sorted(a.problems.items()):
        if kind in _NOT_FAILING or kind == "unknown-event-type" or (end.stop_line is not None and kind in _CUT_SHORT):
            continue  # a newer client's types are worded below; an interrupted run's cut log is run-folder-files'
        lines = ", ".join(str(x) for x in a.examples.get(kind, []))
        parts.append(f"{n} {_PROBLEM_TEXT.get(kind, kind)} (line {lines})")
    newer = ""
    if a.unknown_types:
        first = a.examples.get("unknown-event-type", [None])[0]
        newer = (f"event type(s) this checker does not know: {', '.join(sorted(a.unknown_types))} (first at line "
                 f"{first}), written by {client_version(rf)}: a newer client's, counted, not checked")
    if a.max_backstep_ns > tol:
        parts.append(f"timestamp_ns steps back by up to {a.max_backstep_ns / 1e6:.1f} ms (tolerance {tol / 1e6:.0f} ms)")
    if a.lines == 0:
        parts.append("the log is empty")
    if parts:
        first = min((x for v in a.examples.values() for x in v), default=None)
        cut = _CUT_SHORT & set(a.problems)
        fix = ("The log stops before the run ended: the run was killed or interrupted, or events.jsonl was copied "
               "before the client finished. Rerun the point to completion (or copy the whole log of a finished "
               "run).") if cut and end.stop_line is None else None
        return Fail("; ".join(parts + ([newer] if newer else [])), file=a.path,
                    observed=dict(sorted(a.problems.items())), expected="no problems", fix=fix,
                    extra={"line": first} if first else {})
    if newer:
        return Fail(newer, file=a.path, observed=dict(sorted(a.unknown_types.items())),
                    expected="the event types this checker knows", severity=Severity.WARN,
                    extra={"line": a.examples.get("unknown-event-type", [None])[0]},
                    fix="Nothing to change in the log: the client wrote these events; a newer endpoints-checker may "
                        "check them.")
    if end.stop_line is not None:
        return Skip(f"{a.lines} events decoded in order up to line {end.stop_line}, where the log of this interrupted "
                    "run stops (see run-folder-files): what came after was never written", reason="interrupted-run")
    return Pass(f"{a.lines} events decoded in order ({a.backsteps} small timestamp steps back, at most "
                f"{a.max_backstep_ns / 1e6:.3f} ms)")


def _rebuilt(a) -> dict:
    """What the audit rebuilt, for the JSON report (reviewers compare it with the summary)."""
    def rollup(x):
        return {"count": x.count, "min": x.min, "max": x.max, "total": x.total, "percentiles": x.percentiles}

    return {"rebuilt": {"n_samples_issued": a.issued, "n_samples_completed": a.completed,
                        "n_samples_failed": a.failed, "duration_ns": a.duration_ns, "ttft_ns": rollup(a.ttft),
                        "latency_ns": rollup(a.latency), "warmup_issued": a.warmup_issued,
                        "after_tracking_issued": a.post_issued, "intermediate_chunks": a.recv_non_first,
                        "dropped_in_flight": a.in_flight_at_end}}


def _perf_audit(rf, ctx, compare: bool = False):
    """The events audit of a performance run (the rule needs ``has:events`` and ``loaded:result_summary``); else
    ``Skipped``. ``compare``: the rule compares the log's rebuilt metrics with result_summary.json, which an
    interrupted run's partial values and a cut log cannot back."""
    if run_kind(rf) == "accuracy-only":
        raise Skipped("accuracy-only run: no performance phase to rebuild", reason="not-applicable")
    a = rf.events_audit
    if not compare and not a.has_tracking:
        raise Skipped("events.jsonl has no performance phase (no start_performance_tracking): nothing was "
                      "measured to audit" + (" (the run was interrupted before it)" if
                                             summary(rf).get("state") == "interrupted" else ""),
                      reason="not-applicable")
    if compare and summary(rf).get("state") == "interrupted":
        raise Skipped("the run was interrupted: result_summary.json holds the client's best-effort partial values, "
                      "which are not compared with events.jsonl (see run-folder-complete)", reason="interrupted-run")
    if compare and a.cut_in_tracking:
        raise Skipped(f"events.jsonl stops at line {a.lines} with performance tracking on (see "
                      "run-folder-events-log): it holds only part of the measured run", reason="log-cut-short")
    return a


@rule(id="run-folder-events-counts", title="Rebuilt counts match the summary", clause="R§9.1", severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "has:events", "loaded:result_summary"))
def run_folder_events_counts(rf, ctx):
    """The issued, completed and failed counts rebuilt from events.jsonl equal result_summary.json's.

    What it checks: samples issued between start and stop of performance tracking, those of them
    with a sample.complete event (failures included, as the client counts), and those with an
    error event, against n_samples_issued / n_samples_completed / n_samples_failed. The JSON report
    carries everything the audit rebuilt (counts, duration, TTFT and latency rollups) in `extra`.
    Why: the summary is what gets published; the log is what happened.
    How to fix: Use the summary and the log of the same run, unedited.
    """
    a = _perf_audit(rf, ctx, compare=True)
    lf = summary(rf)
    tol = ctx.policy.get("run_folder").tolerances.count
    for key, got in (("n_samples_issued", a.issued), ("n_samples_completed", a.completed),
                     ("n_samples_failed", a.failed)):
        want = lf.get(key)
        if not is_int(want) or abs(got - want) > tol:
            return Fail(f"events.jsonl has {got} for {key}, result_summary.json says {want!r} "
                        f"(issued {a.issued}, completed {a.completed}, failed {a.failed}; tolerance {tol})",
                        file=lf, path=(key,), observed=want, expected=got, extra=_rebuilt(a))
    return Pass(f"issued {a.issued}, completed {a.completed}, failed {a.failed} as in result_summary.json",
                extra=_rebuilt(a))


@rule(id="run-folder-events-duration", title="Rebuilt tracked duration matches", clause="R§9.1", severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "has:events", "loaded:result_summary"))
def run_folder_events_duration(rf, ctx):
    """The tracked duration rebuilt from events.jsonl equals result_summary.json `duration_ns`.

    What it checks: start_performance_tracking to the last completion of a tracked sample (summed
    over tracking blocks), against duration_ns, within the policy tolerance (1 microsecond).
    Why: duration drives the duration minimum, QPS and system TPS.
    How to fix: Use the summary and the log of the same run, unedited.
    """
    a = _perf_audit(rf, ctx, compare=True)
    lf = summary(rf)
    tol = ctx.policy.get("run_folder").tolerances.duration_ns
    want = lf.get("duration_ns")
    if not is_int(want) or abs(a.duration_ns - want) > tol:
        return Fail(f"events.jsonl gives a tracked duration of {a.duration_ns} ns, duration_ns is {want!r} "
                    f"(tolerance {tol} ns)", file=lf, path=("duration_ns",), observed=want, expected=a.duration_ns)
    return Pass(f"tracked duration {a.duration_ns / 1e9:.3f} s as in result_summary.json")


@rule(id="run-folder-events-latency", title="Rebuilt TTFT and latency percentiles match", clause="R§4.7",
      severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "has:events", "loaded:result_summary"))
def run_folder_events_latency(rf, ctx):
    """TTFT and end-to-end latency rebuilt from events.jsonl match result_summary.json's rollups.

    What it checks: TTFT (first chunk minus issue, every tracked sample with a first chunk) and
    latency (complete minus issue): min, max, total and the twelve percentiles, computed like the client (numpy percentile method "lower", values in ns), within
    the policy tolerance (0.1 % or 1 microsecond). An empty series must be an empty block.
    Why: TTFT P90 is a published metric; the log is its only raw evidence.
    How to fix: Use the summary and the log of the same run, unedited.
    """
    a = _perf_audit(rf, ctx, compare=True)
    lf = summary(rf)
    tol = ctx.policy.get("run_folder").tolerances
    for key, series in (("ttft", a.ttft), ("latency", a.latency)):
        block = lf.get(key)
        if series.count == 0:
            if isinstance(block, dict) and block.get("percentiles"):
                return Fail(f"{key}: events.jsonl has no {key} samples but the summary has percentiles", file=lf,
                            path=(key, "percentiles"), observed="percentiles", expected="an empty block")
            continue
        if not isinstance(block, dict) or not isinstance(block.get("percentiles"), dict):
            return Fail(f"{key}: no percentiles in result_summary.json, events.jsonl has {series.count} samples",
                        file=lf, path=(key,), observed=block, expected="a rollup with percentiles")
        checks = [(("min",), series.min), (("max",), series.max), (("total",), series.total)]
        checks += [(("percentiles", k), v) for k, v in series.percentiles.items()]
        for path, got in checks:
            want = block.get(path[0]) if len(path) == 1 else block["percentiles"].get(path[1])
            if want is None and len(path) == 2:
                continue
            if not within(want, got, tol.latency_rel, tol.latency_abs_ns):
                late = (f"; {a.late_first_chunks} first chunk(s) were logged after their completion and not counted"
                        if a.late_first_chunks and key == "ttft" else "")
                return Fail(f"{key} {'.'.join(path)}: events.jsonl gives {got} ns, result_summary.json {want!r}{late}",
                            file=lf, path=(key,) + path, observed=want, expected=got)
    p90 = a.ttft.percentiles.get("90.0")
    return Pass(f"TTFT ({a.ttft.count}) and latency ({a.latency.count}) rollups match"
                + (f"; TTFT P90 {p90 / 1e6:.2f} ms" if p90 is not None else ""))


def _accuracy_samples(rf) -> int | None:
    """Accuracy requests the run may issue after tracking: the mapped samples (x repeats, per the scorer)."""
    m = idx_map(rf)
    if m is None:
        return None
    mapped = sum(n for k, (n, _) in m.phases.items() if k != "performance")
    acc = rf.files.get("accuracy")
    scores = acc.get("accuracy_scores") if acc is not None and acc.ok else None
    scored = sum(e.get("total_samples") for _, e in score_items(scores) if isinstance(e, dict)
                 and is_int(e.get("total_samples")) and e.get("dataset_type") == "accuracy")
    return max(mapped, scored)


@rule(id="run-folder-events-window", title="Performance samples inside the tracked window", clause="R§6.3",
      severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "maybe:config", "has:events", "loaded:result_summary"))
def run_folder_events_window(rf, ctx):
    """Every performance sample was issued inside the tracked window; outside it, only warmup and accuracy.

    What it checks: no tracked sample is timestamped before its start_performance_tracking (beyond
    the clock tolerance of run-folder-events-log); the
    requests issued before tracking started are explained by an enabled warmup (config.yaml
    settings.warmup); the requests issued after tracking stopped are the accuracy samples
    sample_idx_map.json lists.
    Why: requests outside the window are not measured; performance samples there mean the metrics
    do not cover what was sent.
    How to fix: Rerun; do not send requests to the endpoint from outside the client during a run.
    """
    a = _perf_audit(rf, ctx)
    tol = ctx.policy.get("run_folder").tolerances.timestamp_backstep_ns
    if a.issued_outside_window and a.issued_outside_window_max_ns > tol:
        return Fail(f"{a.issued_outside_window} tracked sample(s) timestamped up to "
                    f"{a.issued_outside_window_max_ns / 1e6:.1f} ms before performance tracking started "
                    f"(line {', '.join(map(str, a.outside_window_lines))})", file=a.path,
                    observed=a.issued_outside_window, expected=0)
    warmup = config_warmup(rf.files.get("config"))
    if a.warmup_issued and warmup is not None and warmup.enabled is False:
        return Fail(f"{a.warmup_issued} request(s) issued before performance tracking, but warmup is disabled in "
                    "config.yaml: performance samples outside the tracked window", file=a.path,
                    observed=a.warmup_issued, expected=0)
    acc = _accuracy_samples(rf)
    if acc is not None and a.post_issued > acc:
        return Fail(f"{a.post_issued} request(s) issued after performance tracking stopped, but sample_idx_map.json "
                    f"lists only {acc} accuracy sample(s)", file=a.path, observed=a.post_issued, expected=acc)
    return Pass(f"{a.issued} tracked samples inside the window; {a.warmup_issued} warmup before, "
                f"{a.post_issued} accuracy after")


@rule(id="run-folder-events-warmup", title="Warmup not drawn from the performance prompts", clause="R§6.3.3",
      severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "has:events", "loaded:result_summary"))
def run_folder_events_warmup(rf, ctx):
    """Warmup prompts are not performance prompts, unless the warmup was salted.

    What it checks: each warmup prompt (sample.issued before tracking) against the prompts of the
    tracked samples; an unsalted warmup prompt equal to a performance prompt fails. A salted one
    (the client prefixes "[<16 hex>] ", settings.warmup.salt) passes and is reported.
    Why: R§6.3.3: warmup must not use performance-dataset samples; if it does, salting must be on.
    How to fix: Warm up on another dataset, or set settings.warmup.salt: true.
    """
    a = _perf_audit(rf, ctx)
    if not a.warmup_issued:
        return Pass("no warmup requests")
    if a.warmup_perf_overlap:
        return Fail(f"{a.warmup_perf_overlap} performance prompt(s) equal an unsalted warmup prompt "
                    f"({a.warmup_issued} warmup requests, {a.warmup_salted} salted)", file=a.path,
                    observed=a.warmup_perf_overlap, expected=0)
    if a.warmup_perf_overlap_salted:
        return Pass(f"warmup drawn from the performance prompts, salted ({a.warmup_salted}/{a.warmup_issued} "
                    "warmup prompts carry a salt)")
    return Pass(f"{a.warmup_issued} warmup prompts, none equal to a performance prompt")


@rule(id="run-folder-events-chunks", title="Intermediate chunks logged with stream_all_chunks",
      clause="R§6.5", severity="flag", scope="run-folder", needs=("config", "policy:run_folder", "maybe:accuracy", "has:events", "loaded:result_summary"))
def run_folder_events_chunks(rf, ctx):
    """With `stream_all_chunks: true`, the log holds the intermediate chunks (sample.recv_non_first).

    What it checks: settings.client.stream_all_chunks in config.yaml; when true, at least one
    sample.recv_non_first event for a tracked sample.
    Why: stream_all_chunks forwards every SSE chunk; none logged means the responses were not
    streamed incrementally (or the log was filtered).
    How to fix: Make the endpoint stream incrementally; keep the log whole.
    """
    a = _perf_audit(rf, ctx)
    flag = rf.files["config"].get("settings", "client", "stream_all_chunks")
    if flag is not True:
        return Skip(f"stream_all_chunks is {flag!r}: intermediate chunks are not logged", reason="not-applicable")
    if a.recv_non_first == 0 and a.completed:
        return Fail(f"stream_all_chunks is true but no sample.recv_non_first event for {a.completed} completed samples",
                    file=rf.files["config"], path=("settings", "client", "stream_all_chunks"), observed=0,
                    expected="> 0 intermediate chunks")
    per = a.recv_non_first / a.completed if a.completed else 0
    return Pass(f"{a.recv_non_first} intermediate chunks ({per:.1f} per completed sample)")


