"""Write the requested outputs: each format rendered on its own, each file written whole or not at all.

Promises (docs/robustness.md):

- One renderer failing never loses the others' outputs; it is reported on stderr and the run exits 2
  (an internal failure, never read as "a FAIL was found"). The JSON report falls back to a plain
  re-encoding of the same document, so it is written whatever happens.
- Every string reaches every format: a lone UTF-16 surrogate (a ``\\ud800`` in a JSON file, a
  non-UTF-8 byte in a file name) is written as the visible escape ``\\udcxx``; characters the
  target encoding lacks (``PYTHONIOENCODING=ascii``) become the format's own escape (JSON
  ``\\uXXXX``, HTML/XML character references, ``\\xNN`` in text).
- A file is written to a temporary file beside it and renamed over the target, so a report is never
  left empty or half written. A device or FIFO target is written in place; a FIFO without a reader
  is an error, never a hang.
- A target that cannot be written (``/dev/full``, an unwritable directory, a closed standard output)
  is a one-line error naming the path, exit 2; the other outputs are still written.
"""
from __future__ import annotations

import codecs
import os
import re
import stat
import sys

import msgspec

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


class Emitted(msgspec.Struct):
    """What ``emit`` did: the files written and the problems met (each one makes the run exit 2)."""

    written: list = msgspec.field(default_factory=list)  # (format, path)
    problems: list = msgspec.field(default_factory=list)  # one line each, naming the format and the path

    @property
    def ok(self) -> bool:
        return not self.problems


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: str, data) -> None:
    """Write ``data`` (bytes, or an iterable of bytes) to ``path`` whole: a temporary file beside it renamed
    over it (an existing symlink is followed to its file). A device or FIFO, or a name of the process's own
    descriptors (``/dev/stdout``, ``/proc/self/fd/1``), is written in place, never blocking on the open."""
    st = _output_stat(path)
    if st is not None and (not stat.S_ISREG(st.st_mode) or _names_a_descriptor(path)):
        _write_special(path, data, truncate=stat.S_ISREG(st.st_mode))
        return
    real = os.path.realpath(path)
    import tempfile  # only when a file is written: tempfile imports random, shutil, ...

    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(real) or ".", prefix="." + os.path.basename(real)[:100] + ".",
                               suffix=".part")
    try:
        try:
            _write_all(fd, data)
            os.fchmod(fd, 0o666 & ~_umask())
        finally:
            os.close(fd)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _output_stat(path: str):
    """What an output path names now (None: nothing yet); an empty name or a directory is refused."""
    if path == "":
        raise OSError(0, "an empty path is not a file name")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        raise OSError(0, "is a directory")
    return st


def _names_a_descriptor(path: str) -> bool:
    """/dev/stdout, /dev/fd/N, /proc/self/fd/N: the file behind an open descriptor, written where it is."""
    a = os.path.abspath(path)
    return a.startswith(("/dev/", "/proc/"))


def _write_special(path: str, data, append: bool = False, truncate: bool = False) -> None:
    flags = (os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | (os.O_APPEND if append else 0)
             | (os.O_TRUNC if truncate and not append else 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == getattr(__import__("errno"), "ENXIO", None):
            raise OSError(exc.errno, "no process is reading this FIFO or socket") from None
        raise
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a reader exists: wait for it like any pipe writer
        _write_all(fd, data)
    finally:
        os.close(fd)


def append_file(path: str, data: bytes) -> None:
    """Append to ``path`` (``$GITHUB_STEP_SUMMARY``): never blocks on a FIFO without a reader."""
    st = _output_stat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_special(path, data, append=True)
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOCTTY", 0), 0o666)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _write_all(fd: int, data) -> None:
    for piece in ((data,) if isinstance(data, (bytes, bytearray)) else data):
        view = memoryview(piece)
        while view:
            n = os.write(fd, view)
            view = view[n:]


def write_stdout(fmt: str, text: str) -> None:
    """Write one rendered output to standard output; raise OSError when it is closed or fails."""
    stream = sys.stdout
    if stream is None:
        raise OSError(0, "standard output is closed")
    try:
        stream.flush()
        buffer = getattr(stream, "buffer", None)
        if buffer is None:  # a text-only stream (a test harness): it takes str
            data = encode_output(fmt, text, getattr(stream, "encoding", None) or "utf-8")
            stream.write(data.decode(getattr(stream, "encoding", None) or "utf-8", "replace"))
        else:
            buffer.write(encode_output(fmt, text, getattr(stream, "encoding", None) or "utf-8"))
            buffer.flush()
        stream.flush()
    except ValueError as exc:  # "I/O operation on closed file"
        raise OSError(0, f"standard output is closed ({exc})") from None
    except OSError:
        _silence_stdout()
        raise


def _silence_stdout() -> None:
    """After a failed write to stdout, point it at /dev/null so the interpreter's exit flush is quiet."""
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError, AttributeError):
        pass


def _render(fmt: str, report, options: dict):
    """The rendered text: a str, or for JSON an iterator of pieces (streamed, see json_report)."""
    if fmt == "json":
        from checker.render.json_report import render_chunks

        return render_chunks(report)
    from checker.render import render

    return render(fmt, report, **options)


def _encoded(fmt: str, text, encoding: str | None = "utf-8"):
    if isinstance(text, str):
        return encode_output(fmt, text, encoding)
    return (encode_output(fmt, piece, encoding) for piece in text)


def _render_json_fallback(report) -> str:
    """The JSON report when its renderer failed: the same document, every value forced JSON-safe."""
    import json

    from checker.core.findings import json_safe

    def safe(v, depth=0):
        if isinstance(v, dict):
            return {str(k): safe(x, depth + 1) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [safe(x, depth + 1) for x in v]
        return json_safe(v)

    return json.dumps(safe(report.to_dict()), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def emit(report, pairs: list[tuple[str, str]], options: dict, is_dir_output) -> Emitted:
    """Render and write every (format, target) pair; never raises for a renderer or a target."""
    from checker.render import resolve_auto

    done = Emitted()
    for fmt, out in pairs:
        if fmt == "auto":
            fmt = resolve_auto()
        where = "standard output" if out == "-" else out
        if fmt == "html" and out != "-" and is_dir_output(out):
            _emit_cohort(report, out, done)
            continue
        if out == "-" and sys.stdout is None:  # the process started with fd 1 closed
            done.problems.append(f"cannot write the {fmt} report to standard output: it is closed")
            continue
        opts = dict(options) if out == "-" else {**options, "tty": False}
        try:
            try:
                _write_target(fmt, out, _render(fmt, report, opts))
            except OSError:
                raise
            except Exception as exc:  # noqa: BLE001  (one renderer never loses the others)
                done.problems.append(f"internal error: the {fmt} report for {where} could not be rendered "
                                     f"({_describe(exc)})")
                if fmt != "json":
                    continue
                try:
                    text = _render_json_fallback(report)
                except Exception:  # noqa: BLE001
                    continue
                _write_target(fmt, out, text)
            if out != "-":
                done.written.append((fmt, out))
        except OSError as exc:
            done.problems.append(f"cannot write the {fmt} report to {where}: {_describe(exc)}")
    _step_summary(report, done)
    return done


def _write_target(fmt: str, out: str, text) -> None:
    if out == "-":
        text = text if isinstance(text, str) else "".join(text)  # whole before the first byte goes out
        if text:
            write_stdout(fmt, text)
    else:
        write_file(out, _encoded(fmt, text))


def _emit_cohort(report, outdir: str, done: Emitted) -> None:
    from checker.render.cohort_html import render_cohort

    try:
        files = render_cohort(report)
    except Exception as exc:  # noqa: BLE001
        done.problems.append(f"internal error: the cohort HTML for {outdir} could not be rendered ({_describe(exc)})")
        return
    try:
        os.makedirs(outdir, exist_ok=True)
    except OSError as exc:
        done.problems.append(f"cannot create the HTML folder {outdir}: {_describe(exc)}")
        return
    ok = True
    for name in ["index.html"] + sorted(n for n in files if n != "index.html"):
        path = os.path.join(outdir, name)
        try:
            write_file(path, encode_output("html", files[name]))
        except OSError as exc:
            ok = False
            done.problems.append(f"cannot write the html report to {path}: {_describe(exc)}")
    if ok:
        done.written.append(("html", outdir))


def _step_summary(report, done: Emitted) -> None:
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if not summary or os.environ.get("GITHUB_ACTIONS") != "true":
        return
    try:
        from checker.render.github import step_summary

        text = step_summary(report)
    except Exception as exc:  # noqa: BLE001
        done.problems.append(f"internal error: the GitHub step summary could not be rendered ({_describe(exc)})")
        return
    try:
        append_file(summary, encode_output("markdown", text))
    except OSError as exc:
        # the step summary is a courtesy (the requested outputs are written): a warning, not exit 2
        _warn(f"warning: cannot append to GITHUB_STEP_SUMMARY {summary}: {_describe(exc)}")


def _warn(line: str) -> None:
    stream = sys.stderr
    if stream is None:
        return
    try:
        stream.write(encode_output("text", line + "\n", getattr(stream, "encoding", None))
                     .decode(getattr(stream, "encoding", None) or "utf-8", "replace"))
        stream.flush()
    except (OSError, ValueError, LookupError):
        pass


def warn(line: str) -> None:
    """One line on stderr, encodable whatever stderr's encoding; silent when stderr is closed."""
    _warn(line)
