"""Shared facts for the pre-flight rules: each planned config's pattern and target, and the set's curve.

A planned config is a run folder holding only config.yaml (``checker.load.planned``), so the
run-folder helpers (load pattern, C_max, seed set, dataset size) read it unchanged. The curve the
set is meant to make is derived the way the package rules derive it from the points: C_min is the
lowest fixed concurrency planned, C_max comes from --max-concurrency.
"""
from __future__ import annotations

from typing import Optional

from checker.core.rule import Skip
from checker.core.values import is_int
from checker.domain.regions import REGION_LABELS
from rules.run_folder.context import c_max, load_pattern
from rules.shared.run_checks import pattern_verdict


def lf(rf):
    return rf.files["config"]


def pattern(rf) -> tuple[str, object, object]:
    """(verdict, type, target_concurrency): verdict as ``pattern_verdict`` decides it."""
    kind, target = load_pattern(rf)
    return pattern_verdict(kind), kind, target


def target(rf) -> Optional[int]:
    """The planned fixed concurrency, or None (not a fixed pattern, or no positive integer target)."""
    verdict, _kind, t = pattern(rf)
    return t if verdict == "fixed" and is_int(t) and t > 0 else None


def is_offline(rf) -> bool:
    return pattern(rf)[0] == "offline"


def lowest(plan) -> Optional[int]:
    ts = [t for t in (target(rf) for rf in plan.configs) if t is not None]
    return min(ts) if ts else None


def regions(plan, ctx, ultra_low_max: int = 32):
    """(Regions, C_max, note) for the planned curve, or (None, None, why) naming the flag to give."""
    from checker.domain.regions import RegionInputError, compute_regions

    if not plan.configs:
        return None, None, "no config"
    cmax, where = c_max(plan.configs[0], ctx)
    if cmax is None:
        return None, None, "no C_max: give --max-concurrency N (the system's max_supported_concurrency)"
    low = lowest(plan)
    if low is not None and low <= ultra_low_max:
        cmin, note = low, f"C_max {cmax} ({where}), C_min {low} (the lowest planned concurrency)"
    else:
        cmin, note = ultra_low_max, f"C_max {cmax} ({where}), C_min taken as {ultra_low_max} (no planned point at or " \
                                    f"below {ultra_low_max})"
    try:
        return compute_regions(cmax, cmin), cmax, note
    except (RegionInputError, OverflowError, ValueError) as exc:
        return None, None, f"regions cannot be computed for {note}: {exc}"


def no_configs():
    return Skip("no planned config", reason="not-applicable")


def region_label(regions, c: int) -> str:
    name = regions.region_of(c)
    labels = {**REGION_LABELS, "margin": "margin (the 10 % above C_max, never counts for high_concurrency)"}
    return labels.get(name, name) if name else "no region (above the margin)"
