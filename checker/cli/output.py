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
- One exit code: each such problem is also in the report (``summary.output_problems``, exit_code 2),
  and every report that carries the exit code (JSON, HTML) is written knowing every problem met
  before it was written (``emit``).
"""
from __future__ import annotations

import os
import stat
import sys

import msgspec

from checker.cli import folder
from checker.core import scratch
from checker.cli.targets import (append_file, commit, discard, in_place, stage_file, write_file,  # noqa: F401
                                 write_special)
from checker.cli.streams import (JSON_FORMATS, MARKUP_FORMATS, _warn, encode_output, warn,  # noqa: F401
                                 write_stdout)

class Emitted(msgspec.Struct):
    """What ``emit`` did: the files written and the problems met (each one makes the run exit 2)."""

    written: list = msgspec.field(default_factory=list)  # (format, path)
    problems: list = msgspec.field(default_factory=list)  # one line each, naming the format and the path
    in_place: str | None = None  # the target written in place right now (an interrupt leaves it cut short)

    @property
    def ok(self) -> bool:
        return not self.problems


def _describe(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _render(fmt: str, report, options: dict):
    """The rendered text: a str, or for JSON and SARIF an iterator of pieces (streamed: see json_report)."""
    if fmt == "json":
        from checker.render.json_report import render_chunks

        return render_chunks(report)
    if fmt == "sarif":
        from checker.render.sarif import render_chunks as sarif_chunks

        return sarif_chunks(report)
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


#: formats that carry the exit code (JSON: summary.exit_code; HTML: "exit status N"): written after the
#: others, and rendered again when an output failed after they were rendered, so they never contradict it
CARRIES_EXIT = frozenset({"json", "html"})


class _Staged(msgspec.Struct):
    """One output rendered into a temporary file (or folder) beside its target, renamed over it at the end."""

    fmt: str
    out: str  # the target (a file, or the folder of a cohort's HTML pages)
    files: list  # [(temporary file or folder, target)]
    seen: int  # output problems known when it was rendered
    folder: bool = False  # a cohort's HTML folder, swapped whole (checker.cli.folder)

    def commit(self) -> None:
        for pair in self.files:
            (folder.commit if self.folder else commit)(pair)

    def discard(self) -> None:
        for pair in self.files:
            (folder.discard if self.folder else discard)(pair)


def emit(report, pairs: list[tuple[str, str]], options: dict, is_dir_output) -> Emitted:
    """Render and write every (format, target) pair; never raises for a renderer or a target.

    The exit code is one fact: every problem here is added to ``report.output_problems`` (exit 2), and a
    report carrying the exit code is written knowing every problem met before it. Files are rendered into
    temporary files first; targets written in place (standard output, a device, a FIFO) follow, those
    carrying the exit code last; staged files rendered before a later problem are rendered again; then
    every staged file is renamed over its target. An interrupt (a KeyboardInterrupt: checker.cli.interrupt)
    removes every staged file, so each target not yet renamed over keeps its old content, and carries what
    was written (``written``) and what was being written in place (``cut_short``) when it came."""
    done = Emitted()
    report.output_problems = done.problems
    staged: list[_Staged] = []
    try:
        _emit(report, pairs, options, is_dir_output, done, staged)
        _step_summary(report, done)
    except KeyboardInterrupt as exc:
        for one in staged:
            one.discard()
        if hasattr(exc, "written"):
            exc.written = list(done.written)
            exc.cut_short = done.in_place
        raise
    return done


def _emit(report, pairs, options: dict, is_dir_output, done: Emitted, staged: list) -> None:
    from checker.render import resolve_auto

    direct: list[tuple[str, str]] = []
    for fmt, out in pairs:
        fmt = resolve_auto() if fmt == "auto" else fmt
        try:
            here = out == "-" or (not (fmt == "html" and is_dir_output(out)) and in_place(out))
        except OSError as exc:
            _problem(done, f"cannot write the {fmt} report to {out}: {_describe(exc)}")
            continue
        if here:
            direct.append((fmt, out))
            continue
        one = _stage(report, fmt, out, options, done, is_dir_output)
        if one is not None:
            staged.append(one)
    for fmt, out in sorted(direct, key=lambda p: p[0] in CARRIES_EXIT):  # stable: the others first
        _write_direct(report, fmt, out, options, done)
    for _ in range(3):  # a staged report rendered before a later problem is rendered again, with it
        stale = [one for one in staged if one.fmt in CARRIES_EXIT and one.seen != len(done.problems)]
        if not stale:
            break
        for one in stale:
            i = staged.index(one)
            staged.pop(i)
            one.discard()
            again = _stage(report, one.fmt, one.out, options, done, is_dir_output)
            if again is not None:
                staged.insert(i, again)
    while staged:
        one = staged[0]
        try:
            one.commit()
            done.written.append((one.fmt, one.out))
        except OSError as exc:
            _problem(done, f"cannot write the {one.fmt} report to {one.out}: {_describe(exc)}")
        staged.pop(0)


def _problem(done: Emitted, line: str) -> None:
    if line not in done.problems:  # the same failure met again (a report rendered twice) is one problem
        done.problems.append(line)


def _stage(report, fmt: str, out: str, options: dict, done: Emitted, is_dir_output) -> _Staged | None:
    """Render one output into temporary files beside its target(s); None when nothing could be staged."""
    if fmt == "html" and is_dir_output(out):
        return _stage_cohort(report, out, done)
    opts = {**options, "tty": False}
    _swept(scratch.sweep(os.path.dirname(os.path.realpath(out)) or ".", os.path.basename(os.path.realpath(out))))
    try:
        try:
            pair = stage_file(out, _encoded(fmt, _render(fmt, report, opts)))
        except OSError:
            raise
        except Exception as exc:  # noqa: BLE001  (one renderer never loses the others)
            _problem(done, f"internal error: the {fmt} report for {out} could not be rendered ({_describe(exc)})")
            if fmt != "json":
                return None
            pair = stage_file(out, encode_output(fmt, _render_json_fallback(report)))
    except OSError as exc:
        _problem(done, f"cannot write the {fmt} report to {out}: {_describe(exc)}")
        return None
    except Exception:  # noqa: BLE001  (the fallback itself failed: the problem above is the report)
        return None
    return _Staged(fmt, out, [pair], len(done.problems))


def _write_direct(report, fmt: str, out: str, options: dict, done: Emitted) -> None:
    """An output written where it is (standard output, a device, a FIFO): streamed as it is rendered, the
    first piece (for JSON: everything before the findings) rendered before any byte goes out."""
    where = "standard output" if out == "-" else out
    if out == "-" and sys.stdout is None:  # the process started with fd 1 closed
        _problem(done, f"cannot write the {fmt} report to standard output: it is closed")
        return
    opts = dict(options) if out == "-" else {**options, "tty": False}
    failed: list = []
    try:
        try:
            text = _render(fmt, report, opts)
            if not isinstance(text, str):
                pieces = iter(text)
                text = _guarded(next(pieces, ""), pieces, failed)
        except Exception as exc:  # noqa: BLE001
            _problem(done, f"internal error: the {fmt} report for {where} could not be rendered ({_describe(exc)})")
            if fmt != "json":
                return
            text = _render_json_fallback(report)
        done.in_place = out
        if out == "-":
            write_stdout(fmt, text)
        else:
            write_special(out, _encoded(fmt, text), truncate=stat.S_ISREG(os.stat(out).st_mode))
        done.in_place = None
        if failed:  # a renderer that failed after its first piece went out (a bug): the output is cut short
            _problem(done, f"internal error: the {fmt} report for {where} is incomplete: it could not be rendered "
                           f"to the end ({_describe(failed[0])})")
        elif out != "-":
            done.written.append((fmt, out))
    except OSError as exc:
        done.in_place = None
        _problem(done, f"cannot write the {fmt} report to {where}: {_describe(exc)}")
    except Exception:  # noqa: BLE001  (the JSON fallback failed too: its problem is already recorded)
        done.in_place = None


def _guarded(first: str, rest, failed: list):
    """``first`` then the pieces of ``rest`` until one cannot be rendered (recorded in ``failed``)."""
    yield first
    while True:
        try:
            piece = next(rest)
        except StopIteration:
            return
        except Exception as exc:  # noqa: BLE001  (recorded; the writer stops there)
            failed.append(exc)
            return
        yield piece


def _stage_cohort(report, outdir: str, done: Emitted) -> _Staged | None:
    """A cohort's HTML folder built whole beside ``outdir`` (checker.cli.folder), swapped in at the end."""
    from checker.render.cohort_html import render_cohort

    try:
        files = render_cohort(report)
    except Exception as exc:  # noqa: BLE001
        _problem(done, f"internal error: the cohort HTML for {outdir} could not be rendered ({_describe(exc)})")
        return None
    try:
        pair, removed = folder.stage(outdir, {name: encode_output("html", files[name]) for name in
                                              ["index.html"] + sorted(n for n in files if n != "index.html")})
    except OSError as exc:
        _problem(done, f"cannot write the html report to {outdir}: {_describe(exc)}")
        return None
    _swept(removed)
    return _Staged("html", outdir, [pair], len(done.problems), folder=True)


def _swept(paths: list[str]) -> None:
    for path in paths:
        _warn(f"removed {path}: a temporary file of endpoints-checker left by an interrupted run")


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
