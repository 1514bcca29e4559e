"""The one place the MCP tools run a check in-process: a request in, the Report out.

It is ``check_request`` (never raises): the tools format the Report's tally (verdicts and counts, computed once
by the engine) and each finding's ``as_dict`` (the JSON report's), so a tool's findings are exactly those of
``endpoints-checker check PATH -f json`` (tests/mcp compare them), without encoding the report to text and
decoding it again.
"""
from __future__ import annotations


def run_check(paths: list[str], *, select=(), ignore=(), fail_on: str = "flag", options: dict | None = None):
    """The Report of one check of ``paths`` (a report of exit code 2 when it could not run)."""
    from checker.engine.config import RunConfig
    from checker.engine.request import check_request

    config = RunConfig.of(select=list(select), ignore=list(ignore), fail_on=fail_on, options=dict(options or {}),
                          keep_packages=False, jobs=1)
    return check_request(list(paths), config)
