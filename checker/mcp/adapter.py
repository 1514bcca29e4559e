"""The one place the MCP tools run a check in-process: a request in, the Report out.

It is ``check_request`` (never raises): the tools format the Report's tally (verdicts and counts, computed once
by the engine) and each finding's ``as_dict`` (the JSON report's), so a tool's findings are exactly those of
``endpoints-checker check PATH -f json`` (tests/mcp compare them), without encoding the report to text and
decoding it again (a fifth of a call on the 32-point package).

The project's configuration file above the path is read as ``check`` reads it (a tool's argument wins over
it), with the keys and types of ``check``'s options that ``endpoints-checker mcp`` hands over (:func:`use`).
The walk up to the file stops at the client's root holding the path, and a path the file names must lie
inside the roots too: the server opens nothing outside them.
"""
from __future__ import annotations

import os
from typing import Any

from checker.mcp.roots import PathRefused, inside

#: what the server's checks are, whatever the file says: serial, in this process, writing nothing
FIXED = {"jobs": 1, "audit_jobs": 1, "keep_packages": False, "progress": False, "executor": "local",
         "scheduler": None, "write_bundle": None, "prerender_json": False}
#: path settings the check does not read (the command line's outputs): not held to the roots
NOT_READ = ("outputs", "write_bundle")
ORIGIN = "tool argument"

_CHECK = None  # checker.engine.check_settings.CheckSettings of `check`, handed over by the mcp command


class ConfigRefused(ValueError):
    """The configuration file cannot be used (an unknown key, a bad value): the tool's error says where."""


def use(check_settings) -> None:
    """Read the configuration file with these settings of ``check`` (``endpoints-checker mcp`` calls it)."""
    global _CHECK
    _CHECK = check_settings


def settings(paths: list[str], given: dict[str, Any], roots: list[str] | None = None) -> dict[str, Any]:
    """``check``'s settings for ``paths``: the configuration file's (found inside the root holding the first
    path), then ``given``; without the option declarations, ``given`` over nothing."""
    if _CHECK is None:
        return dict(given)
    stop = next((r for r in roots or () if paths and inside(os.path.realpath(paths[0]), r)), None)
    try:
        resolved = _CHECK.resolve(paths, given=given, given_origin=ORIGIN, stop=stop)
    except ValueError as exc:
        raise ConfigRefused(str(exc)) from None
    if roots is not None and resolved.file is not None:
        _hold_to_roots(resolved, roots)
    return resolved.values


def _hold_to_roots(resolved, roots: list[str]) -> None:
    from checker.engine.check_settings import DEFAULT, is_path

    for name, param in _CHECK.params.items():
        value, origin = resolved.values.get(name), resolved.origins.get(name)
        if name in NOT_READ or not is_path(param) or not value or origin == DEFAULT:
            continue
        for v in (value if isinstance(value, (list, tuple)) else (value,)):
            real = os.path.realpath(str(v))
            if "://" in str(v) or not any(inside(real, r) for r in roots):
                raise PathRefused(f"{origin}: {v} lies outside the client's roots ({', '.join(roots)}): refused")


def run_check(paths: list[str], *, roots: list[str] | None = None, **given: Any):
    """The Report of one check of ``paths`` with ``given`` settings (``check``'s parameter names:
    select, ignore, fail_on, max_concurrency, ...) over the configuration file's (a report of exit code 2
    when it could not run)."""
    from checker.engine.check_settings import run_config
    from checker.engine.request import check_request

    values = settings(list(paths), {k: v for k, v in given.items() if v is not None}, roots)
    return check_request(list(paths), run_config(values, **FIXED))
