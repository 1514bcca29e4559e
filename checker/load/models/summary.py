"""``result_summary.json`` written by the reference client (RUN-FOLDER.md §1.2), plus derivations.

Derived values (system_tps, tpot_p90_ms, tps_per_user, ttft_p90_ms) are computed here once so
rules and reports share one definition (RULES.md §2.7).
"""
from __future__ import annotations

from pydantic import Field

import math
from typing import Any, Optional

from checker.core.models import extras_of
from checker.load.models.common import FileModel


class StatBlock(FileModel):
    """Statistics of one metric over the run's samples (latencies in nanoseconds)."""

    total: Optional[float] = Field(None, description="sum over the samples")
    min: Optional[float] = Field(None, description="smallest value")
    max: Optional[float] = Field(None, description="largest value")
    median: Optional[float] = Field(None, description="median value")
    avg: Optional[float] = Field(None, description="mean value")
    std_dev: Optional[float] = Field(None, description="standard deviation")
    percentiles: Optional[dict[str, Optional[float]]] = Field(
        None, description="percentile -> value, keyed by decimal strings (\"50.0\", \"90.0\", \"99.9\"; \"90\" is read too)")
    histogram: Any = Field(None, description="the distribution, as the client writes it")

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
    """result_summary.json: the reference client's performance summary of one run (its PointSummary)."""

    #: integers here, floats in the official PointSummary: a fractional nanosecond is read as the nearest
    #: integer with a value-spelling warning, not a type error (checker.load.models.spelling)
    __fractional_ints__ = ("duration_ns", "legacy_loadgen_window_duration_ns")
    version: Optional[str] = Field(None, description="client version that wrote the file")
    git_sha: Optional[str] = Field(None, description="commit of the client")
    test_started_at: Optional[int] = Field(None, description="when the test started (the client writes 0 today)")
    n_samples_issued: Optional[int] = Field(None, description="samples issued")
    n_samples_completed: Optional[int] = Field(None, description="samples completed (completed + failed = issued)")
    n_samples_failed: Optional[int] = Field(None, description="samples that failed")
    n_samples_succeeded: Optional[int] = Field(None, description="samples that succeeded")
    n_samples_dropped: Optional[int] = Field(None, description="samples dropped")
    duration_ns: Optional[int] = Field(None, description="run duration, in nanoseconds")
    state: Optional[str] = Field(None, description="final state of the run; INTERRUPTED means aborted")
    complete: Optional[bool] = Field(
        None, description="the run completed; false (drained out or interrupted) makes the point unusable")
    ttft: Optional[StatBlock] = Field(None, description="time to first token, nanoseconds")
    tpot: Optional[StatBlock] = Field(None, description="time per output token, nanoseconds")
    latency: Optional[StatBlock] = Field(None, description="end-to-end request latency, nanoseconds")
    output_sequence_lengths: Optional[StatBlock] = Field(None, description="output tokens per sample")
    input_sequence_lengths: Optional[StatBlock] = Field(None, description="input tokens per sample")
    legacy_loadgen_window_duration_ns: Optional[int] = Field(
        None, description="duration of the legacy LoadGen window, in nanoseconds")
    qps: Optional[float] = Field(None, description="completed samples per second")
    tps: Optional[float] = Field(None, description="tokens per second as the client computes it")
    finish_reason_counts: Optional[dict[str, Any]] = Field(None, description="samples per finish reason")
    run_config: Optional[dict[str, Any]] = Field(
        None, description="the run's configuration (load pattern and target level)")
    # stored derived values some tools add; checked against the derivation when present
    system_tps: Optional[float] = Field(
        None, description="stored system TPS (output tokens over run seconds); checked against the derivation")
    tps_per_user: Optional[float] = Field(
        None, description="stored TPS per user (1000 / TPOT P90 in ms); checked against the derivation")
    system_tps_per_kw: Optional[float] = Field(
        None, description="stored system TPS per kW; checked against the power derivation")
    e2e_avg_interactivity: Optional[float] = Field(
        None, description="stored average end-to-end interactivity; checked when present")
    total_output_tokens: Optional[float] = Field(
        None, description="stored total output tokens; checked against output_sequence_lengths.total")

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
