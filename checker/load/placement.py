"""Is PATH at the right level, and which entries belong to the package at all?

A PATH inside a submission package (``results/``, a system, a curve, a point ``r64/``) is named
with the submission root to check instead, rather than being misread as a flat run folder. A run
folder pasted into a point has its files one level down: they are named with where to move them.
Version-control, CI and tooling entries and a repository's common files (``.git``, ``.github``, dotfiles,
README, LICENSE, CONTRIBUTING, scripts/, the configuration file, ...: is_repository_entry) above the
submission roots, or at a submission root that is a repository's top, are not package entries;
``--exclude GLOB`` leaves out anything else.
"""
from __future__ import annotations

import fnmatch
import os
import re

from checker.core.findings import point_sort_key
from checker.load.config_file import NAMES as CONFIG_NAMES
from checker.load.layout import POINT_NAMES, RUN_FOLDER_SOURCES, is_run_folder

_POINT_RE = re.compile(r"^r\d+$")
_LEVELS = {1: "the results/ directory", 2: "a system directory", 3: "a model (curve) directory",
           4: "a point directory"}
_INSIDE = {"docs": "the docs/ directory", "src": "the src/ directory"}

#: debris that stays an unexpected entry even where repository entries are ignored
_DEBRIS = {".DS_Store", ".ipynb_checkpoints"}
#: a repository's common files (docs/usage.md lists them): by lower-case name prefix, and by exact name
REPOSITORY_FILE_PREFIXES = ("readme", "license", "licence", "copying", "notice", "contributing", "code_of_conduct",
                            "code-of-conduct", "security", "changelog", "authors", "requirements")
REPOSITORY_FILES = frozenset({"codeowners", "makefile", "justfile", "citation.cff", "pyproject.toml", "setup.cfg",
                              "tox.ini", "noxfile.py", "endpoints-checker.toml"})
#: a repository's CI and tooling folders (besides every dot-folder: .github, .gitlab, ...)
REPOSITORY_DIRS = frozenset({"scripts", "tools", "ci"})


def _isdir(p: str) -> bool:
    return os.path.isdir(p)


def _isfile(p: str) -> bool:
    return os.path.isfile(p)


def looks_like_package_point(path: str) -> bool:
    """A bundle point r<N>/ (point.yaml beside result_summary.json), not a run folder the client wrote."""
    name = os.path.basename(os.path.normpath(os.path.abspath(path)))
    return (bool(_POINT_RE.match(name)) and _isfile(os.path.join(path, "point.yaml"))
            and _isfile(os.path.join(path, "result_summary.json"))
            and not _isdir(os.path.join(path, "performance")) and not _isfile(os.path.join(path, "events.jsonl")))


def _looks_like_package(root: str) -> bool:
    """results/ beside docs/ or src/: a submission root (one missing both is not recognised from below)."""
    return _isdir(os.path.join(root, "results")) and (_isdir(os.path.join(root, "docs"))
                                                       or _isdir(os.path.join(root, "src")))


def _up(display: str, n: int) -> str:
    return os.path.normpath(os.path.join(display, *[".."] * n))


def wrong_level(path: str, display: str) -> str | None:
    """Why PATH is not a level to check, naming the path to check instead; None when it is one."""
    here = os.path.abspath(path)
    parts: list[str] = []
    cur = here
    for depth in range(1, 7):
        parent = os.path.dirname(cur)
        if parent == cur:
            break
        parts.insert(0, os.path.basename(cur))
        cur = parent
        top = parts[0]
        if not _looks_like_package(cur):
            continue
        if top == "results":
            root = _up(display, depth)
            what = _LEVELS.get(depth, "inside a point directory")
            return f"this is {what} of the submission package at {root}: check {root} instead"
        if top in _INSIDE and depth == 1:
            root = _up(display, 1)
            return f"this is {_INSIDE[top]} of the submission package at {root}: check {root} instead"
    if looks_like_package_point(path):
        return ("this is a point directory of a submission package (point.yaml beside result_summary.json), "
                "not a run folder: check the submission root that holds results/<system>/<model>/"
                f"{os.path.basename(os.path.normpath(here))}/ instead")
    return None


def points_hint(path: str, entries) -> str | None:
    """An organisation-level PATH holding bare point directories: which root to check instead."""
    pts = sorted((e.name for e in entries if looks_like_package_point(os.path.join(path, e.name))), key=point_sort_key)
    if not pts:
        return None
    shown = ", ".join(f"{n}/" for n in pts[:4]) + (", …" if len(pts) > 4 else "")
    return (f"holds point directories of a submission package ({shown}) but no results/: check the submission "
            "root that holds results/<system>/<model>/ instead")


def nested_run_files(point_abspath: str, entries) -> tuple[str | None, dict[str, str]]:
    """A run folder pasted into a point: (its directory name, {kind: path inside the point})."""
    for e in entries:
        child = os.path.join(point_abspath, e.name)
        if not _isdir(child) or not is_run_folder(child):
            continue
        found = {}
        for kind, sources in RUN_FOLDER_SOURCES.items():
            for src in sources:
                if _isfile(os.path.join(child, src)):
                    found[kind] = f"{e.name}/{src}"
                    break
        return e.name, found
    return None, {}


def move_hint(point_name: str, nested: dict[str, str]) -> str:
    """'move r64/run1/performance/result_summary.json to r64/result_summary.json, …'."""
    moves = [f"{point_name}/{src} to {point_name}/{POINT_NAMES[k]}" for k, src in nested.items()]
    return "move " + ", ".join(moves)


def is_repository_entry(name: str, is_dir: bool = False) -> bool:
    """Version control, CI, tooling and the common files of a repository (licence, readme, contributing,
    the configuration file, ...): not entries of a submission package. A folder only by its name in
    REPOSITORY_DIRS or a leading dot (a folder named readme-* is a submission like any other)."""
    if name in _DEBRIS:
        return False
    if name.startswith("."):
        return True
    low = name.lower()
    if is_dir:
        return low in REPOSITORY_DIRS
    return low.startswith(REPOSITORY_FILE_PREFIXES) or low in REPOSITORY_FILES


def is_repository_top(path: str) -> bool:
    """A repository's top: it holds .git or the project's configuration file (checker.load.config_file)."""
    return any(os.path.exists(os.path.join(path, n)) for n in (".git",) + CONFIG_NAMES)


