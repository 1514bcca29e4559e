"""The draft's steady_state block: from the detector's steady_state.json when the folder has one (in R§4.4's
words, ``checker.domain.steady_state``), else what the completed passes alone prove."""
from __future__ import annotations

from checker.core.values import is_int
from checker.draft.entries import Context, Entry, block, comment, commented, fill, value
from checker.core.values import is_int



def from_passes(summary: dict, audit, size, ctx: Context) -> list[Entry]:
    done = summary.get("n_samples_completed")
    if not is_int(done) and audit is not None and audit.error is None:
        done = audit.completed
    if not is_int(size) or size <= 0 or not is_int(done):
        return [comment("steady_state: run the steady-state detector and paste its block (R§4.4); the folder does "
                        "not say the dataset's size (--dataset-size)")]
    passes = done // size
    if passes == 0:
        return [block("steady_state", [value("status", "partial_dataset",
                                             f"{done} samples completed, less than one pass of {size}")])]
    floor = ctx.policy.get("run_rules").steady_state.min_super_passes
    if passes < floor:
        return [block("steady_state", [value("status", "insufficient_passes",
                                             f"{passes} pass(es) of {size}, fewer than {floor}")])]
    return [comment(f"steady_state: {passes} passes of {size} ran: run the steady-state detector and paste its block "
                    "(R§4.4)")]


def _minimum_s(c, ctx: Context) -> float | None:
    """R§6.2's minimum for a fixed-concurrency point at ``c`` (policy run_folder.yaml), None without one."""
    if c is None or not ctx.policy.available("run_folder"):
        return None
    pol = ctx.policy.get("run_folder")
    return pol.min_duration_s.ultra_low if c <= pol.ultra_low_max_concurrency else pol.min_duration_s.other


def from_detector(model, summary: dict, audit, c, ctx: Context) -> Entry | None:
    """The steady_state block from the detector's steady_state.json, in R§4.4's words (``checker.domain.steady_state``):
    the window over the tracked run, its issue-time span from events.jsonl, the status and the verdict; None when
    the file cannot describe this run (the check says why)."""
    from checker.domain.steady_state import read

    ok = audit is not None and audit.error is None
    issued = audit.issued if ok else summary.get("n_samples_issued")
    minimum = _minimum_s(c, ctx)
    r = read(model, issued, audit.issue_span_ns if ok else None, minimum,
             ctx.policy.get("run_rules").steady_state.min_super_passes)
    if r.problem:
        return None
    kids = []
    if r.status is not None:
        kids.append(value("status", r.status, f"R§4.4: the detector's window {r.why}"))
    else:
        kids.append(fill("status", f"windowable or insufficient_duration (R§4.4): the detector's window {r.why}"))
    why = {"not found": f"the detector found no plateau ({r.reason or 'no reason given'})",
           "anomaly": "a later level shift after the first plateau (the detector's anomaly)",
           "drifting_up": "a gated metric trends up after the window (the detector's global_trend / drifting_up)",
           "drifting_down": "a gated metric trends down after the window (the detector's global_trend)",
           "STEADY STATE": "no gated metric drifts after the window, no anomaly"}[r.verdict]
    kids.append(value("verdict", r.verdict, why))
    b = r.block()
    if "window" in b:
        w = b["window"]
        lo = getattr(model.steady_state.window, "sp_lo", None)
        warm = model.warmup if isinstance(model.warmup, int) else 0
        wk = [value("super_pass_start", w["super_pass_start"], f"the detector's sp_lo {lo} after its {warm} warmup "
                                                                "super-pass(es), counted over the tracked run"),
              value("super_pass_end", w["super_pass_end"], "inclusive"),
              value("super_pass_size", w["super_pass_size"], "steady_state.json superpass_size")]
        if "n_samples" in w:
            wk.append(value("n_samples", w["n_samples"], "steady_state.json"))
        if "duration_s" in w:
            wk.append(value("duration_s", w["duration_s"], "events.jsonl: first to last issue of the window's samples"))
        else:
            wk.append(commented("duration_s", f"the window's issue-time span in seconds ({r.span_why})"))
        kids.append(block("window", wk))
    if r.states:
        kids.append(block("state", [value(k, v) for k, v in r.states.items()],
                          "the detector admits a window only where every gated metric is trend-free"))
    if r.anomaly is not None:
        kids.append(block("anomaly", [value(k, v) for k, v in r.anomaly.items()], "steady_state.json anomaly"))
    return block("steady_state", kids, "from steady_state.json, the client's steady-state detector (R§4.4)")
