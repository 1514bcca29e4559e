"""The steady-state detector's own output in a run folder (steady_state.json, R§4.4).

The client's detector writes its plateau without R§8.3's words; ``checker.domain.steady_state`` reads it in
them (the window over the tracked run, its issue-time span from events.jsonl, the status and the verdict),
the same reading `draft` writes into point.yaml. This rule says what the folder's window is worth, and
that a point.yaml beside the folder says the same.
"""
from __future__ import annotations

import math

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from rules.run_folder.context import point
from rules.run_folder.steady import detector_file, detector_reading, run_minimum

#: the point.yaml window keys compared with the detector's (duration_s within _SPAN_TOL seconds)
_WINDOW_KEYS = ("super_pass_start", "super_pass_end", "super_pass_size", "n_samples")
_SPAN_TOL = 0.01


@rule(id="steady-state-detector", title="The detector's steady-state window", clause="R§4.4", severity="warn",
      scope="run-folder", needs=("maybe:steady_state_json", "policy:run_folder", "policy:run_rules", "maybe:accuracy",
                                 "maybe:config", "maybe:point_yaml", "maybe:result_summary", "maybe:system_desc"))
def steady_state_detector(rf, ctx):
    """What the detector's steady_state.json in the run folder makes of the run, in R§4.4's words.

    What it checks: the detector's plateau (steady_state.window, counted after its warmup
    super-passes) as super-passes of the whole tracked run, its issue-time span rebuilt from
    events.jsonl (first to last issue of the window's samples), and from them the status (windowable:
    at least 4 super-passes spanning the R§6.2 minimum of the run's region; insufficient_duration:
    long enough but shorter in time; insufficient_passes; partial_dataset) and the verdict (STEADY
    STATE, anomaly, drifting_up/down, not found). A window that is not the official result
    (anything but windowable with STEADY STATE or anomaly) is a warning: the published figures fall
    back to the whole run. A point.yaml beside the folder whose steady_state block says otherwise
    (status, verdict, window, duration_s) is a flag. When the folders are assembled, the point's
    basis is steady-state-basis's and only the agreement is checked here. No steady_state.json:
    SKIP (the detector has not been run; nothing requires it).
    Why: R§4.4: the steady-state window is the official result only when it spans the minimum; the
    detector writes none of R§8.3's words, so a block pasted from its output says nothing a checker
    can read (status, verdict, window.duration_s).
    How to fix: Run more dataset passes so that the detector's window spans the minimum; write the
    point.yaml block from the detector's output with `endpoints-checker draft`.
    """
    lf = rf.files.get("steady_state_json")
    if lf is None or not lf.exists:
        return Skip("no steady_state.json: the client's steady-state detector has not written one into this folder",
                    reason="missing-input")
    if detector_file(rf) is None or lf.model.steady_state is None:
        why = lf.error.message if lf.error is not None else "no `steady_state` block"
        return Fail(f"steady_state.json is not the detector's output: {why}", file=lf, observed=why,
                    expected="the detector's JSON with its steady_state block",
                    fix="Keep the steady_state.json the detector wrote for this run's events.jsonl (or run it again).")
    r = detector_reading(rf, ctx)
    if r.problem:
        return Fail(f"steady_state.json does not describe this run: {r.problem}", file=lf, path=("steady_state",),
                    observed=r.problem, expected="the detector's output for this folder's events.jsonl",
                    fix="Run the steady-state detector again over this folder's events.jsonl.")
    region, _minimum = run_minimum(rf, ctx)
    where = f" for {region}" if region and r.status in ("windowable", "insufficient_duration") else ""
    said = f"the detector's window ({r.window_words()})" if r.passes is not None else "the detector"
    words = f"{said} {r.why}{where}: status {r.status or 'unknown'}, verdict {r.verdict}"
    p = point(rf)
    block = p.steady_state if p is not None else None
    if block is not None:
        differ = _differences(block, r)
        if differ:
            return Fail(f"point.yaml's steady_state block does not say what the detector found ({words}): "
                        + "; ".join(differ), file=rf.files["point_yaml"], path=("steady_state",),
                        severity=Severity.FLAG, observed=differ, expected=r.block(),
                        fix="Write the steady_state block the detector's output gives: `endpoints-checker draft` "
                            "writes it from steady_state.json and events.jsonl.")
        if rf.context.get("assembled"):
            return Pass(f"point.yaml's steady_state block agrees with steady_state.json ({words}); its basis is "
                        "steady-state-basis's")
    elif rf.context.get("assembled"):
        return Pass(f"{words}; point.yaml has no steady_state block (steady-state-basis reports it; `draft` writes it)")
    pol = ctx.policy.get("run_rules").steady_state
    if r.status == "windowable" and r.verdict in pol.accepted_verdicts:
        return Pass(f"{words}: the window is the official result")
    if r.status is None:
        return Skip(f"{words}: the status cannot be told ({r.span_why or 'no minimum for this run'})",
                    reason="missing-input")
    if r.status == "windowable":
        tail = "reported with drift flags: the window is a local plateau only"
    else:
        tail = "no usable steady-state window, the published figures fall back to the whole run (R§4.4)"
    return Fail(f"{words}; {tail}", file=lf, path=("steady_state", "window") if r.passes else ("steady_state",),
                observed={"status": r.status, "verdict": r.verdict}, expected="windowable, STEADY STATE",
                fix="Run more dataset passes (n_samples_to_issue) so that the detector's window spans the minimum in "
                    "issue time; `endpoints-checker draft` writes this reading into point.yaml as it is.")


def _differences(block, r) -> list[str]:
    """What point.yaml's typed steady_state block says differently from the detector's reading."""
    out = []
    if r.status is not None and block.status != r.status:
        out.append(f"status {block.status!r}, the detector's window makes it {r.status!r}")
    if block.verdict is not None and block.verdict != r.verdict:
        out.append(f"verdict {block.verdict!r}, the detector's is {r.verdict!r}")
    want = r.block().get("window", {})
    win = block.window
    for key in _WINDOW_KEYS:
        have = getattr(win, key, None) if win is not None else None
        if have is not None and key in want and have != want[key]:
            out.append(f"window.{key} {have!r}, the detector's {want[key]!r}")
    have = getattr(win, "duration_s", None) if win is not None else None
    if isinstance(have, (int, float)) and r.span_s is not None and math.isfinite(have) \
            and abs(have - r.span_s) > _SPAN_TOL:
        out.append(f"window.duration_s {have!r}, the window's issue-time span is {r.span_s:.3f} s")
    return out
