"""Summarise ``sample_idx_map.json`` ({phase: {sample_uuid: dataset_row}}) without holding it whole.

RUN-FOLDER.md §1.5: it grows with the samples (~48 bytes each), so a 20-minute run outgrows the
loader's file cap. Rules only need, per phase, how many samples it maps and the largest row index;
a file up to ``FULL_DECODE_BYTES`` is decoded and validated by msgspec, a larger one is scanned in
chunks for its ``"key": {`` / ``"key": <int>`` tokens.
"""
from __future__ import annotations

import re

import msgspec

from checker.load.events_data import open_regular
from checker.load.yaml_reader import MAX_INT_DIGITS

FULL_DECODE_BYTES = 16 << 20
#: phases one map may name: the client writes one per dataset phase (a handful); a map of millions of
#: "phases" is no sample map, and counting each would cost memory for nothing (a refusal names it)
MAX_PHASES = 1024
CHUNK_BYTES = 1 << 20
MAX_TOKEN_BYTES = 1 << 20
_TOKEN = re.compile(rb'"((?:[^"\\]|\\.)*)"\s*:\s*(\{|-?\d+|[^\s{0-9-])')


BOM = b"\xef\xbb\xbf"


class IdxMap(msgspec.Struct):
    """Per phase: (samples mapped, largest row index or None)."""

    path: str = ""
    error: str | None = None
    phases: dict = msgspec.field(default_factory=dict)
    bom: bool = False  # the file started with a UTF-8 byte-order mark (read as if absent)

    def count(self, phase: str) -> int | None:
        v = self.phases.get(phase)
        return v[0] if v is not None else None

    def max_index(self, phase: str) -> int | None:
        v = self.phases.get(phase)
        return v[1] if v is not None else None


def summarize_idx_map(path: str, root_real: str | None = None) -> IdxMap:
    """Never raises: an unreadable or malformed file sets ``error``."""
    out = IdxMap(path=path)
    try:
        fh = open_regular(path, root_real)
    except OSError as exc:
        out.error = f"cannot open: {exc.strerror or exc}"
        return out
    with fh:
        import os

        try:
            size = os.fstat(fh.fileno()).st_size
        except OSError as exc:
            out.error = f"read error: {exc.strerror or exc}"
            return out
        return summarize_stream(fh, size, path)


def summarize_stream(fh, size: int, path: str = "") -> IdxMap:
    """Summarise an open binary stream of ``size`` bytes (object storage, an archive member)."""
    out = IdxMap(path=path)
    try:
        if size <= FULL_DECODE_BYTES:
            raw = fh.read()
            if raw.count(b"{") <= MAX_PHASES + 1:
                _decode(raw, out)
            else:  # more objects than phases allowed: the scan names where the limit is passed
                import io

                _scan(io.BytesIO(raw), out)
        else:
            _scan(fh, out)
    except OSError as exc:
        out.error = f"read error: {exc.strerror or exc}"
    return out


def _decode(raw: bytes, out: IdxMap) -> None:
    import msgspec

    if raw.startswith(BOM):
        raw, out.bom = raw[len(BOM):], True
    try:
        data = msgspec.json.decode(raw, type=dict[str, dict[str, int]])
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        out.error = f"not a {{phase: {{sample_uuid: row}}}} map: {exc}"
        return
    limit = 10 ** MAX_INT_DIGITS  # the scan's bound on a row index, the same for a file decoded whole
    for rows in data.values():
        for key, n in rows.items():
            if not -limit < n < limit:
                try:
                    digits = len(str(abs(n)))
                except ValueError:  # beyond Python's own limit on int-to-text conversion
                    digits = "thousands of"
                out.error = (f"not a {{phase: {{sample_uuid: row}}}} map: a row index of {digits} digits "
                             f"(limit {MAX_INT_DIGITS}) after {key.encode('utf-8', 'surrogatepass')[:40]!r}")
                return
    out.phases = {k: (len(v), max(v.values()) if v else None) for k, v in data.items()}


def _scan(fh, out: IdxMap) -> None:
    phases: dict = {}
    current = None
    rest = b""
    first = True
    while True:
        chunk = fh.read(CHUNK_BYTES)
        if first:
            first = False
            if chunk.startswith(BOM):
                chunk, out.bom = chunk[len(BOM):], True
        buf = rest + chunk
        if not chunk:
            cut = len(buf)
        else:
            cut = max(buf.rfind(b","), buf.rfind(b"\n"), buf.rfind(b"{")) + 1  # just after a delimiter
            if cut == 0:
                if len(buf) > MAX_TOKEN_BYTES:
                    out.error = "not a {phase: {sample_uuid: row}} map: a token longer than 1 MiB"
                    return
                rest = buf
                continue
        for m in _TOKEN.finditer(buf, 0, cut):
            key, val = m.group(1), m.group(2)
            if val == b"{":
                current = key.decode("utf-8", "replace")
                if current not in phases:
                    if len(phases) >= MAX_PHASES:
                        out.error = (f"not a {{phase: {{sample_uuid: row}}}} map: more than {MAX_PHASES:,} phases "
                                     f"(the client writes one per dataset phase); the rest is not read")
                        return
                    phases[current] = [0, None]
            elif current is not None and val[-1:].isdigit():
                if len(val.lstrip(b"-")) > MAX_INT_DIGITS:
                    out.error = (f"not a {{phase: {{sample_uuid: row}}}} map: a row index of {len(val.lstrip(b'-'))} "
                                 f"digits (limit {MAX_INT_DIGITS}) after {key[:40]!r}")
                    return
                entry = phases[current]
                entry[0] += 1
                n = int(val)
                if entry[1] is None or n > entry[1]:
                    entry[1] = n
            else:
                out.error = f"not a {{phase: {{sample_uuid: row}}}} map: unexpected value after {key[:40]!r}"
                return
        rest = buf[cut:]
        if not chunk:
            break
    out.phases = {k: (v[0], v[1]) for k, v in phases.items()}
