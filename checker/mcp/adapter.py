"""The one place the MCP tools run a check in-process: a request in, the JSON report's document out.

Today it is ``check_request`` (never raises) and the document the JSON report renderer encodes
(``Report.to_dict``: the summary, and each finding's ``as_dict``), so a tool's findings are exactly those of
``endpoints-checker check PATH -f json`` (tests/mcp compare them), without encoding the report to text and
decoding it again (a fifth of a call on the 32-point package). When the library API (``from checker import
check``, a pydantic report) lands, only ``run_check`` changes.
"""
from __future__ import annotations

from typing import Any


def run_check(paths: list[str], *, select=(), ignore=(), fail_on: str = "flag", options: dict | None = None) -> dict[str, Any]:
    """The JSON report document of one check of ``paths`` (a report of exit code 2 when it could not run)."""
    from checker.engine.config import RunConfig
    from checker.engine.request import check_request

    config = RunConfig.of(select=list(select), ignore=list(ignore), fail_on=fail_on, options=dict(options or {}),
                          keep_packages=False, jobs=1)
    report = check_request(list(paths), config)
    return report.to_dict()
