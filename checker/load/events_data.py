"""Plain data of the run-folder audits: the events audit result, its rollups, the percentile method.

Kept apart from the streaming code (``checker.load.events``) so results can be pickled back from worker
processes and read by rules without importing the streaming decoder. ``open_regular`` opens a
run-folder file the way the loader would (no escaping symlinks, no FIFOs).
"""
from __future__ import annotations

import math
import os
import stat

import msgspec

#: the client's DEFAULT_PERCENTILES, as the float-string keys result_summary.json uses
PERCENTILES = ("99.9", "99.0", "97.0", "95.0", "90.0", "80.0", "75.0", "50.0", "25.0", "10.0", "5.0", "1.0")
MAX_EXAMPLES = 5  # line numbers kept per problem kind


def percentile_lower(sorted_values, q: float):
    """numpy.percentile(values, q, method="lower") on already sorted values; None when empty."""
    n = len(sorted_values)
    if n == 0:
        return None
    return sorted_values[math.floor((n - 1) * (q / 100.0))]


class Series(msgspec.Struct):
    """Rollup of one latency series (ns), shaped like result_summary's stat blocks."""

    count: int = 0
    total: int = 0
    min: int | None = None
    max: int | None = None
    percentiles: dict = msgspec.field(default_factory=dict)

    @classmethod
    def of(cls, values: array) -> "Series":
        if not len(values):
            return cls()
        s = sorted(values)
        return cls(count=len(s), total=sum(s), min=s[0], max=s[-1],
                   percentiles={k: percentile_lower(s, float(k)) for k in PERCENTILES})


class EventsAudit(msgspec.Struct):
    """What one pass over events.jsonl found. Plain data: picklable, comparable, deterministic."""

    path: str = ""
    error: str | None = None  # the log could not be read at all
    bytes_read: int = 0
    lines: int = 0
    # problems: kind -> count, and the first line numbers of each kind
    problems: dict = msgspec.field(default_factory=dict)
    examples: dict = msgspec.field(default_factory=dict)
    unknown_types: dict = msgspec.field(default_factory=dict)  # event_type -> count (first 20 kinds)
    truncated_last_line: bool = False
    stopped_at_byte: int | None = None  # a long run of NUL bytes ended the audit here (events_lines.MAX_NUL_RUN)
    max_backstep_ns: int = 0  # largest backward step of timestamp_ns (intermediate-chunk events not ordered)
    backsteps: int = 0
    # session
    session_events: dict = msgspec.field(default_factory=dict)  # event_type -> count
    tracking_blocks: list = msgspec.field(default_factory=list)  # [(start_ns, stop_ns or None)]
    # performance phase (samples issued while tracking)
    issued: int = 0
    completed: int = 0
    failed: int = 0
    recv_first: int = 0
    recv_non_first: int = 0  # intermediate chunks logged while performance tracking was on
    recv_non_first_untracked: int = 0
    issued_outside_window: int = 0  # ISSUED inside a tracking block but timestamped before its start
    issued_outside_window_max_ns: int = 0
    outside_window_lines: list = msgspec.field(default_factory=list)
    duration_ns: int = 0
    ttft: Series = msgspec.field(default_factory=Series)
    latency: Series = msgspec.field(default_factory=Series)
    # warmup (before the first start_performance_tracking) and the post-tracking (accuracy) phase
    warmup_issued: int = 0
    warmup_completed: int = 0
    warmup_salted: int = 0
    warmup_answered: int = 0  # warmup requests a response came back for (the client logs no completion for them)
    warmup_first_ns: int | None = None
    warmup_span_ns: int | None = None  # first warmup issue -> first start_performance_tracking
    warmup_perf_overlap: int = 0  # tracked prompts equal to an unsalted warmup prompt
    warmup_perf_overlap_salted: int = 0  # ... equal to a warmup prompt once its salt is stripped
    post_issued: int = 0
    post_completed: int = 0
    post_failed: int = 0
    late_first_chunks: int = 0  # first chunks logged after their sample's completion (not counted as TTFT)
    in_flight_at_end: int = 0  # tracked samples issued but never completed (dropped)
    bom: bool = False  # the log started with a UTF-8 byte-order mark (read as if absent)
    interrupted_line: int | None = None  # the line of session.interrupted (a newer client's aborted run)
    #: the tracked samples' issue timestamps in issue order, as native int64 bytes (``issue_span_ns`` reads them)
    issue_ns: bytes = b""

    def add_problem(self, kind: str, line: int, n: int = 1) -> None:
        self.problems[kind] = self.problems.get(kind, 0) + n
        ex = self.examples.setdefault(kind, [])
        if len(ex) < MAX_EXAMPLES:
            ex.append(line)

    @property
    def has_tracking(self) -> bool:
        return bool(self.tracking_blocks)

    @property
    def session_ended(self) -> bool:
        return "session.ended" in self.session_events

    @property
    def cut_in_tracking(self) -> bool:
        """The log stops while performance tracking was on: its counts cover only part of the measured run."""
        return "tracking-never-stopped" in self.problems

    def issue_span_ns(self, first: int, end: int) -> int | None:
        """Issue-time span of the tracked samples ``first`` .. ``end - 1`` in issue order (latest issue minus
        earliest), or None when the log holds fewer samples than that."""
        times = memoryview(self.issue_ns).cast("q")
        if first < 0 or end > len(times) or end - first < 1:
            return None
        window = times[first:end]
        return max(window) - min(window)


def open_regular(path: str, root_real: str | None):
    """Open a run-folder file without following escaping symlinks or blocking on a FIFO."""
    from checker.load.reader import entry_problem

    if root_real is not None:
        problem = entry_problem(path, root_real)
        if problem is not None:
            raise OSError(problem.message)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise OSError("not a regular file")
    return os.fdopen(fd, "rb", buffering=0)
