"""Helpers shared by the CI renderers: levels, repository-relative paths, stable fingerprints."""
from __future__ import annotations

import hashlib
import os
import re

from checker.core.findings import Finding, Severity, path_step

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


_SURROGATE = re.compile("[\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` with each lone UTF-16 surrogate (a non-UTF-8 byte in a file name, a ``\\ud800`` in a JSON
    file) spelled as the visible escape ``\\udcxx``: what every output writes in its place."""
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def fingerprint_key(key: str) -> str:
    """sha256 of the key as written in a report (surrogates as their visible escape), 32 hex digits."""
    return hashlib.sha256(visible(key).encode("utf-8")).hexdigest()[:32]


def fingerprint(f: Finding) -> str:
    """Stable across runs and line moves: rule id, subject and data path; never the message or line."""
    path = "/".join(str(path_step(p)) for p in (f.location.path if f.location else ()))
    return fingerprint_key("|".join([f.rule_id, f.subject.label(), path]))


def is_waived(f: Finding) -> bool:
    return (f.reason or "").startswith("waived")
