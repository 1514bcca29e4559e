"""Run-folder rules, part 2: duration, samples, streaming, seeds, warmup, accuracy, counters (R§6).

Context (point.yaml, C_max, seed set, dataset size) is optional; a rule that needs what is not
given SKIPs and names the flag that would enable it.
"""
from __future__ import annotations

from checker.load.models.accuracy import score_items
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from rules.shared.run_checks import passes_problem, seeds_outcome, streaming_value
from checker.load.models.client_config import config_format
from checker.core.values import is_int
from rules.run_folder.context import (SEED_KEYS, config, dataset_size, declared_offline, idx_map, idx_map_lower_bound,
                                      load_pattern, point, run_kind, seed_set, summary)
from rules.run_folder.ending import ending
from rules.run_folder.steady import detector_file, detector_reading, run_minimum


def _perf_only(rf, finished: bool = True) -> None:
    """``Skipped`` for an accuracy-only run; with ``finished``, also for an interrupted one (what it ran is not the
    point's run: its length and count are consequences of the interrupt run-folder-complete reports)."""
    if run_kind(rf) == "accuracy-only":
        raise Skipped("accuracy-only run: no performance phase", reason="not-applicable")
    s = summary(rf)
    if finished and s is not None and s.get("state") == "interrupted":  # one finding for the interrupt: run-folder-complete's
        raise Skipped("the run was interrupted (see run-folder-complete): what it ran is not the point's run",
                      reason="interrupted-run")


@rule(id="run-folder-duration", title="Duration meets the region minimum", clause="R§6.2", severity="flag", scope="run-folder", needs=("result_summary", "policy:run_folder", "policy:run_rules", "maybe:accuracy", "maybe:config", "maybe:point_yaml", "maybe:steady_state_json", "maybe:system_desc"))
def run_folder_duration(rf, ctx):
    """The performance phase lasted at least its region's minimum: 600 s ultra_low, 1,200 s otherwise.

    What it checks: the basis R§4.4 makes official. The steady-state window's issue-time span when the
    window is the official result: point.yaml's steady_state.window.duration_s when its status is
    `windowable` (or states none), or the window of the detector's steady_state.json in the folder
    when that is windowable; else result_summary.json `duration_ns` (the whole tracked run, ramp-up
    and drain included), which is also what a point whose window falls short (insufficient_duration,
    insufficient_passes) publishes. The message says which basis was used. Concurrency <= 32 is Ultra
    Low whatever C_max is; a dedicated Offline run needs 1,200 s. A window (from --point or a
    point.yaml beside the folder) longer than the folder's own tracked duration is a contradiction and
    FAILs: it never makes the duration pass.
    Why: R§6.2, measured as R§4.4 says; the client never enforces a minimum (RUN-FOLDER.md §7.5).
    How to fix: Rerun the point for longer: more dataset passes (n_samples_to_issue), and in the
    client's older config format a min_duration_ms above the minimum.
    """
    _perf_only(rf)
    pol = ctx.policy.get("run_folder")
    region, minimum = run_minimum(rf, ctx)
    lf = rf.files["result_summary"]
    p = point(rf)
    block = p.steady_state if p is not None else None
    win = block.window if block is not None else None
    status = block.status if block is not None else None
    dur = lf.get("duration_ns")
    detected = detector_reading(rf, ctx)
    note = ""
    if win is not None and isinstance(win.duration_s, (int, float)) and status in (None, "windowable"):
        seconds, basis, src, path = float(win.duration_s), "steady-state window (point.yaml)", \
            rf.files["point_yaml"], ("steady_state", "window", "duration_s")
        tracked = dur / 1e9 if is_int(dur) and dur > 0 else None
        if tracked is not None and seconds * 1e9 > dur + pol.tolerances.duration_ns:
            # the window lies inside the tracked run: a longer one describes another run
            return Fail(f"point.yaml's steady-state window spans {seconds:.1f} s, longer than this run's own tracked "
                        f"duration {tracked:.1f} s (result_summary.json duration_ns): the point.yaml does not "
                        f"describe this run; the run itself is {'below' if tracked < minimum else 'at or above'} the "
                        f"{minimum} s minimum" + (f" for {region}" if region else ""), file=src, path=path,
                        observed=seconds, expected=f"<= {tracked:.3f} (the tracked duration)",
                        fix="Use the point.yaml written for this run (its steady-state window comes from this run's "
                            "events), or rerun the point long enough.")
    elif block is None and detected is not None and detected.status == "windowable":
        seconds, basis, src, path = detected.span_s, "steady-state window (steady_state.json, issue time)", \
            detector_file(rf), ("steady_state", "window")
    else:
        if not is_int(dur) or dur <= 0:
            return Fail(f"duration_ns is {dur!r}", file=lf, path=("duration_ns",), observed=dur, expected="> 0")
        if status not in (None, "windowable"):
            note = f"; point.yaml's steady-state status {status} makes the whole run the official basis"
        elif block is None and detected is not None and detected.passes is not None:
            note = (f"; the detector's window ({detected.window_words()}) is not the official basis (status "
                    f"{detected.status or 'unknown'})")
        seconds, basis, src, path = dur / 1e9, "whole tracked run, ramp-up and drain included" + (
            "" if note else " (no steady-state window)"), lf, ("duration_ns",)
    if region is None:  # no region: only the smallest minimum of any region can be applied
        if seconds < minimum:
            return Fail(f"{seconds:.1f} s < {minimum} s, the smallest minimum of any region (load pattern "
                        f"{load_pattern(rf)[0]!r} places the run in no region); measured on the {basis}{note}",
                        file=src, path=path, observed=round(seconds, 3), expected=f">= {minimum}")
        return Skip(f"{seconds:.1f} s; load pattern {load_pattern(rf)[0]!r} places the run in no region: give --point "
                    "for a dedicated Offline point", reason="missing-context")
    if seconds < minimum:
        return Fail(f"{seconds:.1f} s < {minimum} s minimum for {region}; measured on the {basis}{note}", file=src,
                    path=path, observed=round(seconds, 3), expected=f">= {minimum}", fix=_longer(rf))
    return Pass(f"{seconds:.1f} s >= {minimum} s for {region}; measured on the {basis}{note}")


def _longer(rf) -> str:
    """How to run longer, in the words of the config's own client format."""
    c = config(rf)
    fmt = config_format(c.data) if c is not None else None
    if fmt is not None and fmt.name == "older":
        return "Rerun the point for longer: min_duration_ms above the minimum and n_samples_to_issue large enough."
    if fmt is not None and fmt.name == "newer":
        cap = f", without settings.runtime.{fmt.cap_key}" if fmt.cap_key else ""
        return ("Rerun the point for longer: n_samples_to_issue large enough (whole dataset passes) to last the "
                f"minimum at this throughput{cap} (this client format has no minimum duration for a concurrency run).")
    return "Rerun the point for longer: n_samples_to_issue large enough (whole dataset passes) to last the minimum."


@rule(id="run-folder-sample-count", title="Full dataset passes", clause="R§6.4", severity="flag", scope="run-folder", needs=("result_summary", "policy:models", "maybe:accuracy", "maybe:config", "maybe:point_yaml"))
def run_folder_sample_count(rf, ctx):
    """At least one full pass over the dataset, and samples issued a whole multiple of its size.

    What it checks: n_samples_completed >= dataset size and n_samples_issued % size == 0. The size
    comes from --dataset-size, else policy data (the dataset or model point.yaml/config.yaml
    names). Without it, sample_idx_map.json still gives a lower bound (largest row index + 1): a
    run that issued fewer samples than that cannot have made a full pass.
    Why: R§6.4 (minimum completed queries, whole multiple); not checked by the official tool.
    How to fix: Set n_samples_to_issue to a whole multiple of the dataset size, at least one pass.
    """
    _perf_only(rf)
    lf = rf.files["result_summary"]
    issued, completed = lf.get("n_samples_issued"), lf.get("n_samples_completed")
    if not is_int(issued) or not is_int(completed):
        return Fail("n_samples_issued/n_samples_completed are not integers", file=lf, path=("n_samples_issued",),
                    observed=[issued, completed], expected="integers")
    size, where = dataset_size(rf, ctx)
    if size is None:
        bound = idx_map_lower_bound(rf)
        if bound is not None and issued < bound:
            return Fail(f"{issued} samples issued, but sample_idx_map.json shows the dataset has at least {bound} rows: "
                        "less than one full pass", file=lf, path=("n_samples_issued",), observed=issued,
                        expected=f">= {bound} (one pass)")
        return Skip(where, reason="missing-context")
    which, text = passes_problem(issued, completed, size)
    if which == "completed":
        return Fail(f"{text} (size from {where})", file=lf, path=("n_samples_completed",), observed=completed,
                    expected=f">= {size}")
    if which == "issued":
        return Fail(f"{text} (size from {where})", file=lf, path=("n_samples_issued",), observed=issued,
                    expected=f"a multiple of {size}")
    return Pass(f"{text} (size from {where})")


@rule(id="run-folder-streaming", title="Streaming on", clause="R§6.5", severity="flag",
      scope="run-folder", needs=("config", "maybe:accuracy", "maybe:point_yaml", "maybe:result_summary"))
def run_folder_streaming(rf, ctx):
    """A fixed-concurrency performance run streams its responses (`model_params.streaming: on`).

    What it checks: config.yaml model_params.streaming resolved to "on" (rules d2d9da6, R§6.5); a
    dedicated Offline run is exempt. `stream_all_chunks` is free under those rules and reported
    (the 09-24 rules and checker v1.1.0.0 still require it true).
    Why: TTFT and TPOT are only measurable on streamed responses.
    How to fix: Set model_params.streaming: on and rerun.
    """
    _perf_only(rf, finished=False)
    lf = rf.files["config"]
    kind, _ = load_pattern(rf)
    if kind == "max_throughput" and declared_offline(rf):
        return Skip("dedicated Offline run: exempt from streaming", reason="not-applicable")
    streaming, _note = streaming_value(lf.data)
    chunks = lf.get("settings", "client", "stream_all_chunks")
    if streaming != "on":
        return Fail(f"model_params.streaming is {streaming!r}", file=lf, path=("model_params", "streaming"),
                    observed=streaming, expected="on")
    return Pass(f"streaming on; stream_all_chunks {chunks!r} (either value allowed by rules d2d9da6)")


@rule(id="run-folder-seeds", title="Seeds equal the bound seed set", clause="R§2.1.1", severity="reject", scope="run-folder", needs=("config", "policy:run_folder", "policy:cohort_rules", "policy:seed_sets", "maybe:point_yaml", "maybe:result_summary"))
def run_folder_seeds(rf, ctx):
    """The RNG seeds in config.yaml and in result_summary.json's run_config equal the bound seed set.

    What it checks: settings.runtime.scheduler_random_seed and dataloader_random_seed (config.yaml)
    agree with run_config's copies, and equal the bound set's scheduler_rng_seed and
    sample_index_rng_seed. The set comes from --seed-set or point.yaml `seed_set`; the values from
    the seed-set registry (rules/policy/v1.0/seed_sets.yaml, or --seed-sets).
    Why: R§2.1.1 / R§9.1: every point runs with the published seeds of its one bound set.
    How to fix: Copy the bound set's seeds into settings.runtime and rerun.
    """
    lf = rf.files["config"]
    s = summary(rf)
    if s is not None and isinstance(s.get("run_config"), dict):
        for key in SEED_KEYS:
            a, b = lf.get("settings", "runtime", key), s.get("run_config", key)
            if b is not None and a != b:
                # the run_config in result_summary.json is the client's record of what ran: the line is at config.yaml
                return Fail(f"{key}: config.yaml has {a!r}, run_config has {b!r}", file=lf,
                            path=("settings", "runtime", key), observed=a, expected=b,
                            fix=f"config.yaml is the client's copy of the run's settings: put back {key}: {b!r} "
                                "(what performance/result_summary.json's run_config says ran).")
    set_id, where = seed_set(rf, ctx)
    if set_id is None:
        return Skip(where, reason="missing-context")
    return seeds_outcome(lf, set_id, where, ctx)


@rule(id="run-folder-warmup", title="Warmup at most 24 h and excluded", clause="R§6.3", severity="flag", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "maybe:config", "maybe:final_snapshot", "maybe:point_yaml", "maybe:result_summary"))
def run_folder_warmup(rf, ctx):
    """Warmup lasted at most 24 h and none of it is counted in the metrics.

    What it checks: the span from the first warmup request to the start of performance tracking
    (events.jsonl; else point.yaml warmup.duration_s) is <= 86,400 s; the tracked counters of
    metrics/final_snapshot.json exclude the warmup (total issued = tracked + warmup + accuracy). The
    counters are not compared when events.jsonl stops with performance tracking on (an interrupted run
    whose event logger died) or the snapshot is an interrupted run's: the log then holds less than the
    snapshot counted, which says nothing of the warmup.
    Why: R§6.3: warmup is optional, at most 24 h per point, fully excluded from metrics.
    How to fix: Shorten the warmup; rerun with the client's warmup block, not requests sent by hand.
    """
    pol = ctx.policy.get("run_folder")
    audit = rf.events_audit if ctx.opt("events", True) else None
    if audit is not None and audit.error is None:
        span = audit.warmup_span_ns
        if span is not None and span > pol.warmup_max_s * 1e9:
            return Fail(f"warmup lasted {span / 1e9:.0f} s > {pol.warmup_max_s} s", file=audit.path,
                        observed=round(span / 1e9, 3), expected=f"<= {pol.warmup_max_s}")
        snap = rf.files.get("final_snapshot")
        counters = _counters(snap)
        total, tracked = counters.get("total_samples_issued"), counters.get("tracked_samples_issued")
        cut = audit.cut_in_tracking or ending(rf, pol.external_scorers).interrupted
        note = "; the snapshot's counters are not compared: " + (
            f"events.jsonl stops at line {audit.lines} with performance tracking on" if audit.cut_in_tracking else
            "the run was interrupted") if cut else ""
        if is_int(total) and is_int(tracked) and not cut:
            want = audit.issued + audit.warmup_issued + audit.post_issued
            if tracked != audit.issued or total != want:
                return Fail(f"final_snapshot counts {tracked} tracked of {total} issued; events.jsonl has {audit.issued} "
                            f"tracked + {audit.warmup_issued} warmup + {audit.post_issued} after tracking",
                            file=snap, observed=[tracked, total], expected=[audit.issued, want],
                            fix="Keep metrics/final_snapshot.json and events.jsonl of the same run, unedited; send no "
                                "requests to the endpoint from outside the client during a run.")
        if not audit.warmup_issued:
            return Pass("no warmup requests" + note)
        return Pass((f"{audit.warmup_issued} warmup requests over {span / 1e9:.1f} s, excluded from the tracked counters"
                     if span is not None else f"{audit.warmup_issued} warmup requests, excluded") + note)
    p = point(rf)
    if p is not None and p.warmup is not None and isinstance(p.warmup.duration_s, (int, float)):
        d = p.warmup.duration_s
        if d > pol.warmup_max_s:
            return Fail(f"point.yaml warmup.duration_s {d} > {pol.warmup_max_s}", file=rf.files["point_yaml"],
                        path=("warmup", "duration_s"), observed=d, expected=f"<= {pol.warmup_max_s}")
        return Pass(f"point.yaml declares {d} s of warmup (events audit not run)")
    return Skip("warmup not measurable: events.jsonl not audited (--no-events or missing) and no point.yaml "
                "warmup.duration_s (give --point)", reason="missing-context")


def _counters(lf) -> dict:
    if lf is None or not lf.ok or not isinstance(lf.get("metrics"), list):
        return {}
    return {m["name"]: m.get("value") for m in lf.get("metrics")
            if isinstance(m, dict) and m.get("type") == "counter" and isinstance(m.get("name"), str)}


@rule(id="run-folder-accuracy", title="Accuracy phase complete", clause="R§4.3", severity="reject-points", scope="run-folder", needs=("maybe-loaded:accuracy",))
def run_folder_accuracy(rf, ctx):
    """An accuracy phase, when present, is complete and scored every sample it issued.

    What it checks: each accuracy_scores entry of accuracy/accuracy_results.json of dataset_type
    "accuracy" has `complete` true, response_counts issued == scored + empty + missing with
    missing 0, total_samples == unit_samples x num_repeats, and sample_idx_map.json holds one row
    per unit sample for the dataset.
    Why: the scorer divides by issued samples, so missing completions silently count as wrong
    (RUN-FOLDER.md §1.6); an incomplete accuracy run is not a result.
    How to fix: Rerun the accuracy phase to completion (no accuracy_timeout_s cut).
    """
    lf = rf.files["accuracy"]
    if not lf.exists:
        return Skip("no accuracy phase in this run folder", reason="not-applicable")
    scores = lf.get("accuracy_scores")
    if not isinstance(scores, (list, dict)) or not scores:
        return Fail("accuracy_scores is missing or empty", file=lf, path=("accuracy_scores",),
                    observed=scores, expected="one entry per scored dataset (a list, or a mapping keyed by dataset)")
    idx = idx_map(rf)
    for i, e in score_items(scores):
        if not isinstance(e, dict) or e.get("dataset_type") != "accuracy":
            continue
        name = e.get("dataset_name", i if isinstance(scores, dict) else None)
        if e.get("complete") is not True:
            return Fail(f"{name}: complete is {e.get('complete')!r}", file=lf, path=("accuracy_scores", i, "complete"),
                        observed=e.get("complete"), expected=True)
        rc = e.get("response_counts")
        if isinstance(rc, dict):
            vals = [rc.get(k) for k in ("issued", "scored", "empty", "missing")]
            if not all(is_int(v) for v in vals) or vals[3] != 0 or vals[0] != vals[1] + vals[2] + vals[3]:
                return Fail(f"{name}: response_counts {rc} (missing responses, or issued != scored+empty+missing)",
                            file=lf, path=("accuracy_scores", i, "response_counts"), observed=rc,
                            expected="missing 0, issued = scored + empty + missing")
        u, r, t = e.get("unit_samples"), e.get("num_repeats"), e.get("total_samples")
        if all(is_int(x) for x in (u, r, t)) and u * r != t:
            return Fail(f"{name}: total_samples {t} != unit_samples {u} x num_repeats {r}", file=lf,
                        path=("accuracy_scores", i, "total_samples"), observed=t, expected=u * r)
        n = idx.count(name) if idx is not None and isinstance(name, str) else None
        if n is not None and is_int(u) and n not in (u, t):
            return Fail(f"{name}: sample_idx_map.json maps {n} samples, the scorer reports {u}", file=idx.path,
                        path=(name,), observed=n, expected=u)
    return Pass(f"{len(scores)} scored dataset(s), complete, every issued sample scored")


_PAIRS = (("n_samples_issued", "tracked_samples_issued"), ("n_samples_completed", "tracked_samples_completed"),
          ("n_samples_failed", "tracked_samples_failed"))


@rule(id="run-folder-snapshot-agreement", title="Summary agrees with the final snapshot", clause="R§9.1",
      severity="flag", scope="run-folder", needs=("result_summary", "final_snapshot"))
def run_folder_snapshot_agreement(rf, ctx):
    """result_summary.json agrees with metrics/final_snapshot.json, the raw source it is built from.

    What it checks: n_samples_issued/completed/failed equal the tracked_samples_* counters;
    duration_ns equals tracked_duration_ns (null when 0); state is the snapshot's; complete equals
    (state == "complete" and n_pending_tasks == 0); finish_reason_counts equal the
    tracked_finish_reason_* counters; sample_idx_map.json's "performance" map has one entry per
    issued sample.
    Why: the Report is derived from the snapshot (RUN-FOLDER.md §1.3); a disagreement means one of
    them was edited or comes from another run.
    How to fix: Use the files of one run, unedited.
    """
    lf, snap = rf.files["result_summary"], rf.files["final_snapshot"]
    c = _counters(snap)
    if not c:
        return Fail("final_snapshot.json holds no counters", file=snap, path=("metrics",), observed="none",
                    expected="tracked_samples_* counters")
    for sk, ck in _PAIRS:
        if lf.get(sk) != c.get(ck):
            return Fail(f"{sk} {lf.get(sk)!r} != final_snapshot {ck} {c.get(ck)!r}", file=lf, path=(sk,),
                        observed=lf.get(sk), expected=c.get(ck))
    td = c.get("tracked_duration_ns")
    want = td if td else None
    if lf.get("duration_ns") != want:
        return Fail(f"duration_ns {lf.get('duration_ns')!r} != final_snapshot tracked_duration_ns {td!r}", file=lf,
                    path=("duration_ns",), observed=lf.get("duration_ns"), expected=want)
    if snap.get("state") is not None and lf.get("state") != snap.get("state"):
        return Fail(f"state {lf.get('state')!r} != final_snapshot state {snap.get('state')!r}", file=lf,
                    path=("state",), observed=lf.get("state"), expected=snap.get("state"))
    pending = snap.get("n_pending_tasks")
    if is_int(pending):
        want_c = snap.get("state") == "complete" and pending == 0
        if lf.get("complete") is not want_c:
            return Fail(f"complete {lf.get('complete')!r}, but the snapshot says state {snap.get('state')!r} with "
                        f"{pending} pending tasks", file=lf, path=("complete",), observed=lf.get("complete"),
                        expected=want_c)
    frc = lf.get("finish_reason_counts")
    if isinstance(frc, dict):
        for k, v in sorted(frc.items()):
            ck = f"tracked_finish_reason_{k}"
            if ck in c and c[ck] != v:
                return Fail(f"finish_reason_counts.{k} {v!r} != final_snapshot {ck} {c[ck]!r}", file=lf,
                            path=("finish_reason_counts", k), observed=v, expected=c[ck])
    idx = idx_map(rf)
    n = idx.count("performance") if idx is not None else None
    issued = lf.get("n_samples_issued")
    if is_int(issued) and (n or 0) != issued and (n is not None or issued > 0) and idx is not None:
        return Fail(f"sample_idx_map.json maps {n or 0} performance samples, n_samples_issued is {issued}",
                    file=idx.path, path=("performance",), observed=n or 0, expected=issued)
    return Pass("counters, duration, state and finish reasons agree with metrics/final_snapshot.json")
