"""Run-folder rules, part 1: layout, config.yaml, load pattern, completion (RUN-FOLDER.md §1, §7).

The binding run constraints come from "Run the measurement points" (R§6); what the client writes,
and its traps, from RUN-FOLDER.md. Each rule reads the files discovery loaded and the events audit
``checker.load.run_folder`` attached; none does I/O.
"""
from __future__ import annotations

import os
import re

from checker.core.findings import Severity
from checker.core.models import extras_of
from checker.core.rule import Fail, Pass, Skip, rule
from checker.load.models.client_config import config_format
from checker.core.values import is_int
from rules.run_folder.context import FIXED_PATTERNS, config, declared_offline, load_pattern, point, run_kind, summary
from rules.run_folder.ending import client_version, ending, entry_state as _state, scored_datasets
from rules.shared.run_checks import invalid_pattern, pattern_verdict

_PHASE = {"performance": "performance", "accuracy-only": "accuracy only", "empty": "no samples",
          "unknown": "unknown phases"}


@rule(id="run-folder-recognised", title="Run folder recognised", clause="R§8.1", severity="warn", scope="run-folder", needs=("maybe:accuracy", "maybe:config", "maybe:final_snapshot", "maybe:result_summary", "maybe:steady_state_json"))
def run_folder_recognised(rf, ctx):
    """PATH is a run folder written by the reference client (`inference-endpoint`); says which kind and which client.

    What it checks: the folder holds performance/result_summary.json, accuracy/accuracy_results.json,
    or events.jsonl with config.yaml, and reports what ran: a performance phase (with or without
    accuracy), an accuracy-only run (its result_summary.json is empty: 0 samples, null duration),
    or nothing; the client version that wrote it (result_summary.json `version`, `git_sha`) and its
    config format (older: settings.drain; newer: settings.timeouts); the detector's steady_state.json
    and run_meta.json when a later client wrote them. A key of result_summary.json or
    metrics/final_snapshot.json this checker does not know is a warning naming that client version:
    a newer client's, read as written and not checked, never an edit.
    Why: run folders are checked before bundling; an accuracy-only folder is not a measurement point;
    the client's files change with its versions.
    How to fix: Point the checker at the run folder itself (the directory holding config.yaml); for keys
    of a newer client, nothing to fix in the folder (a newer endpoints-checker may check them).
    """
    kind = run_kind(rf)
    acc = rf.files["accuracy"].exists
    if kind == "performance":
        what = "performance run" + (" with an accuracy phase" if acc else "")
    elif kind == "accuracy-only":
        what = "accuracy-only run (no performance phase: result_summary.json is empty)"
    else:
        what = f"run folder with {_PHASE[kind]}"
    if rf.layout == "flat":
        what += "; flat layout (see run-folder-files)"
    version = client_version(rf)
    c = config(rf)
    if c is not None:
        fmt = config_format(c.data)
        version += f"; config.yaml in {fmt.label}"
    extras = [n for n, k in (("steady_state.json", "steady_state_json"), ("run_meta.json", None))
              if (k and rf.files.get(k) is not None and rf.files[k].exists) or (not k and _state(rf, n) != "missing")]
    if extras:
        version += f"; later-client files: {', '.join(extras)}"
    unknown = _unknown_keys(rf)
    if unknown:
        (lf, keys), = unknown[:1]
        listing = "; ".join(f"{os.path.relpath(f.rel, rf.rel)}: {', '.join(k)}" for f, k in unknown)
        return Fail(f"{what}, written by {version}; key(s) this checker does not know, from a newer client than it "
                    f"knows: {listing} (read as written, not checked)", file=lf, path=(keys[0],), severity=Severity.WARN,
                    observed={os.path.relpath(f.rel, rf.rel): k for f, k in unknown}, expected="the keys it knows",
                    fix="Nothing to change in the folder: the client wrote these keys; a newer endpoints-checker may "
                        "check them.")
    return Pass(f"{what}, written by {version}")


#: keys the client writes that the typed models keep as written (agentic totals) or leave out
_KNOWN_EXTRA = {"result_summary": {"output_tokens_per_turn_total", "e2e_turn_time_seconds_total", "accuracy"},
                "final_snapshot": set()}


def _unknown_keys(rf) -> list:
    """[(LoadedFile, [keys])] of the top-level keys result_summary.json and final_snapshot.json hold that no model
    of this checker names."""
    out = []
    for kind in ("result_summary", "final_snapshot"):
        lf = rf.files.get(kind)
        model = lf.model if lf is not None and lf.ok else None
        if model is not None:
            keys = sorted(k for k in extras_of(model) if k not in _KNOWN_EXTRA[kind])
            if keys:
                out.append((lf, keys))
    return out


@rule(id="run-folder-files", title="Run folder holds what the client writes", clause="R§8.1",
      severity="reject", scope="run-folder", needs=("policy:run_folder", "maybe:accuracy", "maybe:config", "maybe:final_snapshot", "maybe:point_yaml", "maybe:result_summary", "maybe:system_desc"))
def run_folder_files(rf, ctx):
    """The folder has the client files `runs create` needs, in a form it accepts; what the audits read is named.

    What it checks: config.yaml (a mapping) and performance/result_summary.json (an object whose
    `duration_ns` is a number: `runs create` divides it to date the run, so the null an
    --accuracy-only run writes is refused) are present (run_folder.yaml `required_files`); a
    point.yaml, system_desc.json or system_power.json the submitter has added already parses (until
    they are added the PASS names them); accuracy/accuracy_results.json when config.yaml configures
    an accuracy dataset the client scores itself (it does so in every mode); sample_idx_map.json is a
    {phase: {uuid: row}} map; a flat layout with result_summary.json at the top fails and says what to
    move where. A missing audit input (report.txt, events.jsonl, sample_idx_map.json,
    metrics/final_snapshot.json: `audit_files`) is a warning naming what could not be audited. A run
    that was interrupted (no result_summary.json and an events.jsonl that stops mid-run) is said to be
    one, with the files the client did not write and what could not be audited; a newer client's
    interrupted run (`state: interrupted`) is run-folder-complete's, and its missing accuracy results are
    not a second finding. When the folders are assembled, bundle-run-files reports what `runs create`
    refuses instead.
    Why: the official `runs create` needs only system_desc.json, point.yaml, config.yaml and
    performance/result_summary.json (the submitter's two are added last), and refuses a flat folder
    ("missing required file(s): performance/result_summary.json") or an accuracy-only one
    (duration_ns null). RUN-FOLDER.md §7.1 lists the rest of the client's core set, but submitters
    prune multi-GB logs: their absence leaves audits undone, it contradicts nothing.
    How to fix: Keep the folder exactly as the client wrote it; rerun if a required file is missing;
    keep the logs to let the audits run.
    """
    pol = ctx.policy.get("run_folder")
    if rf.layout == "flat":
        return Fail("flat layout: result_summary.json sits at the top of the run folder",
                    file=rf.files["flat_result_summary"], observed="result_summary.json",
                    expected="performance/result_summary.json",
                    fix="Move result_summary.json into performance/ (and accuracy_results.json into accuracy/), "
                        "the layout the client writes.")
    required = list(pol.required_files) + ["performance/result_summary.json"]
    missing = [f for f in required if _state(rf, f) == "missing"]
    end = ending(rf, pol.external_scorers)
    if missing and end.interrupted and end.stop_line is not None:
        return Fail(f"{end.describe()}; `runs create` refuses the folder (missing {', '.join(missing)})", file=rf.rel,
                    observed=end.not_written, expected="the files of a finished run",
                    fix="Rerun the point to completion: an interrupted run cannot be submitted (a ^C to the client's "
                        "process group stops its event logger too, so the folder keeps only what was written so far).")
    if missing:
        return Fail(f"missing: {', '.join(missing)}", file=rf.rel, observed=missing, expected="present")
    refused = _runs_create(rf)
    marked = summary(rf) is not None and summary(rf).get("state") == "interrupted"
    if refused is not None and not marked:  # an interrupted run's refusal is said on run-folder-complete's line
        return refused
    audit = list(pol.audit_files)
    unaudited = [f for f in audit if _state(rf, f) == "missing"]
    present = required + [f for f in audit if f not in unaudited]
    unread = [f for f in present if f == "report.txt" or (f == "events.jsonl" and rf.events_audit is None)]
    unusable = [f"{f}: {_state(rf, f)[4:]}" for f in unread if _state(rf, f).startswith("bad:")]
    unusable += [f"{os.path.relpath(lf.rel, rf.rel)} does not parse: {lf.error.message}"
                 for lf in rf.files.values() if lf.error is not None and lf.error.code == "parse-error"
                 and lf.kind != "steady_state_json"]  # the detector's optional output: steady-state-detector's
    if unusable:  # the loaded files' other refusals are file-unreadable's, the logs' their audits'
        return Fail("; ".join(unusable), file=rf.rel, observed=unusable, expected="readable files of the client's kinds")
    scored = scored_datasets(rf, pol.external_scorers)
    interrupted_note = ""
    if scored and not rf.files["accuracy"].exists:
        if end.interrupted:  # the client skips scoring after an interrupt: run-folder-complete says so
            interrupted_note = (f"; no accuracy/accuracy_results.json: {end.describe()} (the client skips scoring "
                                "after an interrupt; see run-folder-complete)")
        else:
            return Fail(f"config.yaml configures accuracy dataset(s) {', '.join(scored)} but "
                        "accuracy/accuracy_results.json is missing: the accuracy phase did not finish",
                        file=rf.files["config"], path=("datasets",), observed="missing",
                        expected="accuracy/accuracy_results.json",
                        fix="Rerun the point; the client scores configured accuracy datasets in every mode.")
    if rf.idx_map is not None and rf.idx_map.error is not None:
        return Fail(f"sample_idx_map.json: {rf.idx_map.error}", file=rf.idx_map.path, observed=rf.idx_map.error,
                    expected="{phase: {sample_uuid: dataset_row}}")
    empty = [f for f in unread if _state(rf, f) == "empty"]
    if empty:  # the client always writes its report: an empty one is a copy that went wrong
        return Fail(f"{', '.join(empty)} is empty (0 bytes)", file=os.path.join(rf.rel, empty[0]), observed="empty",
                    expected="the client's report", severity=Severity.WARN)
    if unaudited:
        return Fail(f"not in the folder, so not audited: {', '.join(unaudited)} (`runs create` does not need "
                    f"them; the audits that read them SKIP)", file=rf.rel, observed=unaudited, expected="present",
                    severity=Severity.WARN,
                    fix="Keep the client's logs in the run folder to let the audits run (nothing else needs them).")
    todo = [n for n, k in (("point.yaml", "point_yaml"), ("system_desc.json", "system_desc"))
            if rf.files.get(k) is None or not rf.files[k].exists]
    tail = f"; before `runs create`, add {' and '.join(todo)}" if todo else ""
    return Pass(f"{', '.join(required + audit)} are present{tail}{interrupted_note}")


def _runs_create(rf):
    """What `runs create` refuses in the files present (endpoints-submission-cli 1.5.3.0), or None.

    Assembled folders leave it to bundle-run-files (one finding per cause); a folder checked on its own gets it
    here, so an accuracy-only run is refused while the machine is still booked, not weeks later.
    """
    if rf.context.get("assembled"):
        return None
    s = rf.files["result_summary"]
    if s.ok and not isinstance(s.data, dict):
        return Fail(f"performance/result_summary.json is a {type(s.data).__name__}, not an object: `runs create` "
                    "refuses the folder", file=s, observed=type(s.data).__name__, expected="an object")
    if s.ok:
        d = s.data.get("duration_ns", 0)
        if isinstance(d, bool) or not isinstance(d, (int, float)):
            acc = run_kind(rf) == "accuracy-only"
            return Fail(f"performance/result_summary.json duration_ns is {d!r}: `runs create` divides it to date the "
                        "run and stops with a TypeError, so it refuses the folder"
                        + (" (an --accuracy-only run writes null)" if acc else ""), file=s, path=("duration_ns",),
                        observed=d, expected="a number of nanoseconds",
                        fix="Run the accuracy phase with --mode both, in the performance run's folder (an "
                            "--accuracy-only run writes duration_ns: null)." if acc else
                        "Keep the result_summary.json the client wrote for this run.")
    for name, kind in (("config.yaml", "config"), ("point.yaml", "point_yaml")):
        lf = rf.files.get(kind)
        if lf is not None and lf.ok and not isinstance(lf.data, dict):
            return Fail(f"{name} is a {type(lf.data).__name__}, not a mapping: `runs create` refuses the folder",
                        file=lf, observed=type(lf.data).__name__, expected="a mapping")
    return None


def _secret_paths(node, patterns, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            p = path + (k,)
            if isinstance(k, str) and any(r.search(k.lower()) for r in patterns) and v not in (None, "<redacted>", ""):
                if not isinstance(v, (dict, list)):
                    yield p
            yield from _secret_paths(v, patterns, p)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _secret_paths(v, patterns, path + (i,))
    elif isinstance(node, str) and _URL_CRED.search(node):
        yield path


_URL_CRED = re.compile(r"://[^/@\s:]+:[^/@\s]+@|[?&](api[_-]?key|token|access_token|key|secret|password|sig)=(?!<redacted>)[^&\s]+",
                       re.IGNORECASE)


@rule(id="run-folder-config", title="config.yaml parses, secrets redacted", clause="R§2.1.1",
      severity="flag", scope="run-folder", needs=("config", "policy:run_folder"))
def run_folder_config(rf, ctx):
    """config.yaml is the client's resolved config: a mapping, and no credential left in clear.

    What it checks: config.yaml parses to a mapping with settings.load_pattern, settings.runtime
    and model_params; every key that names a credential (api_key, *_token, *_key, password,
    secret...) holds `<redacted>`, and no URL carries a user:password or a secret query parameter.
    The value of such a key is never printed, only its path.
    Why: the client writes config.yaml with secrets redacted (RUN-FOLDER.md §1.1); a file edited by
    hand or written by another tool can leak a credential into a public submission.
    How to fix: Replace the credential with `<redacted>` (and rotate it), or rerun the client.
    """
    lf = rf.files["config"]
    if not isinstance(lf.data, dict):
        return Fail(f"config.yaml holds a {type(lf.data).__name__}, not a mapping", file=lf,
                    observed=type(lf.data).__name__, expected="a mapping")
    pol = ctx.policy.get("run_folder")
    patterns = [re.compile(p) for p in pol.secret_key_patterns]
    leaks = sorted({tuple(p) for p in _secret_paths(lf.data, patterns)}, key=str)
    if leaks:
        where = ", ".join(".".join(str(x) for x in p) for p in leaks[:5])
        return Fail(f"credential-looking value(s) not redacted at: {where}", file=lf, path=leaks[0],
                    observed="<not redacted: value withheld>", expected="<redacted>")
    missing = [k for k in (("settings", "load_pattern"), ("settings", "runtime"), ("model_params",))
               if not isinstance(lf.get(*k), dict)]
    if missing:
        return Fail(f"not the client's resolved config: missing {', '.join('.'.join(k) for k in missing)}", file=lf,
                    observed="missing", expected="settings.load_pattern, settings.runtime, model_params")
    return Pass("config.yaml is a resolved client config with credentials redacted")


@rule(id="run-folder-load-pattern", title="Load pattern is concurrency", clause="R§6.1", severity="reject-points", scope="run-folder", needs=("maybe:accuracy", "maybe:config", "maybe:point_yaml", "maybe:result_summary"))
def run_folder_load_pattern(rf, ctx):
    """The run used the `concurrency` load pattern (max_throughput only for a dedicated Offline point).

    What it checks: settings.load_pattern.type in config.yaml (and run_config.load_pattern.type in
    result_summary.json, which must agree) is `concurrency` (`agentic_inference` for an agentic
    benchmark); `max_throughput` passes only when the
    point.yaml (beside the folder or --point) declares `offline: dedicated`; `poisson` never passes.
    Why: R§6.1 makes fixed concurrency the only valid pattern for a Pareto point.
    How to fix: Rerun with `load_pattern: {type: concurrency, target_concurrency: N}`.
    """
    if run_kind(rf) == "accuracy-only":
        return Skip("accuracy-only run: the client forces concurrency 1; no performance phase", reason="not-applicable")
    kind, _ = load_pattern(rf)
    c, s = config(rf), summary(rf)
    if c is not None and s is not None:
        rc = s.get("run_config", "load_pattern", "type")
        if rc is not None and kind is not None and rc != kind:
            return Fail(f"config.yaml says {kind!r} but result_summary.json run_config says {rc!r}", file=s,
                        path=("run_config", "load_pattern", "type"), observed=rc, expected=kind)
    src = c if c is not None else s
    path = ("settings", "load_pattern", "type") if c is not None else ("run_config", "load_pattern", "type")
    verdict = pattern_verdict(kind)
    if verdict == "missing":
        return Skip("input missing: no load pattern in config.yaml or result_summary.json", reason="missing-input")
    if verdict == "fixed":
        return Pass(f"load pattern {kind}" + (" (agentic benchmark)" if kind == "agentic_inference" else ""))
    if verdict == "offline":
        if declared_offline(rf):
            return Pass("max_throughput, declared as the dedicated Offline point")
        if point(rf) is None:
            return Skip("max_throughput is valid only for a dedicated Offline point: give --point point.yaml "
                        "(or put point.yaml beside the folder) to check the declaration", reason="missing-context")
        return Fail("max_throughput, but point.yaml does not declare offline: dedicated", file=src, path=path,
                    observed=kind, expected="concurrency (or offline: dedicated in point.yaml)")
    return invalid_pattern(kind, src, path)


@rule(id="run-folder-concurrency-target", title="Concurrency at the declared target", clause="R§6.1",
      severity="reject-points", scope="run-folder", needs=("maybe:accuracy", "maybe:config", "maybe:point_yaml", "maybe:result_summary"))
def run_folder_concurrency_target(rf, ctx):
    """The run's target_concurrency equals the point's declared concurrency.

    What it checks: settings.load_pattern.target_concurrency (config.yaml) and
    run_config.load_pattern.target_concurrency (result_summary.json) equal point.yaml's
    `concurrency` (point.yaml beside the folder, or --point).
    Why: the point is published at its declared concurrency; a run at another level measures
    something else (R§6.1).
    The finding is on point.yaml's `concurrency` (the file the user edits; the client's files record
    the run and are never edited); only a re-run fixes it.
    How to fix: Re-run at the declared concurrency.
    """
    kind, target = load_pattern(rf)
    if run_kind(rf) == "accuracy-only":
        return Skip("accuracy-only run: no performance phase", reason="not-applicable")
    if kind not in FIXED_PATTERNS:
        return Skip(f"not a fixed-concurrency performance run ({kind or 'no load pattern'})", reason="not-applicable")
    s = summary(rf)
    rc = s.get("run_config", "load_pattern", "target_concurrency") if s is not None else None
    if rc is not None and target is not None and rc != target:
        return Fail(f"config.yaml target_concurrency {target} but run_config says {rc}", file=s,
                    path=("run_config", "load_pattern", "target_concurrency"), observed=rc, expected=target)
    p = point(rf)
    if p is None or not is_int(p.concurrency):
        return Skip(f"ran at concurrency {target}; no declared target to compare: give --point point.yaml "
                    "(or put point.yaml beside the folder)", reason="missing-context")
    src = "--point" if rf.context.get("point_yaml") == "--point" else "point.yaml beside the folder"
    if target != p.concurrency:
        c = config(rf)
        where = "config.yaml settings.load_pattern.target_concurrency" if c else \
            "result_summary.json run_config.load_pattern.target_concurrency"
        return Fail(f"the run went at concurrency {target} ({where}), not the {p.concurrency} point.yaml declares "
                    f"({src}): only a re-run at {p.concurrency} fixes it", file=rf.files["point_yaml"],
                    path=("concurrency",), observed=target, expected=p.concurrency,
                    fix=f"Re-run the point at concurrency {p.concurrency} (`target_concurrency: {p.concurrency}`); "
                        "config.yaml and result_summary.json are the client's record of the run and are never edited.")
    return Pass(f"concurrency {target} as declared ({src})")


@rule(id="run-folder-complete", title="The run finished without dropping requests", clause="R§6.4, R§9.1",
      severity="reject-points", scope="run-folder", needs=("result_summary", "policy:run_folder", "maybe:accuracy", "maybe:config", "maybe:final_snapshot", "maybe:point_yaml"))
def run_folder_complete(rf, ctx):
    """The run finished: `complete` true, `state` complete, and every issued request completed.

    What it checks: result_summary.json `state` is "complete" and `complete` is true (an
    interrupted or drained-out run: reject-points, as `run-complete` in a package; an interrupted
    run is said to be one, with the client version that wrote it, the files it did not write and
    what could not be audited); the counters keep the client's invariant failed <= completed <=
    issued (completed INCLUDES failures, RUN-FOLDER.md §7.2), and the later client's
    `n_samples_succeeded` (completed - failed) and `n_samples_dropped` (issued - completed) agree
    with them; no request was dropped (issued - completed = 0: a max_duration cap or SIGINT drops
    in-flight requests and the client at `main` still reports complete, §7.3); no request failed.
    The counter, dropped and failed findings are flags, as `metric-consistency-accounting` and
    `samples-dropped` are in a package: the same fact has the same severity in both modes.
    Why: RULES.md §2.7 and §12: `complete: false` or `state: interrupted` (drained out or
    interrupted) makes the point unusable, and an unusable point is a non-conforming point (R§9.1
    "Reject points"); "complete is true" is the Verify step of running a point. Dropped or failed
    requests leave the metrics incomplete (R§6.4), a reviewer's call.
    How to fix: Rerun the point to completion, without a duration cap that cuts the run, and fix the failures.
    """
    lf = rf.files["result_summary"]
    d = lf.data if isinstance(lf.data, dict) else {}
    state, complete = d.get("state"), d.get("complete")
    if state == "interrupted":
        end = ending(rf, ctx.policy.get("run_folder").external_scorers)
        refused = _runs_create(rf)
        also = f"; {refused.message}" if refused is not None else ""
        return Fail(f"{end.describe()}; written by {client_version(rf)}: the point is not usable{also}", file=lf,
                    path=("state",), observed=state, expected="complete",
                    fix="Rerun the point to completion (an interrupted run cannot be submitted).")
    if state != "complete":
        return Fail(f"state is {state!r}: the run did not finish (interrupted), the point is not usable", file=lf,
                    path=("state",), observed=state, expected="complete")
    if complete is not True:
        return Fail(f"complete is {complete!r} (a tokenizer drain timed out or the run was interrupted): the point is "
                    "not usable", file=lf, path=("complete",), observed=complete, expected=True)
    flag = Severity.FLAG
    issued, completed, failed = (d.get(k) for k in ("n_samples_issued", "n_samples_completed", "n_samples_failed"))
    if not all(is_int(x) for x in (issued, completed, failed)):
        return Fail("n_samples_issued/completed/failed are not all integers", file=lf, path=("n_samples_issued",),
                    observed=[issued, completed, failed], expected="integers", severity=flag)
    if not 0 <= failed <= completed <= issued:
        return Fail(f"counters break failed <= completed <= issued: {failed} / {completed} / {issued}", file=lf,
                    path=("n_samples_completed",), observed=[failed, completed, issued],
                    expected="failed <= completed <= issued", severity=flag)
    for key, want, how in (("n_samples_succeeded", completed - failed, "completed - failed"),
                           ("n_samples_dropped", issued - completed, "issued - completed")):
        if key in d and d[key] != want:  # the later client's own counts: the same accounting, written out
            return Fail(f"{key} {d[key]!r} != {how} = {want}", file=lf, path=(key,), observed=d[key], expected=want,
                        severity=flag)
    if issued == 0:
        return Pass("complete; no performance samples (accuracy-only run)") if run_kind(rf) == "accuracy-only" \
            else Fail("complete, but no performance sample was issued", file=lf, path=("n_samples_issued",),
                      observed=0, expected="> 0", severity=flag)
    if completed < issued:
        own = "n_samples_dropped" if "n_samples_dropped" in d else "n_samples_completed"
        return Fail(f"{issued - completed} of {issued} requests dropped (issued {issued}, completed {completed}); "
                    "the run was cut (max_duration cap or interrupt)", file=lf, path=(own,),
                    observed=d[own], expected=0 if own == "n_samples_dropped" else issued, severity=flag)
    if failed:
        return Fail(f"{failed} of {issued} requests failed (they count as completed; successes {completed - failed})",
                    file=lf, path=("n_samples_failed",), observed=failed, expected=0, severity=flag)
    extra = ", ".join(f"{k[10:]} {d[k]}" for k in ("n_samples_succeeded", "n_samples_dropped") if k in d)
    return Pass(f"complete: {issued} issued, {completed} completed, 0 failed" + (f" ({extra})" if extra else ""))
