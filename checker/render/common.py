"""Helpers shared by the CI renderers: levels, repository-relative paths, waived findings (a
finding's fingerprint is checker.core.fingerprint)."""
from __future__ import annotations

import os

from checker.core.findings import Finding, Severity

#: severity -> SARIF level / GitHub workflow command
LEVEL = {Severity.REJECT: "error", Severity.REJECT_POINTS: "error", Severity.FLAG: "warning", Severity.WARN: "note"}
GITHUB_COMMAND = {"error": "error", "warning": "warning", "note": "notice"}


def repo_relative(path: str) -> str:
    """A path relative to the working directory (the repository root in CI), with forward slashes."""
    if not path:
        return path
    absolute = os.path.abspath(path)
    cwd = os.getcwd()
    if absolute == cwd or absolute.startswith(cwd.rstrip(os.sep) + os.sep):
        rel = os.path.relpath(absolute, cwd)
    else:
        rel = absolute
    return rel.replace(os.sep, "/")


def is_waived(f: Finding) -> bool:
    return (f.reason or "").startswith("waived")
