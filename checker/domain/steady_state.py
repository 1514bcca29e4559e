"""R§4.4 from the steady-state detector's output: the point.yaml words (status, verdict, window, state) for it.

The detector (its ``steady_state.json``, ``checker.load.models.detector``) finds the first plateau of the
gated metrics in super-passes of issue order, after dropping its ``warmup`` first super-passes; it
writes none of R§8.3's words. R§4.4 decides them: a plateau of at least ``min_passes`` super-passes
whose issue-time span reaches the region's R§6.2 minimum is ``windowable`` (the window is the
official result); a long enough plateau spanning less is ``insufficient_duration``; a shorter one, or
none on a run of at least one pass, ``insufficient_passes``; less than one pass ``partial_dataset``
(the whole-run figures are official in all three). The verdict: ``not found`` without a plateau,
``anomaly`` on a confirmed later level shift (the first plateau stands), ``drifting_up`` /
``drifting_down`` when a gated metric trends away after the window, else ``STEADY STATE``. Inside the
window every gated metric is a ``Plateau``: the detector admits only a trend-free window.

Super-passes are numbered from 0 over the whole tracked run, the window's end inclusive (point.yaml's
convention); the detector's ``sp_lo``/``sp_hi`` count after its warmup, ``sp_hi`` exclusive.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import msgspec

from checker.core.values import is_int

#: the detector's trend words -> R§4.4's per-metric and verdict words
_DRIFT = {"up": "drifting_up", "down": "drifting_down"}


class Reading(msgspec.Struct):
    """What the detector's output says in R§4.4's words (None where the folder cannot tell)."""

    found: bool = False
    reason: Optional[str] = None  # the detector's own reason when it found no plateau
    start: Optional[int] = None  # first super-pass of the window, over the whole tracked run
    end: Optional[int] = None  # last super-pass of the window, inclusive
    size: Optional[int] = None  # samples per super-pass
    n_samples: Optional[int] = None
    span_s: Optional[float] = None  # the window's issue-time span, seconds
    span_why: str = ""  # why the span is unknown
    minimum_s: Optional[float] = None
    status: Optional[str] = None
    verdict: str = "not found"
    states: dict = msgspec.field(default_factory=dict)  # gated metric -> Plateau
    anomaly: Optional[dict] = None  # {detected, change_point_super_pass, delta_pct} on a level shift
    why: str = ""  # the status in words
    problem: str = ""  # why the output cannot describe this run (then nothing else is to be trusted)

    @property
    def passes(self) -> Optional[int]:
        return self.end - self.start + 1 if self.start is not None and self.end is not None else None

    def window_words(self) -> str:
        """``super-passes 1-4: 4 x 1000 = 4000 samples``."""
        if self.passes is None:
            return "no window"
        n = f" = {self.n_samples} samples" if self.n_samples is not None else ""
        return f"super-passes {self.start}-{self.end}: {self.passes} x {self.size}{n}"

    def block(self) -> dict:
        """The point.yaml ``steady_state`` block (R§8.3), in its key order; ``status`` None when unknown."""
        out: dict[str, Any] = {"status": self.status, "verdict": self.verdict}
        if self.passes is not None:
            window = {"super_pass_start": self.start, "super_pass_end": self.end, "super_pass_size": self.size}
            if self.n_samples is not None:
                window["n_samples"] = self.n_samples
            if self.span_s is not None:
                window["duration_s"] = round(self.span_s, 3)
            out["window"] = window
        if self.states:
            out["state"] = dict(self.states)
        if self.anomaly is not None:
            out["anomaly"] = dict(self.anomaly)
        return out



def read(model: Any, issued: Optional[int], span_of: Optional[Callable[[int, int], Optional[int]]],
         minimum_s: Optional[float], min_passes: int) -> Reading:
    """R§4.4's reading of a detector output ``model`` (``DetectorOutput``) for a run that issued ``issued`` tracked
    samples; ``span_of(first, end)`` gives the issue-time span (ns) of tracked samples first..end-1, or None."""
    r = Reading(minimum_s=minimum_s)
    ss = getattr(model, "steady_state", None)
    size = getattr(model, "superpass_size", None)
    warm = getattr(model, "warmup", None)
    r.size = size if is_int(size) and size > 0 else None
    warm = warm if is_int(warm) and warm >= 0 else 0
    r.reason = getattr(ss, "reason", None) if ss is not None else "no steady_state block"
    window = getattr(ss, "window", None) if ss is not None else None
    r.found = bool(ss is not None and ss.found is True and window is not None and is_int(window.sp_lo)
                   and is_int(window.sp_hi) and 0 <= window.sp_lo < window.sp_hi)
    if ss is not None and ss.found is True and not r.found:
        lo, hi = (getattr(window, "sp_lo", None), getattr(window, "sp_hi", None)) if window is not None else (None, None)
        r.problem = f"it found a plateau but gives no window of super-passes (sp_lo {lo!r}, sp_hi {hi!r})"
    elif r.size is None:
        r.problem = f"its superpass_size is {size!r}: its super-passes cannot be placed in the run"
    elif r.found and is_int(issued) and (warm + window.sp_hi) * r.size > issued:
        r.problem = (f"its window ends at tracked sample {(warm + window.sp_hi) * r.size}, beyond the {issued} this run "
                     "issued")
    if r.problem:
        r.found, r.status, r.why = False, None, r.problem
        return r
    if r.found:
        r.start, r.end = warm + window.sp_lo, warm + window.sp_hi - 1
        r.n_samples = window.n_samples if is_int(window.n_samples) else None
        gated = [m for m in (getattr(model, "gated_metrics", None) or (ss.global_trend or {}).keys())
                 if isinstance(m, str)]
        r.states = {m: "Plateau" for m in gated}
        if r.size is not None and span_of is not None:
            ns = span_of(r.start * r.size, (r.end + 1) * r.size)
            r.span_s = ns / 1e9 if ns is not None else None
            r.span_why = "" if ns is not None else "events.jsonl holds fewer tracked samples than the window"
        else:
            r.span_why = "the issue-time span needs events.jsonl" if span_of is None else "no superpass_size"
        anomaly = ss.anomaly
        if anomaly is not None and anomaly.detected is True:
            cp = anomaly.change_point_sp
            r.anomaly = {"detected": True, "change_point_super_pass": warm + cp if is_int(cp) else None,
                         "delta_pct": anomaly.delta_pct}
        trends = {v for k, v in (ss.global_trend or {}).items() if isinstance(v, str)}
        if r.anomaly is not None:
            r.verdict = "anomaly"
        elif ss.drifting_up or "up" in trends:
            r.verdict = "drifting_up"
        elif "down" in trends:
            r.verdict = "drifting_down"
        else:
            r.verdict = "STEADY STATE"
    passes_run = issued // r.size if is_int(issued) and r.size else None
    if passes_run is not None and passes_run < 1:
        r.status, r.why = "partial_dataset", f"covers less than one super-pass ({issued} tracked samples of {r.size})"
    elif not r.found:
        r.status = "insufficient_passes" if passes_run is not None else None
        r.why = f"found no plateau ({r.reason or 'no reason given'})"
    elif r.passes < min_passes:
        r.status, r.why = "insufficient_passes", f"spans {r.passes} super-passes, fewer than {min_passes}"
    elif r.span_s is None or minimum_s is None:
        r.status = None
        r.why = f"has an unknown issue-time span ({r.span_why})" if r.span_s is None else \
            f"spans {r.span_s:.1f} s of issue time (the R§6.2 minimum is unknown)"
    elif r.span_s < minimum_s:
        r.status = "insufficient_duration"
        r.why = f"spans {r.span_s:.1f} s of issue time, below the {minimum_s:g} s minimum"
    else:
        r.status = "windowable"
        r.why = f"spans {r.span_s:.1f} s of issue time, at least the {minimum_s:g} s minimum"
    return r
