"""The R§5.5 region algorithm, exactly as the authoritative reference computes it.

C_min is derived from the curve (lowest fixed-concurrency point, capped at 32) or taken from
``c_min_override``; boundaries use Python's half-to-even ``round`` and the margin ends at
``math.ceil(1.10 * C_max)`` in floating point. Float arithmetic makes that end one higher than
exact arithmetic for 925 values of C_max in 33..20,000 (C_max = 100 gives 111, exact gives 110):
we follow the reference, and ``float_only_margin`` tells a rule when a point sits on such a value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

ULTRA_LOW_MAX = 32
REGION_ORDER = ("low_latency", "low_concurrency", "med_concurrency", "high_concurrency", "margin")


class RegionInputError(ValueError):
    """(C_max, C_min) outside the algorithm's domain: 1 <= C_min <= 32 < C_max."""


@dataclass(frozen=True)
class Regions:
    c_max: int
    c_min: int
    bounds: dict  # region -> (start, end), inclusive; start > end means empty

    @property
    def margin_end(self) -> int:
        return self.bounds["margin"][1]

    def region_of(self, concurrency: int) -> str | None:
        """The computed region of a concurrency, or None when above the margin (out of range)."""
        for name in REGION_ORDER:
            lo, hi = self.bounds[name]
            if lo <= concurrency <= hi:
                return name
        return None

    def empty_regions(self) -> list[str]:
        return [n for n in REGION_ORDER if self.bounds[n][0] > self.bounds[n][1]]

    def float_only_margin(self, concurrency: int) -> bool:
        """True when ``concurrency`` is in the margin only because of the float ceil (exact gives one less)."""
        return concurrency == self.margin_end and exact_margin_end(self.c_max) < self.margin_end

    def as_rows(self) -> list[dict]:
        return [{"region": n, "start": lo, "end": hi, "empty": lo > hi} for n, (lo, hi) in self.bounds.items()]


def compute_regions(c_max: int, c_min: int) -> Regions:
    """R§5.5: raise RegionInputError unless 1 <= c_min <= 32 and c_max > 32."""
    if isinstance(c_max, bool) or isinstance(c_min, bool) or not isinstance(c_max, int) or not isinstance(c_min, int):
        raise RegionInputError("C_max and C_min must be integers")
    if not (1 <= c_min <= ULTRA_LOW_MAX):
        raise RegionInputError(f"C_min must be in 1..32, got {c_min}")
    if c_max <= ULTRA_LOW_MAX:
        raise RegionInputError(f"C_max must be greater than 32, got {c_max}")
    interval = math.log2(c_max - c_min) / 3
    low_end = round(c_min + 2 ** interval)
    med_end = round(c_min + 2 ** (2 * interval))
    bounds = {
        "low_latency": (1, c_min),
        "low_concurrency": (c_min + 1, low_end),
        "med_concurrency": (low_end + 1, med_end),
        "high_concurrency": (med_end + 1, c_max),
        "margin": (c_max + 1, math.ceil(1.10 * c_max)),
    }
    return Regions(c_max=c_max, c_min=c_min, bounds=bounds)


def exact_margin_end(c_max: int) -> int:
    """ceil(11/10 * C_max) in exact arithmetic (what the rules' prose means)."""
    return math.ceil(Fraction(11, 10) * c_max)


def derive_c_min(concurrencies) -> int | None:
    """C_min = the lowest fixed-concurrency point, capped at 32 (RULES.md §4.2)."""
    vals = [c for c in concurrencies if isinstance(c, int) and not isinstance(c, bool) and c > 0]
    return min(min(vals), ULTRA_LOW_MAX) if vals else None
