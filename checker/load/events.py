"""Stream a run folder's ``events.jsonl`` once and rebuild what ``result_summary.json`` claims.

RUN-FOLDER.md §1.4: one msgspec JSON record per line. The log is read in fixed-size chunks, split
into lines (``checker.load.events_lines``) and decoded one line at a time by a msgspec Struct decoder
that keeps only event_type, timestamp_ns and sample_uuid (the prompt of an issued event is decoded only
by the warmup-source check, ``checker.load.events_warmup``); a line that does not decode becomes a
counted problem, never an exception. Memory holds the in-flight samples only, plus 8 bytes per tracked
sample for each latency series (TTFT, end-to-end); the file is never loaded whole.

Percentiles follow the client: ``numpy.percentile(method="lower")``, i.e. the sorted value at index
``floor((n - 1) * q / 100)``.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import Annotated

from checker.load.events_data import (MAX_EXAMPLES, PERCENTILES, EventsAudit, Series, open_regular,  # noqa: F401
                                      percentile_lower)
from checker.load.events_lines import sparse_runs, stream_lines
from checker.load.events_warmup import WarmupPrompts

#: every event type the client writes (RUN-FOLDER.md §1.4); `session.interrupted` is the newer client's mark of
#: an aborted run (^C, run watchdog), written just before session.ended (client-drift README)
KNOWN_EVENTS = frozenset({
    "session.started", "session.start_performance_tracking", "session.stop_performance_tracking",
    "session.stop_loadgen", "session.interrupted", "session.ended", "sample.issued", "sample.recv_first",
    "sample.recv_non_first", "sample.complete", "error.generic", "error.loadgen", "error.session", "error.client",
})
CHUNK_BYTES = 1 << 20
MAX_TIMESTAMP_NS = 1 << 62  # a larger (or negative) timestamp_ns makes the line malformed
#: the shortest line an event can be: {"event_type":"","timestamp_ns":0} (a shorter line is a problem without
#: decoding it: a log of nothing but newlines costs what any log of its size does)
MIN_EVENT_BYTES = 34
RECENT_DONE = 1 << 16  # completed samples remembered for late first-chunk events


def audit_events(path: str, root_real: str | None = None, chunk_bytes: int = CHUNK_BYTES) -> EventsAudit:
    """Stream ``path`` once; never raises (an unreadable log sets ``error``)."""
    try:
        fh = open_regular(path, root_real)
    except OSError as exc:
        return EventsAudit(path=path, error=f"cannot open: {exc.strerror or exc}")
    with fh:
        return audit_stream(fh, path, chunk_bytes)


def audit_stream(fh, path: str = "", chunk_bytes: int = CHUNK_BYTES) -> EventsAudit:
    """Audit an open binary stream (a log in object storage, an archive member); never raises."""
    audit = EventsAudit(path=path)
    try:
        _Auditor(audit).run(fh, chunk_bytes)
    except OSError as exc:
        audit.error = f"read error: {exc.strerror or exc}"
    except MemoryError:
        audit.error = "out of memory while auditing"
    except Exception as exc:  # noqa: BLE001  (a bug here must not stop the whole check)
        audit.error = f"internal error while auditing: {type(exc).__name__}: {str(exc)[:200]}"
    return audit


class _Auditor:
    """The streaming state machine. Per-event work is inlined in ``_feed`` for speed."""

    def __init__(self, audit: EventsAudit):
        import msgspec

        # bounded timestamps keep every difference inside the int64 latency arrays
        stamp = Annotated[int, msgspec.Meta(ge=0, le=MAX_TIMESTAMP_NS)]
        event = msgspec.defstruct("Event", [("event_type", str), ("timestamp_ns", stamp), ("sample_uuid", str, "")])
        self.msgspec = msgspec
        self.dec = msgspec.json.Decoder(event)
        self.a = audit
        self.phase = 0  # 0 warmup (before tracking), 1 tracking, 2 between blocks / after
        self.inflight: dict = {}  # tracked uuid -> issue ns (negative - 1 once the first chunk arrived)
        self.failed_ids: set = set()
        self.other_ids: dict = {}  # warmup / post uuids -> phase
        self.recent: set = set()  # recently completed uuids, bounded by the ring below
        self.ring: list = [None] * RECENT_DONE
        self.ring_pos = 0
        self.block_starts: list = []
        self.block_last: list = []  # last tracked completion per block
        self.ttft = array("q")
        self.lat = array("q")
        self.issue_ns = array("q")  # tracked samples' issue times, in issue order (the steady-state window's span)
        self.last_ts = -(1 << 63)
        self.ended = False
        self.line_no = 0
        self.warm = WarmupPrompts()
        self.warm_answered: set = set()  # warmup uuids with a first chunk or a completion (a response came)

    def run(self, fh, chunk_bytes: int) -> None:
        a = self.a
        stop = False
        for kind, item in stream_lines(fh, chunk_bytes, a):
            if kind == "lines":
                self._feed(item)
            elif kind == "overlong":
                self.line_no += 1
                a.add_problem("line-too-long", self.line_no)
            elif kind == "tail":
                self._tail(item)
            else:  # "end": True when a run of NUL bytes stopped the read
                stop = item
        a.lines = self.line_no
        if stop:
            a.add_problem("nul-run", self.line_no + 1)
        self._finish()

    def _tail(self, raw: bytes) -> None:
        """A last line without a newline: decoded if complete, else a truncated last line."""
        try:
            self.dec.decode(raw)
        except (self.msgspec.DecodeError, self.msgspec.ValidationError, RecursionError):
            self.line_no += 1
            self.a.lines = self.line_no
            self.a.truncated_last_line = True
            self.a.add_problem("truncated-last-line", self.line_no)
            return
        self._feed([raw])
        self.a.add_problem("no-final-newline", self.line_no)

    def _bad_line(self, raw: bytes, line: int, exc: Exception | None = None) -> None:
        if isinstance(exc, RecursionError):
            self.a.add_problem("nesting-too-deep", line)
            return
        a = self.a
        kind = "blank-line" if not raw or not raw.strip() else "malformed-line"
        n = a.problems.get(kind, 0)
        a.problems[kind] = n + 1
        if n < MAX_EXAMPLES:
            a.examples.setdefault(kind, []).append(line)

    def _feed(self, lines: list) -> None:
        """Decode and account for each line; the hot loop, so everything it touches is local."""
        a = self.a
        decode = self.dec.decode
        errors = (self.msgspec.DecodeError, self.msgspec.ValidationError, RecursionError)
        inflight = self.inflight
        ttft_append = self.ttft.append
        lat_append = self.lat.append
        last = self.last_ts
        phase = self.phase
        non_first = 0
        line = self.line_no
        if len(lines) > 64:  # mostly empty lines (b"", or b"\r" from CRLF): counted at C speed
            for blank in (b"", b"\r"):
                if lines.count(blank) * 2 > len(lines):
                    self._feed_sparse(lines, blank)
                    return
        short = [0, 0, [], []]  # lines too short for an event: blank, malformed, their first line numbers
        for raw in lines:
            line += 1
            if len(raw) < MIN_EVENT_BYTES:  # blank, "\r", or too short for any event: no decoder, no exception
                k = 1 if raw.strip() else 0
                short[k] += 1
                if short[k] <= MAX_EXAMPLES:
                    short[k + 2].append(line)
                continue
            try:
                ev = decode(raw)
            except errors as exc:
                self._bad_line(raw, line, exc)
                continue
            t = ev.event_type
            if t == "sample.recv_non_first":  # most lines: counted per phase, not ordered
                non_first += 1
                continue
            ts = ev.timestamp_ns
            if ts < last:
                back = last - ts
                a.backsteps += 1
                if back > a.max_backstep_ns:
                    a.max_backstep_ns = back
            else:
                last = ts
            if t == "sample.recv_first":
                u = ev.sample_uuid
                v = inflight.get(u)
                if v is None:
                    if u in self.recent:
                        a.late_first_chunks += 1
                    elif u not in self.other_ids:
                        a.add_problem("event-for-unknown-sample", line)
                    elif self.other_ids[u] == 0:
                        self.warm_answered.add(u)
                elif v >= 0:
                    d = ts - v
                    if d < 0:
                        a.add_problem("event-before-issue", line)
                    ttft_append(d)
                    inflight[u] = -v - 1
                else:
                    a.add_problem("duplicate-first-chunk", line)
                continue
            if t == "sample.complete":
                u = ev.sample_uuid
                v = inflight.pop(u, None)
                if v is None:
                    self._done(u)
                    ph = self.other_ids.pop(u, None)
                    if ph == 2:
                        a.post_completed += 1
                    elif ph == 0:
                        a.warmup_completed += 1
                        self.warm_answered.add(u)
                    elif ph is None:
                        a.add_problem("event-for-unknown-sample", line)
                    continue
                if v >= 0:  # completed before any first chunk: one may still be logged late
                    t0 = v
                    self._done(u)
                else:
                    t0 = -v - 1
                d = ts - t0
                if d < 0:
                    a.add_problem("event-before-issue", line)
                lat_append(d)
                a.completed += 1
                i = bisect_right(self.block_starts, t0) - 1
                if i < 0:
                    i = 0
                if ts > self.block_last[i]:
                    self.block_last[i] = ts
                continue
            if t == "sample.issued":
                self._issued(ev, raw, ts, line, phase)
                continue
            self.last_ts = last
            self._count_chunks(non_first)
            non_first = 0
            self._other(ev, t, ts, line)
            phase = self.phase
        self.last_ts = last
        self.line_no = a.lines = line
        self._count_chunks(non_first)
        for k, kind in ((0, "blank-line"), (1, "malformed-line")):
            if short[k]:
                a.problems[kind] = a.problems.get(kind, 0) + short[k]
                a.examples[kind] = sorted(a.examples.get(kind, []) + short[k + 2])[:MAX_EXAMPLES]

    def _feed_sparse(self, lines: list, blank: bytes) -> None:
        """A batch that is mostly empty lines: counted at C speed (``sparse_runs``), the others fed in runs."""
        base = self.line_no
        for start, run in sparse_runs(lines, blank, base, self.a):
            self.line_no = start
            self._feed(run)
        self.line_no = self.a.lines = base + len(lines)

    def _done(self, u: str) -> None:
        """Remember the last RECENT_DONE completed samples (a ring): a first chunk logged after the
        completion (the two come from different processes) is then not an unknown sample."""
        pos = self.ring_pos
        old = self.ring[pos]
        if old is not None:
            self.recent.discard(old)
        self.ring[pos] = u
        self.recent.add(u)
        self.ring_pos = (pos + 1) % RECENT_DONE

    def _count_chunks(self, n: int) -> None:
        if self.phase == 1:
            self.a.recv_non_first += n
        else:
            self.a.recv_non_first_untracked += n

    def _issued(self, ev, raw: bytes, ts: int, line: int, phase: int) -> None:
        a = self.a
        u = ev.sample_uuid
        if self.ended:
            a.add_problem("event-after-session-ended", line)
        if u in self.inflight or u in self.other_ids:
            a.add_problem("duplicate-issue", line)
            return
        if phase == 1:
            self.inflight[u] = ts
            self.issue_ns.append(ts)
            a.issued += 1
            start = a.tracking_blocks[-1][0]
            if ts < start:
                a.issued_outside_window += 1
                a.issued_outside_window_max_ns = max(a.issued_outside_window_max_ns, start - ts)
                if len(a.outside_window_lines) < 5:
                    a.outside_window_lines.append(line)
            warm = self.warm
            if warm.plain or warm.salted:
                warm.compare(raw, a)
            return
        self.other_ids[u] = phase
        if phase == 0:
            a.warmup_issued += 1
            if a.warmup_first_ns is None:
                a.warmup_first_ns = ts
            self.warm.remember(raw, a)
        else:
            a.post_issued += 1

    def _other(self, ev, t: str, ts: int, line: int) -> None:
        a = self.a
        if t.startswith("error."):
            u = ev.sample_uuid
            if u in self.inflight:
                if u not in self.failed_ids:
                    self.failed_ids.add(u)
                    a.failed += 1
            elif self.other_ids.get(u) == 2 or (self.other_ids.get(u) == 0 and not a.tracking_blocks):
                a.post_failed += 1
            if t not in KNOWN_EVENTS:
                self._unknown(t, line)
            return
        if t not in KNOWN_EVENTS:
            self._unknown(t, line)
            return
        a.session_events[t] = a.session_events.get(t, 0) + 1
        if self.ended and t != "session.ended":
            a.add_problem("event-after-session-ended", line)
        if t == "session.start_performance_tracking":
            if self.phase == 1:
                a.add_problem("tracking-started-twice", line)
                return
            if not a.tracking_blocks and a.warmup_first_ns is not None:
                a.warmup_span_ns = ts - a.warmup_first_ns
            a.tracking_blocks.append((ts, None))
            self.block_starts.append(ts)
            self.block_last.append(ts)
            self.phase = 1
        elif t == "session.stop_performance_tracking":
            if self.phase != 1:
                a.add_problem("tracking-stopped-without-start", line)
                return
            start, _ = a.tracking_blocks[-1]
            a.tracking_blocks[-1] = (start, ts)
            self.phase = 2
        elif t == "session.interrupted":
            if a.interrupted_line is None:
                a.interrupted_line = line
        elif t == "session.ended":
            if self.ended:
                a.add_problem("session-ended-twice", line)
            self.ended = True
        elif t == "session.started" and (a.session_events[t] > 1 or a.issued or a.warmup_issued or a.post_issued):
            a.add_problem("session-started-late", line)

    def _unknown(self, t: str, line: int) -> None:
        a = self.a
        a.add_problem("unknown-event-type", line)
        if t in a.unknown_types or len(a.unknown_types) < 20:
            a.unknown_types[t[:80]] = a.unknown_types.get(t[:80], 0) + 1

    def _finish(self) -> None:
        a = self.a
        a.warmup_answered = len(self.warm_answered)
        self.warm_answered.clear()
        if not a.tracking_blocks:  # no performance phase (accuracy-only run): nothing was warmup
            a.post_issued += a.warmup_issued
            a.post_completed += a.warmup_completed
            a.warmup_issued = a.warmup_completed = a.warmup_salted = a.warmup_answered = 0
            a.warmup_first_ns = None
        if self.phase == 1 and a.tracking_blocks:
            a.add_problem("tracking-never-stopped", self.line_no)
        if self.line_no and "session.started" not in a.session_events:
            a.add_problem("session-never-started", 1)
        a.duration_ns = sum(max(0, last - start) for start, last in zip(self.block_starts, self.block_last))
        a.in_flight_at_end = len(self.inflight)
        a.ttft = Series.of(self.ttft)
        self.ttft = array("q")
        a.latency = Series.of(self.lat)
        self.lat = array("q")
        a.recv_first = a.ttft.count
        a.issue_ns = self.issue_ns.tobytes()
        self.issue_ns = array("q")
        self.inflight.clear()
        self.other_ids.clear()
        self.recent.clear()
