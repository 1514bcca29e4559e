"""``metrics/final_snapshot.json``: the metrics aggregator's last snapshot, the raw source result_summary.json
is built from (RUN-FOLDER.md §1.3).

Counters and series sit in one ``metrics`` list, told apart by ``type``; one model holds both (every field
optional), so an entry of an unknown type is kept rather than refused. Unknown keys are kept: the file is the
client's. Non-finite floats are written as null, hence the optional numbers.
"""
from __future__ import annotations

from typing import Any, Optional, Union

from pydantic import Field

from checker.load.models.common import FileModel


class SnapshotMetric(FileModel):
    """One entry of metrics: a counter (``value``) or a series (count, total, min, max, percentiles...)."""

    type: Optional[str] = Field(None, description="`counter` or `series`")
    name: Optional[str] = Field(None, description="the counter or series name (`tracked_samples_issued`, `ttft_ns`...)")
    value: Optional[int] = Field(None, description="a counter's value (samples, or nanoseconds for the *_duration_ns counters)")
    count: Optional[int] = Field(None, description="a series' number of values")
    total: Optional[float] = Field(None, description="a series' sum")
    min: Optional[float] = Field(None, description="a series' smallest value")
    max: Optional[float] = Field(None, description="a series' largest value")
    sum_sq: Optional[float] = Field(None, description="a series' sum of squares")
    percentiles: Optional[dict[str, Optional[float]]] = Field(
        None, description="percentile -> value, keyed by decimal strings (\"50.0\", \"99.9\")")
    early_stopping_percentiles: Optional[dict[str, Optional[float]]] = Field(
        None, description="early-stopping bound per percentile >= p50 (null below the sample floor)")
    histogram: Any = Field(None, description="[[lo, hi], count] pairs, as the client writes them")


class FinalSnapshot(FileModel):
    """metrics/final_snapshot.json: the aggregator's final counters and series of one run."""

    counter: Optional[int] = Field(None, description="how many snapshots the aggregator emitted")
    timestamp_ns: Optional[int] = Field(None, description="when, on the process's monotonic clock (nanoseconds)")
    state: Optional[str] = Field(None, description="`complete`, or `interrupted` when the aggregator was stopped")
    n_pending_tasks: Optional[int] = Field(None, description="tasks still pending (> 0: the tokenizer drain timed out)")
    metrics: Optional[list[Union[SnapshotMetric, None]]] = Field(
        None, description="the counters and series (an entry that is not a mapping is refused and read as absent)")

    def counters(self) -> dict[str, Any]:
        """Counter name -> value, for every counter entry with a name (a refused value reads as None)."""
        return {m.name: m.value for m in self.metrics or () if m is not None and m.type == "counter"
                and m.name is not None}
