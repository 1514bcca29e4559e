"""An events.jsonl byte stream as batches of lines, bounded: what the audit reads, in file order.

The log is read in fixed-size chunks and split at newlines; a line longer than MAX_LINE_BYTES is
dropped (never held whole) and reported in its place, a UTF-8 byte-order mark before the first line is
read as if absent, and a run of MAX_NUL_RUN NUL bytes (a preallocated or truncated file) ends the read.
A batch of mostly empty lines is counted at C speed (``sparse_runs``), so a log of nothing but newlines
costs what any log of its size costs.
"""
from __future__ import annotations

from itertools import compress
from typing import Iterator

from checker.load.events_data import MAX_EXAMPLES

MAX_LINE_BYTES = 64 << 20  # a longer "line" is counted as a problem and skipped, never held whole
MAX_NUL_RUN = 64 << 10
_NUL_RUN = b"\0" * MAX_NUL_RUN


def stream_lines(fh, chunk_bytes: int, audit) -> Iterator[tuple[str, object]]:
    """Yield ("lines", [complete lines]), ("overlong", None) where a dropped line stood, ("tail", bytes)
    for a last line without a newline, then ("end", whether a NUL run stopped the read). Sets the audit's
    bytes_read, bom and stopped_at_byte as it reads."""
    a = audit
    pending: list = []  # pieces of a line longer than a chunk (joined once, never re-copied)
    pending_len = 0
    overlong = False  # the current line passed MAX_LINE_BYTES: dropped, counted, not decoded
    first = True
    nul_tail = 0  # NUL bytes at the end of what was read so far
    stop = False
    while not stop:
        chunk = fh.read(chunk_bytes)
        if not chunk:
            break
        if b"\0" in chunk:
            chunk, nul_tail, run_start = _cut_nul_run(chunk, nul_tail)
            if run_start is not None:
                stop = True
                a.stopped_at_byte = a.bytes_read + run_start
        else:
            nul_tail = 0
        a.bytes_read += len(chunk)
        if first:  # a UTF-8 byte-order mark before the first line is read as if absent (and noted)
            first = False
            if chunk.startswith(b"\xef\xbb\xbf"):
                chunk, a.bom = chunk[3:], True
        lines = chunk.split(b"\n")
        if len(lines) == 1:  # no newline in this chunk
            if not overlong:
                pending.append(chunk)
                pending_len += len(chunk)
                if pending_len > MAX_LINE_BYTES:
                    overlong, pending, pending_len = True, [], 0
            continue
        if overlong:
            yield "overlong", None
            del lines[0]
            overlong = False
        elif pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending, pending_len = [], 0
        rest = lines.pop()  # the part after the last newline (b"" when the chunk ends with one)
        if lines:
            yield "lines", lines
        if rest:
            pending, pending_len = [rest], len(rest)
    if overlong:
        yield "overlong", None
    elif pending:
        rest = b"".join(pending)
        if stop:  # the NUL bytes before the run belong to it, not to a last line
            rest = rest.rstrip(b"\0")
        if rest.strip():
            yield "tail", rest
    yield "end", stop


def _cut_nul_run(chunk: bytes, nul_tail: int) -> tuple[bytes, int, int | None]:
    """(the part of ``chunk`` to audit, NUL bytes now ending what was read, where a run of MAX_NUL_RUN NUL
    bytes starts relative to ``chunk`` or None): ``nul_tail`` NUL bytes ended the previous chunks, so a
    run is found across chunk boundaries (its start is then negative)."""
    lead = len(chunk) - len(chunk.lstrip(b"\0"))
    if nul_tail + lead >= MAX_NUL_RUN:
        return b"", 0, -nul_tail
    cut = chunk.find(_NUL_RUN)
    if cut >= 0:
        return chunk[:cut], 0, cut
    trail = len(chunk) - len(chunk.rstrip(b"\0"))
    return chunk, (nul_tail + trail if trail == len(chunk) else trail), None


def sparse_runs(lines: list, blank: bytes, base: int, audit) -> Iterator[tuple[int, list]]:
    """A batch that is mostly ``blank`` lines (b"", or b"\\r" from CRLF), the first at line ``base + 1``:
    count them as the audit's blank-line problem without a Python step each, then yield (the line number
    before each run of other lines, the run), in order, for the caller to decode."""
    a = audit
    seen = a.problems.get("blank-line", 0)
    a.problems["blank-line"] = seen + lines.count(blank)
    ex = a.examples.setdefault("blank-line", [])
    at = -1
    while len(ex) < MAX_EXAMPLES and seen < MAX_EXAMPLES:
        try:
            at = lines.index(blank, at + 1)
        except ValueError:
            break
        ex.append(base + at + 1)
        seen += 1
    kept = list(compress(range(len(lines)), lines if not blank else map(blank.__ne__, lines)))  # the other lines
    i = 0
    while i < len(kept):
        j = i
        while j + 1 < len(kept) and kept[j + 1] == kept[j] + 1:
            j += 1
        yield base + kept[i], lines[kept[i]:kept[j] + 1]
        i = j + 1
