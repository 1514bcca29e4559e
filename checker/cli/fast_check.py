"""A plain ``check`` without importing click (~28 ms of a ~250 ms run): a stdlib parser driven by the
option table (check_options.py) that understands exactly what click would accept, or gives up.

``parse`` returns the values dict click's parser would produce, or None for anything it does not fully
understand (help, an unknown option, a bad value, a missing PATHS, shell completion...): click then runs
and prints today's help or error. ``try_check`` runs the command on a parse; a usage error the command
raises is handed to click with the same arguments, so it is shown exactly as click shows it.
"""
from __future__ import annotations

import errno
import os
import stat
import sys

from checker.cli.check_options import OPTIONS, PATHS

_UNSET = object()


def _index() -> tuple[dict, dict]:
    """Long and short option strings to (option, the value a flag stores; None: takes a value)."""
    long_opts: dict = {}
    short_opts: dict = {}
    for opt in OPTIONS:
        const = True if opt.kind in ("flag", "pair") else None
        for flag, value in [(f, const) for f in opt.flags] + [(f, False) for f in opt.secondary]:
            if flag[:2] == "--":
                long_opts[flag] = (opt, value)
            else:
                short_opts[flag[1:]] = (opt, value)
    return long_opts, short_opts


def parse(argv: list[str], environ) -> dict | None:
    """The params click would give ``check`` for ``argv`` (the words after ``check``), or None."""
    if any(k[:1] == "_" and k.endswith("_COMPLETE") and v for k, v in environ.items()):
        return None  # a shell-completion request (click's _<PROG>_COMPLETE)
    long_opts, short_opts = _index()
    given: dict = {}
    paths: list[str] = []
    i, n = 0, len(argv)
    while i < n:
        arg = argv[i]
        i += 1
        if arg == "--":
            paths.extend(argv[i:])
            break
        if arg[:1] != "-" or len(arg) == 1:
            paths.append(arg)
        elif arg[:2] == "--":  # --name, --name=value, --name value
            name, eq, value = arg.partition("=")
            if name not in long_opts:
                return None
            opt, const = long_opts[name]
            if const is not None:
                if eq:
                    return None  # click: "Option does not take a value"
                given[opt.dest] = const
                continue
            if not eq:
                if i == n:
                    return None
                value = argv[i]
                i += 1
            _give(given, opt, value)
        else:  # -q, -qv, -fjson, -f json: one or more short options, the first that takes a value ends it
            for j in range(1, len(arg)):
                if arg[j] not in short_opts:
                    return None
                opt, const = short_opts[arg[j]]
                if const is not None:
                    given[opt.dest] = const
                    continue
                if j + 1 < len(arg):
                    value = arg[j + 1:]
                elif i < n:
                    value = argv[i]
                    i += 1
                else:
                    return None
                _give(given, opt, value)
                break
    if not paths:
        return None
    values = {PATHS: tuple(paths)}
    for opt in OPTIONS:
        raw = given.get(opt.dest, _UNSET)
        if opt.kind in ("flag", "pair"):
            values[opt.dest] = opt.default if raw is _UNSET else raw
            continue
        if raw is _UNSET and opt.envvar and environ.get(opt.envvar):
            if opt.multiple:
                return None  # click splits such a value; no option of the table needs that
            raw = environ[opt.envvar]
        if raw is _UNSET:
            values[opt.dest] = () if opt.multiple else opt.default
            continue
        converted = tuple(_convert(opt, v) for v in raw) if opt.multiple else _convert(opt, raw)
        if _UNSET in (converted if opt.multiple else (converted,)):
            return None
        values[opt.dest] = converted
    return values


def _give(given: dict, opt, value: str) -> None:
    """Record a value: a repeatable option collects them, any other keeps the last (as click does)."""
    if opt.multiple:
        given.setdefault(opt.dest, []).append(value)
    else:
        given[opt.dest] = value


def _convert(opt, value: str):
    """The value as click's type for the option converts it, or _UNSET where click would refuse it."""
    if opt.kind == "choice":
        key = value if opt.case_sensitive else value.casefold()
        for choice in opt.choices:
            if (choice if opt.case_sensitive else choice.casefold()) == key:
                return choice
        return _UNSET
    if opt.kind == "int":
        try:
            number = int(value)
        except ValueError:
            return _UNSET
        if (opt.min is not None and number < opt.min) or (opt.max is not None and number > opt.max):
            return _UNSET
        return number
    if opt.kind == "path":
        return value if _path_ok(opt, value) else _UNSET
    return value


def _path_ok(opt, value: str) -> bool:
    """click.Path's checks: exists, file_okay, dir_okay and readable (an existing path must be readable)."""
    try:
        st = os.stat(value)
    except OSError:
        return not opt.exists
    except ValueError:  # an embedded NUL: click raises it, so click should be the one to run
        return False
    if (not opt.file_okay and stat.S_ISREG(st.st_mode)) or (not opt.dir_okay and stat.S_ISDIR(st.st_mode)):
        return False
    return os.access(value, os.R_OK)


def try_check(argv: list[str]) -> int | None:
    """Run ``check ARGV`` without click and return its exit code; None when click must run it instead."""
    values = parse(argv, os.environ)
    if values is None:
        return None
    from checker.cli.check_command import InputError, run

    try:
        return run(values)
    except InputError as exc:
        from checker.cli.main import PendingUsageError, main

        main(args=["check", *argv], obj=PendingUsageError(str(exc)))  # click's usage text, exit 2
        raise AssertionError("click returned from a usage error")  # pragma: no cover
    except (EOFError, KeyboardInterrupt):
        return _aborted()
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        sys.stdout, sys.stderr = _QuietFlush(sys.stdout), _QuietFlush(sys.stderr)
        return 1


def _aborted() -> int:
    """What click prints after an interrupt or end of input (a blank line, then Aborted!), exit 1."""
    stream = sys.stderr if sys.stderr is not None else sys.stdout
    try:
        if stream is not None:
            for text in ("\n", "Aborted!\n"):
                stream.write(text)
                stream.flush()
    except (EOFError, KeyboardInterrupt):
        pass
    return 1


class _QuietFlush:
    """A standard stream after a broken pipe, as click leaves it: flushing it ignores the broken pipe."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, name):
        return getattr(self._stream, name)
