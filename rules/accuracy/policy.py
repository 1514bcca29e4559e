"""Schemas of ``accuracy.yaml`` and ``metrics.yaml``, and the helpers that read them.

Also holds what the accuracy rules share: which benchmark model a curve is, score-scale
normalisation, and the gated value of a metric over a point's accuracy entries.
"""
from __future__ import annotations

import math
from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict

from checker.load.models.accuracy import finite, is_number


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)


class Target(_Strict):
    reference: float
    min: Optional[float] = None
    max: Optional[float] = None
    on_score_scale: bool = True  # False for counts (generated length, tokens per turn)

    def describe(self) -> str:
        if self.min is not None and self.max is not None:
            return f"within {_fmt(self.min)}..{_fmt(self.max)}"
        if self.min is not None:
            return f">= {_fmt(self.min)}"
        return f"<= {_fmt(self.max)}" if self.max is not None else "any"

    def meets(self, v: float) -> bool:
        return (self.min is None or v >= self.min) and (self.max is None or v <= self.max)


class ModelTargets(_Strict):
    score_scales: list[Literal[1, 100]]
    min_samples: int
    metrics: dict[str, Target]


class AgenticTargets(_Strict):
    score_scales: list[Literal[1, 100]]
    inline: Target
    swebench: Target
    osl_per_turn: Target


class AccuracyPolicy(_Strict):
    """Accuracy targets per benchmark model (RULES.md §5)."""

    schema_version: int
    threshold_scale: Literal[1, 100]
    models: dict[str, ModelTargets]
    agentic: dict[str, AgenticTargets]
    swebench_datasets: list[str]

    def is_swebench(self, name: str) -> bool:
        norm = _norm(name)
        return any(norm == _norm(x) for x in self.swebench_datasets)


class MetricsPolicy(_Strict):
    """Tolerances of the metric-consistency family."""

    schema_version: int
    relative_tolerance: float
    tps_utilization_abs_tolerance: float
    ordered_percentiles: list[float]


def _norm(s: str) -> str:
    return s.lower().replace("-", "").replace("_", "").replace(" ", "")


def _fmt(v) -> str:
    if isinstance(v, float) and v.is_integer() and abs(v) >= 1000:
        return f"{int(v):,}"
    if isinstance(v, float):
        return f"{v:.6g}" if abs(v) < 1e6 else f"{v:,.1f}"
    return str(v)


fmt = _fmt


def curve_model(curve, ctx) -> str | None:
    """Canonical benchmark model id of a curve: its directory name, else the points' model_name."""
    models = ctx.policy.get("models")
    mid = models.canonical(curve.name)
    if mid is not None:
        return mid
    names = sorted({p.yaml.model_name for p in curve.points if p.yaml is not None and p.yaml.model_name})
    for n in names:
        mid = models.canonical(n)
        if mid is not None:
            return mid
    return None


def is_agentic(curve, ctx) -> bool:
    """Agentic by the models policy when the model is known, else by load pattern."""
    mid = curve_model(curve, ctx)
    if mid is not None:
        return ctx.policy.get("models").models[mid].type == "agentic"
    return curve.is_agentic


def entry_scale(values: list, accepted: list[int], threshold_scale: int) -> int:
    """Scale factor to bring an entry's on-scale values to the threshold scale.

    One entry is read on one scale: when fractions are accepted and every finite value lies in
    [0, 1], the entry is a fraction (x100); otherwise it is read as written. A model that accepts
    only fractions is always multiplied.
    """
    if threshold_scale == 1:
        return 1
    nums = [v for v in values if finite(v)]
    if 1 in accepted and (100 not in accepted or (nums and all(0 <= v <= 1 for v in nums))):
        return 100
    return 1


def bad_number(v) -> str | None:
    """Why ``v`` is not a usable score, or None."""
    if not is_number(v):
        return f"not a number ({type(v).__name__})"
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "infinite"
    return None
