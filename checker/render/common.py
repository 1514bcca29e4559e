"""Helpers shared by the CI renderers: levels, repository-relative paths, the repository root and the
file that stands for a directory, waived findings (a finding's fingerprint is checker.core.fingerprint)."""
from __future__ import annotations

import os
from pathlib import Path

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


#: the SARIF uriBaseId every repository-relative location names
ROOT_ID = "SRCROOT"
#: what marks a repository root: its version control folder, or the configuration file (issue 36)
ROOT_MARKERS = (".git", "endpoints-checker.toml")
CONFIG_SECTION = "[tool.endpoints-checker]"
#: entries looked at when a directory needs a file to stand for it (a bound, however big the tree)
MAX_SCANNED = 2000
#: what a directory is shown at, best first: the files a submitter edits, then any file
PREFERRED = ("point.yaml", "system_desc.json", "system_power.json", "result_summary.json", "README.md")


def repository_root(paths) -> str:
    """The nearest folder above the first checked path that holds ``.git`` or the configuration file
    (``endpoints-checker.toml``, or a pyproject.toml with ``[tool.endpoints-checker]``); else the checked
    path's parent (a directory checked alone is itself a folder of that parent)."""
    start = os.path.abspath(paths[0] if paths else ".")
    here = start if os.path.isdir(start) else os.path.dirname(start)
    while True:
        if any(os.path.exists(os.path.join(here, m)) for m in ROOT_MARKERS) or _configured(here):
            return here
        up = os.path.dirname(here)
        if up == here:
            return os.path.dirname(start) or start
        here = up


def _configured(folder: str) -> bool:
    try:
        with open(os.path.join(folder, "pyproject.toml"), encoding="utf-8", errors="replace") as fh:
            return CONFIG_SECTION in fh.read(1 << 20)
    except OSError:
        return False


class Artifacts:
    """Locations for a report whose files may be anywhere: relative to the repository root when under it."""

    def __init__(self, paths):
        self.root = repository_root(list(paths))
        self._files: dict[str, str | None] = {}

    def relative(self, path: str) -> str | None:
        """``path`` relative to the root with forward slashes; None when it lies outside."""
        absolute = os.path.abspath(path)
        if absolute == self.root or absolute.startswith(self.root.rstrip(os.sep) + os.sep):
            return os.path.relpath(absolute, self.root).replace(os.sep, "/")
        return None

    def location(self, path: str) -> dict:
        """A SARIF artifactLocation: repository-relative with its uriBaseId, else the file's own URI."""
        rel = self.relative(path)
        if rel is not None:
            return {"uri": rel, "uriBaseId": ROOT_ID}
        return {"uri": Path(os.path.abspath(path)).as_uri()}

    def file_for(self, path: str) -> tuple[str, bool]:
        """(the file a location names, whether it stands for a directory): a directory, or a path that is gone,
        is shown at a file in it (or in its nearest existing folder), the files a submitter edits first."""
        absolute = os.path.abspath(path)
        if os.path.isfile(absolute) or not path:
            return path, False
        folder = absolute
        while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
        if folder not in self._files:
            self._files[folder] = _file_in(folder)
        found = self._files[folder]
        return (found, True) if found else (path, False)


def _file_in(folder: str) -> str | None:
    """The first file of ``folder`` (breadth first, names sorted, a preferred name first at each depth)."""
    queue, scanned = [folder], 0
    while queue:
        here = queue.pop(0)
        try:
            with os.scandir(here) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        scanned += len(entries)
        files = [e for e in entries if _is_file(e)]
        if files:
            best = min(files, key=lambda e: (PREFERRED.index(e.name) if e.name in PREFERRED else len(PREFERRED), e.name))
            return best.path
        queue += [e.path for e in entries if _is_dir(e) and not e.name.startswith(".")]
        if scanned > MAX_SCANNED:
            return None
    return None


def _is_file(e) -> bool:
    try:
        return e.is_file(follow_symlinks=False)
    except OSError:
        return False


def _is_dir(e) -> bool:
    try:
        return e.is_dir(follow_symlinks=False)
    except OSError:
        return False
