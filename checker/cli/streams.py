"""Standard output and standard error, every byte, and the encodings of every output.

- Standard output is written through its descriptor (``checker.core.writing.write_all``): a short write
  is continued and a non-blocking descriptor waited on, so a slow reader gets every byte; a reader gone
  is an OSError the caller turns into exit 2. Standard error's lines go the same way.
- Every string reaches every format: a lone UTF-16 surrogate (a ``\\ud800`` in a JSON file, a
  non-UTF-8 byte in a file name) is written as the visible escape ``\\udcxx``; characters the target
  encoding lacks (``PYTHONIOENCODING=ascii``) become the format's own escape (JSON ``\\uXXXX``,
  HTML/XML character references, ``\\xNN`` in text).
"""
from __future__ import annotations

import codecs
import os
import re
import sys

from checker.core.writing import wait_writable, write_all

#: formats whose submitter strings all sit inside JSON strings
JSON_FORMATS = frozenset({"json", "sarif"})
#: formats read as HTML or XML (character references are their escape)
MARKUP_FORMATS = frozenset({"html", "junit"})

_SURROGATE = re.compile("[\ud800-\udfff]")


def _json_errors(exc: UnicodeEncodeError):
    """Inside a JSON string: a lone surrogate as the visible text ``\\udcxx``, anything else ``\\uXXXX``."""
    out = []
    for ch in exc.object[exc.start:exc.end]:
        cp = ord(ch)
        if 0xD800 <= cp <= 0xDFFF:
            out.append("\\\\u%04x" % cp)
        elif cp > 0xFFFF:
            cp -= 0x10000
            out.append("\\u%04x\\u%04x" % (0xD800 + (cp >> 10), 0xDC00 + (cp & 0x3FF)))
        else:
            out.append("\\u%04x" % cp)
    return "".join(out), exc.end


def _markup_errors(exc: UnicodeEncodeError):
    out = []
    for ch in exc.object[exc.start:exc.end]:
        cp = ord(ch)
        out.append("\\u%04x" % cp if 0xD800 <= cp <= 0xDFFF else f"&#{cp};")
    return "".join(out), exc.end


def _text_errors(exc: UnicodeEncodeError):
    out = []
    for ch in exc.object[exc.start:exc.end]:
        cp = ord(ch)
        out.append("\\u%04x" % cp if 0xD800 <= cp <= 0xDFFF else
                   ("\\x%02x" % cp if cp < 0x100 else ("\\u%04x" % cp if cp < 0x10000 else "\\U%08x" % cp)))
    return "".join(out), exc.end


codecs.register_error("endpoints-checker-json", _json_errors)
codecs.register_error("endpoints-checker-markup", _markup_errors)
codecs.register_error("endpoints-checker-text", _text_errors)


def encode_output(fmt: str, text: str, encoding: str | None = "utf-8") -> bytes:
    """``text`` in ``encoding``; whatever it cannot hold becomes the format's visible escape."""
    encoding = encoding or "utf-8"
    try:
        return text.encode(encoding)
    except (UnicodeEncodeError, LookupError):
        pass
    errors = ("endpoints-checker-json" if fmt in JSON_FORMATS else
              "endpoints-checker-markup" if fmt in MARKUP_FORMATS else "endpoints-checker-text")
    try:
        return text.encode(encoding, errors)
    except LookupError:  # an encoding Python does not know: UTF-8 then
        return text.encode("utf-8", errors)


def write_stdout(fmt: str, text) -> None:
    """Write one rendered output (a str, or an iterable of str pieces, written as they come) to standard
    output, every byte: through its descriptor, continuing short writes and waiting on a non-blocking one
    (``targets.write_all``). Raise OSError when it is closed or fails (a reader gone: BrokenPipeError)."""
    stream = sys.stdout
    if stream is None:
        raise OSError(0, "standard output is closed")
    encoding = getattr(stream, "encoding", None) or "utf-8"
    pieces = (text,) if isinstance(text, str) else text
    try:
        fd = _fileno(stream)
        _flush(stream, fd)
        if fd is None:  # a text-only stream (a test harness): it takes str
            for piece in pieces:
                stream.write(encode_output(fmt, piece, encoding).decode(encoding, "replace"))
            stream.flush()
        else:
            write_all(fd, (encode_output(fmt, piece, encoding) for piece in pieces))
    except ValueError as exc:  # "I/O operation on closed file"
        raise OSError(0, f"standard output is closed ({exc})") from None
    except OSError:
        _silence_stdout()
        raise


def _fileno(stream) -> int | None:
    """The stream's descriptor, None for a stream that has none (io.StringIO, a test's capture)."""
    import io

    try:
        return stream.fileno()
    except io.UnsupportedOperation:
        return None
    except AttributeError:
        return None


def _flush(stream, fd: int | None) -> None:
    """Flush what the stream holds before writing under it; a non-blocking descriptor is waited on."""
    while True:
        try:
            stream.flush()
            return
        except BlockingIOError:
            if fd is None:
                raise
            wait_writable(fd)


def _silence_stdout() -> None:
    """After a failed write to stdout, point it at /dev/null so the interpreter's exit flush is quiet."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def _warn(line: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    encoding = getattr(stream, "encoding", None) or "utf-8"
    try:
        data = encode_output("text", line + "\n", encoding)
        fd = _fileno(stream)
        if fd is None:
            stream.write(data.decode(encoding, "replace"))
            stream.flush()
        else:  # every byte, also on a non-blocking stderr
            _flush(stream, fd)
            write_all(fd, data)
    except (OSError, ValueError, LookupError):
        pass


def warn(line: str) -> None:
    """One line on stderr, encodable whatever stderr's encoding; silent when stderr is closed."""
    _warn(line)
