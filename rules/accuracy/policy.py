"""Schemas of ``accuracy.yaml`` and ``metrics.yaml``, and the helpers that read them.

Also holds what the accuracy rules share: which benchmark model a curve is, score-scale
normalisation, and the gated value of a metric over a point's accuracy entries.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Literal, Optional

from pydantic import Field, model_validator

from checker.load.models.accuracy import finite, is_number
from rules.shared.strict import StrictModel as _Strict


class Target(_Strict):
    """One accuracy target: absolute bounds as published (`min`/`max`), or bounds the rule states
    as a ratio of the reference (`min_ratio`/`max_ratio`, e.g. 99 % of the reference). Ratio bounds
    are the exact product (decimal arithmetic on the values as written), never a rounded copy."""

    reference: float = Field(description="the reference score")
    min: Optional[float] = Field(None, description="lowest passing score, as published")
    max: Optional[float] = Field(None, description="highest passing score, as published")
    min_ratio: Optional[float] = Field(
        None, description="lowest passing score as a ratio of the reference (0.99 = 99 %)")
    max_ratio: Optional[float] = Field(None, description="highest passing score as a ratio of the reference")
    # False for counts (generated length, tokens per turn)
    on_score_scale: bool = Field(
        True, description="the value is a score on the threshold scale (false for counts: generated length, tokens per turn)")
    # a ratio bound is shown rounded to this many decimals, beside its exact value
    display_decimals: int = Field(
        2, description="a ratio bound is shown rounded to this many decimals, beside its exact value")

    @model_validator(mode="after")
    def _one_basis(self):
        if self.min is not None and self.min_ratio is not None:
            raise ValueError("give `min` or `min_ratio`, not both")
        if self.max is not None and self.max_ratio is not None:
            raise ValueError("give `max` or `max_ratio`, not both")
        return self

    @property
    def lo(self) -> Fraction | None:
        if self.min_ratio is not None:
            return exact(self.min_ratio) * exact(self.reference)
        return exact(self.min) if self.min is not None else None

    @property
    def hi(self) -> Fraction | None:
        if self.max_ratio is not None:
            return exact(self.max_ratio) * exact(self.reference)
        return exact(self.max) if self.max is not None else None

    def _bound(self, b: Fraction, ratio) -> str:
        if ratio is None:
            return show_exact(b)
        shown = show_exact(b, self.display_decimals) if self.on_score_scale else show_exact(b)
        return shown

    def describe(self) -> str:
        lo, hi = self.lo, self.hi
        if lo is not None and hi is not None:
            text = f"within {self._bound(lo, self.min_ratio)}..{self._bound(hi, self.max_ratio)}"
        elif lo is not None:
            text = f">= {self._bound(lo, self.min_ratio)}"
        elif hi is not None:
            text = f"<= {self._bound(hi, self.max_ratio)}"
        else:
            return "any"
        return text + self.basis()

    def basis(self) -> str:
        """How a ratio bound is computed, with its exact value: ' (0.99 x 35.793 = 35.43507, exact)'."""
        parts = []
        for b, ratio in ((self.lo, self.min_ratio), (self.hi, self.max_ratio)):
            if ratio is not None and b is not None:
                exact_text = show_exact(b)
                shown = self._bound(b, ratio)
                parts.append(f"{show_exact(exact(ratio))} x {show_exact(exact(self.reference))}"
                             + (f" = {exact_text}" if exact_text != shown else ""))
        return f" ({'; '.join(parts)}, exact)" if parts else ""

    def meets(self, v) -> bool:
        """Compare exactly: ``v`` (a float as written, an int or a Fraction) against the exact bounds."""
        x = exact(v)
        lo, hi = self.lo, self.hi
        return (lo is None or x >= lo) and (hi is None or x <= hi)


class ModelTargets(_Strict):
    """The accuracy targets of one benchmark model."""

    score_scales: list[Literal[1, 100]] = Field(description="score scales accuracy_results.json may use (1 or 100)")
    min_samples: int = Field(description="accuracy samples the run must score")
    metrics: dict[str, Target] = Field(description="metric name -> its target")


class AgenticTargets(_Strict):
    """The accuracy targets of one agentic benchmark."""

    score_scales: list[Literal[1, 100]] = Field(description="score scales accuracy_results.json may use (1 or 100)")
    inline: Target = Field(description="target of the inline evaluation")
    swebench: Target = Field(description="target of the SWE-bench evaluation")
    osl_per_turn: Target = Field(description="target of the output tokens per turn")


class AccuracyPolicy(_Strict):
    """Accuracy targets per benchmark model (RULES.md §5)."""

    schema_version: int = Field(description="version of this file's layout")
    threshold_scale: Literal[1, 100] = Field(description="the scale the targets are written on (1 or 100)")
    models: dict[str, ModelTargets] = Field(description="benchmark model -> its targets")
    agentic: dict[str, AgenticTargets] = Field(description="agentic benchmark -> its targets")
    swebench_datasets: list[str] = Field(description="dataset names that are SWE-bench evaluations")

    def is_swebench(self, name: str) -> bool:
        norm = _norm(name)
        return any(norm == _norm(x) for x in self.swebench_datasets)


class MetricsPolicy(_Strict):
    """Tolerances of the metric-consistency family."""

    schema_version: int = Field(description="version of this file's layout")
    relative_tolerance: float = Field(
        description="stored derived values (system_tps, tps_per_user, qps, ...) may differ from the recomputed ones by this fraction")
    tps_utilization_abs_tolerance: float = Field(
        description="system_desc.json tps_utilization may differ from system_tps / max(system_tps) by this much")
    ordered_percentiles: list[float] = Field(
        description="percentiles that must be finite, non-negative and ordered (TTFT and latency)")


def _norm(s: str) -> str:
    return s.lower().replace("-", "").replace("_", "").replace(" ", "")


def exact(v) -> Fraction:
    """The exact value of a number as written: a float is read through its shortest repr (the digits
    the JSON/YAML text held), so 35.43507 is 3543507/100000, not the nearest binary double."""
    if isinstance(v, Fraction):
        return v
    if isinstance(v, bool):
        raise TypeError("a bool is not a number here")
    if isinstance(v, int):
        return Fraction(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError(f"{v!r} has no exact value")
        return Fraction(Decimal(repr(v)))
    if isinstance(v, Decimal):
        return Fraction(v)
    raise TypeError(f"{type(v).__name__} is not a number")


def show_exact(v: Fraction, decimals: int | None = None) -> str:
    """A Fraction as a decimal: exact when it terminates within 12 decimals, else 12 decimals; with
    ``decimals``, rounded half-up to that many (the published display of a threshold)."""
    with localcontext() as c:
        c.prec = 60
        d = Decimal(v.numerator) / Decimal(v.denominator)
        if decimals is not None:
            d = d.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)
        elif d != d.quantize(Decimal("1e-12")):
            d = d.quantize(Decimal("1e-12"), rounding=ROUND_HALF_UP)
    text = format(d.normalize(), "f") if decimals is None else format(d, "f")
    head, dot, tail = text.partition(".")
    neg = head.startswith("-")
    digits = head.lstrip("-")
    if len(digits) > 3:
        digits = f"{int(digits):,}"
    return ("-" if neg else "") + digits + (dot + tail if tail else "")


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
