"""The base protocol's frames (``Content-Length: N`` headers, a blank line, N bytes of JSON) cut from a byte
stream with bounded memory, re-synchronising after anything malformed.

``Frames.feed(chunk)`` yields each complete body (bytes) and a ``Problem`` for each frame it refuses: a
length that is not a number, negative, missing or over ``limit``; bytes that are not a header; a header
block over 8 KiB; a body cut short by the next frame's header. After a problem it skips to the next
``Content-Length: <digits>`` line. That line can never occur inside a valid JSON body (outside a string it
is not JSON; inside one a raw line break is not allowed), so the resynchronisation never lands inside a
good frame, and a body that contains it was given a length longer than it is.
"""
from __future__ import annotations

import re
from typing import Iterator, NamedTuple

#: the largest body accepted: far above the reader's 8 MiB file cap, so a buffer over that cap still gets
#: its file-too-large diagnostic, and far below what would exhaust memory
MAX_BODY = 64 * 1024 * 1024
#: a header block (every header line and the blank line) is at most this long
MAX_HEAD = 8 * 1024
#: how much of a refused body is kept to find the id of the request it held
PEEK = 4 * 1024

_MARKER = re.compile(rb"content-length:[ \t]{0,8}\d{1,20}[ \t]{0,8}\r?\n", re.IGNORECASE)
_MARKER_HEAD = b"content-length:"
_TAIL = 64  # bytes kept between chunks while looking for a marker (longer than any marker)
_HEAD_END = re.compile(rb"\r?\n\r?\n")
_HEADER = re.compile(rb"([!#$%&'*+\-.^_`|~0-9A-Za-z]+):[ \t]*(.*?)[ \t]*")
_HEADER_PREFIX = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]*(?::[^\r\n]*)?\r?")


class Problem(NamedTuple):
    """A refused frame: ``text`` says why; ``body`` holds the start of its body when there is one (to find
    the id of the request it held and answer it)."""

    text: str
    body: bytes | None = None


class Frames:
    def __init__(self, limit: int = MAX_BODY):
        self.limit = limit
        self._buf = bytearray()
        self._need: int | None = None  # reading a body of this many bytes
        self._scanned = 0  # how much of that body was already searched for a marker
        self._skipping = False  # looking for the next frame's header

    def feed(self, data: bytes) -> Iterator[bytes | Problem]:
        self._buf += data
        while True:
            if self._skipping:
                if not self._skip():
                    return
            item = self._body() if self._need is not None else self._head()
            if item is None:
                return
            if item is not True:
                yield item

    # -- states -------------------------------------------------------------------------------------------
    def _head(self) -> Problem | bool | None:
        """Read a header block: True when its body follows, a Problem when refused, None for more bytes."""
        buf = self._buf
        blank = len(buf) - len(buf.lstrip(b"\r\n"))
        if blank:
            del buf[:blank]  # line breaks between frames are harmless
        end = _HEAD_END.search(buf, 0, MAX_HEAD + 4)
        if end is None:
            if len(buf) > MAX_HEAD:
                return self._refuse(f"a header block longer than {MAX_HEAD:,} bytes")
            lines = bytes(buf).split(b"\n")
            bad = next((ln for ln in lines[:-1] if not _HEADER.fullmatch(ln.rstrip(b"\r"))), None)
            if bad is None and not _HEADER_PREFIX.fullmatch(lines[-1]):
                bad = lines[-1]
            return None if bad is None else self._refuse(f"{_quoted_bytes(bad)} is not a header")
        lengths = []
        for line in bytes(buf[:end.start()]).split(b"\n"):
            m = _HEADER.fullmatch(line.rstrip(b"\r"))
            if m is None:
                return self._refuse(f"{_quoted_bytes(line)} is not a header")
            if m.group(1).lower() == b"content-length":
                lengths.append(m.group(2))
        peek = bytes(buf[end.end():end.end() + PEEK])
        cut = _find_marker(peek, 0, len(peek))
        peek = peek[:cut]  # the body's start, never the next frame's
        if not lengths:
            return self._refuse("a frame with no Content-Length header", peek)
        if len(set(lengths)) > 1:
            return self._refuse("a frame with two different Content-Length headers", peek)
        if not lengths[0].isdigit() or len(lengths[0]) > 20:
            return self._refuse(f"Content-Length {_quoted_bytes(lengths[0])} is not a number of bytes", peek)
        n = int(lengths[0])
        if n > self.limit:
            return self._refuse(f"a frame of {n:,} bytes, over the limit of {self.limit:,}", peek)
        del buf[:end.end()]
        self._need, self._scanned = n, 0
        return True

    def _body(self) -> bytes | Problem | None:
        buf, n = self._buf, self._need
        hit = _find_marker(buf, max(0, self._scanned - _TAIL), min(len(buf), n + _TAIL))
        if hit is not None and hit < n:
            body = bytes(buf[:min(hit, PEEK)])
            del buf[:hit]
            self._need = None
            return Problem(f"a frame whose Content-Length ({n:,}) runs past the next frame's header", body)
        if len(buf) < n:
            self._scanned = len(buf)
            return None
        body = bytes(buf[:n])
        del buf[:n]
        self._need = None
        return body

    def _refuse(self, text: str, body: bytes | None = None) -> Problem:
        del self._buf[:1]  # the refused frame's own header is not the next frame's
        self._skipping = True
        return Problem(text, body)

    def _skip(self) -> bool:
        """Drop bytes up to the next frame's header: True when found, False when more bytes are needed."""
        buf = self._buf
        hit = _find_marker(buf, 0, len(buf))
        if hit is None:
            del buf[:max(0, len(buf) - _TAIL)]
            return False
        del buf[:hit]
        self._skipping = False
        return True


def _find_marker(buf: bytes | bytearray, start: int, end: int) -> int | None:
    """Where the first ``Content-Length: <digits>`` line starts in ``buf[start:end]`` (None also when one may
    still be arriving at the end of ``buf``)."""
    low = bytes(buf[start:end]).lower()
    i = low.find(_MARKER_HEAD)
    while i >= 0:
        if _MARKER.match(buf, start + i) is not None:
            return start + i
        if len(buf) - (start + i) < _TAIL:
            return None
        i = low.find(_MARKER_HEAD, i + 1)
    return None


def _quoted_bytes(raw: bytes) -> str:
    """The first 40 bytes of a frame header as a quoted text (bytes, not a loaded value: core.values.show does not apply)."""
    text = raw[:40].decode("utf-8", "backslashreplace")
    return repr(text + ("..." if len(raw) > 40 else ""))
