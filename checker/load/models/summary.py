"""``result_summary.json`` written by the reference client (RUN-FOLDER.md §1.2), plus derivations.

Derived values (system_tps, tpot_p90_ms, tps_per_user, ttft_p90_ms) are computed here once so
rules and reports share one definition (RULES.md §2.7).
"""
from __future__ import annotations

import math
from typing import Any, Optional

from checker.core.models import extras_of
from checker.load.models.common import FileModel


class StatBlock(FileModel):
    total: Optional[float] = None
    min: Optional[float] = None
    max: Optional[float] = None
    median: Optional[float] = None
    avg: Optional[float] = None
    std_dev: Optional[float] = None
    percentiles: Optional[dict[str, Optional[float]]] = None
    histogram: Any = None

    @property
    def empty(self) -> bool:
        return self.total is None and not self.percentiles


def pct_key_candidates(p: float) -> tuple[str, ...]:
    """Percentile keys are decimal strings ("90.0"); some tools write "90"."""
    if float(p).is_integer():
        return (f"{float(p):.1f}", str(int(p)))
    return (str(p),)


def percentile(block: StatBlock | None, p: float) -> tuple[float | None, str | None]:
    """Return (value, problem). Both spellings present with different values is a problem."""
    if block is None or not block.percentiles:
        return None, None
    found = [(k, block.percentiles[k]) for k in pct_key_candidates(p) if k in block.percentiles]
    if not found:
        return None, None
    values = {v for _, v in found}
    if len(values) > 1:
        return None, f"percentile keys {' and '.join(repr(k) for k, _ in found)} disagree"
    return found[0][1], None


class ResultSummary(FileModel):
    #: integers here, floats in the official PointSummary: a fractional nanosecond is read as the nearest
    #: integer with a value-spelling warning, not a type error (checker.load.models.spelling)
    __fractional_ints__ = ("duration_ns", "legacy_loadgen_window_duration_ns")
    version: Optional[str] = None
    git_sha: Optional[str] = None
    test_started_at: Optional[int] = None
    n_samples_issued: Optional[int] = None
    n_samples_completed: Optional[int] = None
    n_samples_failed: Optional[int] = None
    n_samples_succeeded: Optional[int] = None
    n_samples_dropped: Optional[int] = None
    duration_ns: Optional[int] = None
    state: Optional[str] = None
    complete: Optional[bool] = None
    ttft: Optional[StatBlock] = None
    tpot: Optional[StatBlock] = None
    latency: Optional[StatBlock] = None
    output_sequence_lengths: Optional[StatBlock] = None
    input_sequence_lengths: Optional[StatBlock] = None
    legacy_loadgen_window_duration_ns: Optional[int] = None
    qps: Optional[float] = None
    tps: Optional[float] = None
    finish_reason_counts: Optional[dict[str, Any]] = None
    run_config: Optional[dict[str, Any]] = None
    # stored derived values some tools add; checked against the derivation when present
    system_tps: Optional[float] = None
    tps_per_user: Optional[float] = None
    system_tps_per_kw: Optional[float] = None
    e2e_avg_interactivity: Optional[float] = None
    total_output_tokens: Optional[float] = None

    @property
    def duration_s(self) -> float | None:
        if self.duration_ns is None or self.duration_ns <= 0:
            return None
        return self.duration_ns / 1e9

    @property
    def derived_system_tps(self) -> float | None:
        osl = self.output_sequence_lengths
        d = self.duration_s
        if osl is None or osl.total is None or d is None:
            return None
        return osl.total / d

    @property
    def tpot_p90_ms(self) -> float | None:
        v, _ = percentile(self.tpot, 90)
        return None if v is None else v / 1e6

    @property
    def derived_tps_per_user(self) -> float | None:
        t = self.tpot_p90_ms
        if t is None or not math.isfinite(t) or t <= 0:
            return None
        return 1000.0 / t

    @property
    def ttft_p90_ms(self) -> float | None:
        v, _ = percentile(self.ttft, 90)
        return None if v is None else v / 1e6

    # --- throughput recomputation (RUN-FOLDER.md §1.2, §7 item 7) ---

    @property
    def legacy_window(self) -> bool:
        """qps/tps were computed over the legacy LoadGen window (poisson, use_legacy_loadgen_qps_metrics)."""
        return self.legacy_loadgen_window_duration_ns is not None

    @property
    def throughput_window_s(self) -> float | None:
        """The window the client divides by: the legacy LoadGen window when set, else duration_ns."""
        if self.legacy_window:
            w = self.legacy_loadgen_window_duration_ns
            return w / 1e9 if w and w > 0 else None
        return self.duration_s

    @property
    def derived_qps(self) -> float | None:
        """completed / window, or (completed - 1) / legacy window (the client's LoadGen parity)."""
        w, n = self.throughput_window_s, self.n_samples_completed
        if w is None or n is None:
            return None
        return (n - 1) / w if self.legacy_window else n / w

    @property
    def derived_tps(self) -> float | None:
        """Output tokens over the same window as qps (the stored ``tps``)."""
        osl, w = self.output_sequence_lengths, self.throughput_window_s
        if osl is None or osl.total is None or w is None:
            return None
        return osl.total / w

    @property
    def derived_e2e_avg_interactivity(self) -> float | None:
        """Agentic: Σ output tokens per turn / Σ e2e turn seconds (RULES.md §4.7), from the stored totals."""
        extra = extras_of(self)
        tok, sec = extra.get("output_tokens_per_turn_total"), extra.get("e2e_turn_time_seconds_total")
        if not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in (tok, sec)):
            return None
        if not math.isfinite(tok) or not math.isfinite(sec) or sec <= 0:
            return None
        return tok / sec


def percentile_spellings(block: StatBlock | None) -> list[tuple[str, str]]:
    """Pairs of keys naming the same percentile ("90" and "90.0") with different values."""
    if block is None or not block.percentiles:
        return []
    groups: dict[float, list[str]] = {}
    for k in block.percentiles:
        try:
            groups.setdefault(float(k), []).append(k)
        except (TypeError, ValueError):
            continue
    out = []
    for keys in groups.values():
        vals = {repr(block.percentiles[k]) for k in keys}
        if len(keys) > 1 and len(vals) > 1:
            out.append((keys[0], keys[1]))
    return sorted(out)
