"""Steady-state reporting rules (R§4.4): vocabulary, internal consistency, and the reporting basis.

The `steady_state` block is written into point.yaml from the client's detector; it is not produced
for dedicated Offline or agentic runs (RULES.md §4.6), so those points are exempt. Vocabularies
and the 4-super-pass floor come from run_rules.yaml.
"""
from __future__ import annotations

import math

from checker.core.rule import Fail, Pass, Skip, rule
from checker.domain.benchmark import is_agentic
from checker.core.values import is_int, loaded_mapping, show
from rules.procedure.policy import NEEDS, is_number, minimum_duration


def _exempt(point, ctx) -> str | None:
    if point.is_dedicated_offline:
        return "dedicated Offline point"
    if is_agentic(point.curve, ctx.policy.get("models")):
        return "agentic point"
    return None


def _block(point):
    lf = point.files["point_yaml"]
    return lf, lf.get("steady_state")


def _hint(value, vocab) -> str:
    if isinstance(value, str):
        key = value.lower().replace(" ", "_").replace("-", "_")
        for v in vocab:
            if v.lower().replace(" ", "_") == key:
                return f" (did you mean {v!r}?)"
    return ""


def _passes(window) -> int | None:
    if not isinstance(window, dict):
        return None
    a, b = window.get("super_pass_start"), window.get("super_pass_end")
    if is_int(a) and is_int(b) and b >= a:
        return b - a + 1
    return None


@rule(id="steady-state-valid", title="Steady state valid", clause="R§4.4", severity="warn",
      scope="point", needs=("point_yaml", NEEDS, "policy:models"), official=True)
def steady_state_valid(point, ctx):
    """The `steady_state` block uses R§4.4's vocabulary and well-formed window numbers.

    What it checks: `status` is one of windowable / insufficient_duration / insufficient_passes /
    partial_dataset; `verdict` (when given) one of "STEADY STATE", drifting_up, drifting_down,
    anomaly, "not found"; every per-metric `state` is Plateau / Drifting Up / Drifting Down; the
    `window` numbers are non-negative integers (duration_s a finite number) with
    super_pass_start <= super_pass_end. A dedicated Offline or agentic point has no block (exempt);
    a missing block elsewhere SKIPs here (steady-state-basis reports it).
    Why: R§4.4 and R§8.3 define the block; reviewers and the results pipeline read these words.
    How to fix: Copy the detector's steady_state output verbatim into point.yaml.
    """
    lf, ss = _block(point)
    if ss is None:
        ex = _exempt(point, ctx)
        if ex:
            return Pass(f"{ex}: no steady_state block expected")
        return Skip("no steady_state block (see steady-state-basis)", reason="missing-input")
    pol = ctx.policy.get("run_rules").steady_state
    if not isinstance(ss, dict):
        return Fail(f"steady_state is {show(ss)}, not a mapping", file=lf, path=("steady_state",),
                    observed=ss, expected="a mapping")
    probs = []
    status = ss.get("status")
    if status not in pol.statuses:
        probs.append((("status",), f"status {show(status)} is not allowed{_hint(status, pol.statuses)}"))
    if "verdict" in ss and ss["verdict"] not in pol.verdicts:
        v = ss["verdict"]
        probs.append((("verdict",), f"verdict {show(v)} is not allowed{_hint(v, pol.verdicts)}"))
    state = ss.get("state")
    if state is not None:
        if not isinstance(state, dict):
            probs.append((("state",), f"state is {show(state)}, not a mapping of metric -> state"))
        else:
            for k in sorted(state, key=str):
                if state[k] not in pol.metric_states:
                    probs.append((("state", k), f"state.{k} {show(state[k])} is not allowed"
                                                f"{_hint(state[k], pol.metric_states)}"))
    window = ss.get("window")
    if window is not None:
        if not isinstance(window, dict):
            probs.append((("window",), f"window is {show(window)}, not a mapping"))
        else:
            for k in ("super_pass_start", "super_pass_end", "super_pass_size", "n_samples"):
                if k in window and (not is_int(window[k]) or window[k] < 0):
                    probs.append((("window", k), f"window.{k} is {show(window[k])}, not a non-negative integer"))
            d = window.get("duration_s")
            if "duration_s" in window and (not is_number(d) or not math.isfinite(d) or d < 0):
                probs.append((("window", "duration_s"), f"window.duration_s is {show(d)}"))
            a, b = window.get("super_pass_start"), window.get("super_pass_end")
            if is_int(a) and is_int(b) and b < a:
                probs.append((("window", "super_pass_end"), f"window ends (super-pass {b}) before it starts ({a})"))
    if probs:
        path, _ = probs[0]
        return Fail("steady_state: " + "; ".join(m for _, m in probs), file=lf, path=("steady_state", *path),
                    observed=[m for _, m in probs], expected={"status": pol.statuses, "verdict": pol.verdicts,
                                                              "state": pol.metric_states})
    return Pass(f"steady_state status {status}" + (f", verdict {ss['verdict']}" if "verdict" in ss else ""))


@rule(id="steady-state-consistency", title="Steady state consistency", clause="R§4.4", severity="warn", scope="point", needs=("point_yaml", NEEDS, "policy:models", "maybe:result_summary"), official=True,
      consequence_of=("point-duration",))
def steady_state_consistency(point, ctx):
    """The declared steady-state `status` agrees with the window it describes.

    What it checks: `windowable` needs a window of >= 4 super-passes (run_rules.yaml), a span
    `duration_s` >= the point's R§6.2 minimum, no gating (TPOT) metric Drifting Up, and a verdict
    other than "not found"; `insufficient_duration` needs >= 4 super-passes and a span below the
    minimum; `insufficient_passes` a window of 1-3 super-passes; `partial_dataset` less than one
    super-pass. `window.n_samples` equals super-passes x `super_pass_size` when all are given, and the
    window lies inside the run (span <= result_summary.json `duration_ns`, samples <= issued).
    SKIP when there is no block or its status is not recognised (steady-state-valid).
    Why: R§4.4 — the status decides whether the steady-state window or the whole-run total is the
    official result; a status that contradicts its own window picks the wrong basis.
    How to fix: Use the detector's output unchanged; if you edited the window, rerun the detector.
    """
    lf, ss = _block(point)
    pol = ctx.policy.get("run_rules").steady_state
    ex = _exempt(point, ctx)
    if ex and ss is None:
        return Pass(f"{ex}: no steady_state block expected")
    if not isinstance(ss, dict) or ss.get("status") not in pol.statuses:
        return Skip("no steady_state block with a recognised status (see steady-state-valid/-basis)",
                    reason="missing-input")
    status = ss["status"]
    window = ss.get("window") if isinstance(ss.get("window"), dict) else None
    n = _passes(window)
    dur = window.get("duration_s") if window else None
    dur = dur if is_number(dur) and math.isfinite(dur) and dur >= 0 else None
    minimum, why = minimum_duration(point, ctx)
    floor = pol.min_super_passes
    probs = []
    if status == "windowable":
        if n is None:
            probs.append((("window",), "windowable but the window has no super_pass_start/end"))
        elif n < floor:
            probs.append((("window", "super_pass_end"), f"windowable with {n} super-passes (needs >= {floor})"))
        if dur is not None and minimum is not None and dur < minimum:
            probs.append((("window", "duration_s"), f"windowable with a {dur:,} s span, below {minimum:,.0f} s ({why})"))
        state = ss.get("state") if isinstance(ss.get("state"), dict) else {}
        for k in sorted(state, key=str):
            gating = any(str(k).lower().startswith(p) for p in pol.gating_metric_prefixes)
            if gating and state[k] in pol.disqualifying_states:
                probs.append((("state", k), f"windowable while gating metric {k} is {state[k]}"))
        if ss.get("verdict") in pol.no_window_verdicts:
            probs.append((("verdict",), f"windowable with verdict {ss['verdict']!r}"))
    elif status == "insufficient_duration":
        if n is not None and n < floor:
            probs.append((("window", "super_pass_end"), f"insufficient_duration with {n} super-passes (< {floor}: "
                                                        "that is insufficient_passes)"))
        if dur is not None and minimum is not None and dur >= minimum:
            probs.append((("window", "duration_s"), f"insufficient_duration with a {dur:,} s span >= {minimum:,.0f} s"))
    elif status == "insufficient_passes":
        if n is not None and not (1 <= n < floor):
            probs.append((("window", "super_pass_end"), f"insufficient_passes with {n} super-passes (expected 1-{floor - 1})"))
    elif status == "partial_dataset":
        if n is not None and n >= 1 and _full_pass(window):
            probs.append((("window",), f"partial_dataset with a window of {n} full super-pass(es)"))
    if window and n is not None:
        size, ns = window.get("super_pass_size"), window.get("n_samples")
        if is_int(size) and is_int(ns) and size > 0 and ns != n * size:
            probs.append((("window", "n_samples"), f"window.n_samples {ns} != {n} super-passes x {size}"))
    probs += _against_summary(point, window, dur)
    if probs:
        return Fail("steady_state: " + "; ".join(m for _, m in probs), file=lf, path=("steady_state", *probs[0][0]),
                    observed=[m for _, m in probs], expected=f"status {status!r} consistent with its window")
    desc = f"{n} super-passes" if n is not None else "no window"
    return Pass(f"status {status} agrees with its window ({desc}" + (f", {dur:,} s)" if dur is not None else ")"))


def _against_summary(point, window, dur) -> list:
    """The window lies inside the run: span <= whole-run duration, samples <= samples issued."""
    sf = loaded_mapping(point.files.get("result_summary"))
    if not window or sf is None:
        return []
    out = []
    run_ns, issued, ns = sf.get("duration_ns"), sf.get("n_samples_issued"), window.get("n_samples")
    if dur is not None and is_int(run_ns) and run_ns > 0 and dur > run_ns / 1e9 * (1 + 1e-9):
        out.append((("window", "duration_s"), f"the window spans {dur:,} s but the whole run lasted "
                                              f"{run_ns / 1e9:,.1f} s (result_summary.json duration_ns)"))
    completed = sf.get("n_samples_completed")
    if is_int(ns) and is_int(issued) and is_int(completed) and 0 <= completed <= issued and ns > issued:
        out.append((("window", "n_samples"), f"the window holds {ns:,} samples but only {issued:,} were issued"))
    return out


def _full_pass(window) -> bool:
    size, ns = window.get("super_pass_size"), window.get("n_samples")
    if is_int(size) and is_int(ns) and size > 0:
        return ns >= size
    return True


@rule(id="steady-state-basis", title="Steady state basis", clause="R§4.4", severity="warn",
      scope="point", needs=("point_yaml", NEEDS, "policy:models"), official=True,
      consequence_of=("min-query-count", "run-folder-sample-count", "unknown-key"))
def steady_state_basis(point, ctx):
    """Reports which basis is official for the point: the steady-state window or the whole-run total.

    What it checks: PASS when the block says `windowable` with an accepted verdict ("STEADY STATE",
    anomaly = first plateau); a warning when the block is missing, the status falls back to the
    whole-run total, or the verdict is drifting / "not found". Dedicated Offline and agentic points
    report the whole-run total by definition (exempt, PASS).
    Why: R§4.4 — from v1.0 the official numbers come from the steady-state window; a fallback to
    `total` includes ramp-up and drain and understates the system.
    How to fix: Run longer (more than 4 dataset passes and the region minimum) so the detector finds a
    plateau, and copy its steady_state block into point.yaml.
    """
    lf, ss = _block(point)
    ex = _exempt(point, ctx)
    if ex and ss is None:
        return Pass(f"{ex}: the official result is the whole-run total (no steady state is computed)")
    pol = ctx.policy.get("run_rules").steady_state
    if ss is None:
        return Fail("no steady_state block: the official result falls back to whole-run totals (ramp-up and drain "
                    "included)", file=lf, path=("steady_state",), observed=None, expected="a steady_state block")
    if not isinstance(ss, dict) or ss.get("status") not in pol.statuses:
        return Skip("steady_state status not recognised (see steady-state-valid)", reason="input-not-valid")
    status, verdict = ss["status"], ss.get("verdict")
    if status != "windowable":
        return Fail(f"status {status}: the official result falls back to whole-run totals", file=lf,
                    path=("steady_state", "status"), observed=status, expected="windowable")
    if verdict in pol.drifting_verdicts:
        return Fail(f"verdict {verdict}: reported with drift flags (window is a local plateau only)", file=lf,
                    path=("steady_state", "verdict"), observed=verdict, expected=pol.accepted_verdicts)
    if verdict in pol.no_window_verdicts:
        return Fail(f"verdict {verdict!r}: no steady window, whole-run totals are official", file=lf,
                    path=("steady_state", "verdict"), observed=verdict, expected=pol.accepted_verdicts)
    n = _passes(ss.get("window"))
    return Pass(f"official basis: steady-state window ({status}, {verdict or 'no verdict'}"
                + (f", {n} super-passes)" if n else ")"))
