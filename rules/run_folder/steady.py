"""The run's R§6.2 minimum and the detector's steady_state.json read in R§4.4's words, for the run-folder rules,
the steady-state family's run-folder rule and (through ``checker.domain.steady_state``) the same reading `draft`
makes. No rules here: shared facts, like ``context``.
"""
from __future__ import annotations

from typing import Optional

from checker.domain.steady_state import Reading, read
from checker.core.values import is_int
from rules.run_folder.context import FIXED_PATTERNS, declared_offline, load_pattern, region_minimum, summary


def run_minimum(rf, ctx) -> tuple[Optional[str], int]:
    """(region label, minimum seconds) of the run (R§6.2); the label is None when the load pattern places it in no
    region (the minimum is then the smallest of any region)."""
    pol = ctx.policy.get("run_folder")
    kind, target = load_pattern(rf)
    if kind in FIXED_PATTERNS and is_int(target) and target > 0:
        return region_minimum(rf, ctx, target, pol)
    if kind == "max_throughput" and declared_offline(rf):
        return "dedicated Offline", pol.min_duration_s.other
    return None, pol.min_duration_s.ultra_low


def detector_file(rf):
    """The loaded steady_state.json with its model, or None (absent, unreadable, not a mapping)."""
    lf = rf.files.get("steady_state_json")
    return lf if lf is not None and lf.ok and lf.model is not None else None


def detector_reading(rf, ctx) -> Optional[Reading]:
    """The detector's output in R§4.4's words, its window's issue-time span from the events audit; None without
    a usable steady_state.json."""
    lf = detector_file(rf)
    if lf is None:
        return None
    region, minimum = run_minimum(rf, ctx)
    a = rf.events_audit if ctx.opt("events", True) else None
    audit = a if a is not None and a.error is None else None
    s = summary(rf)
    issued = audit.issued if audit is not None else (s.get("n_samples_issued") if s is not None else None)
    min_passes = ctx.policy.get("run_rules").steady_state.min_super_passes
    return read(lf.model, issued, audit.issue_span_ns if audit is not None else None,
                minimum if region is not None else None, min_passes)
