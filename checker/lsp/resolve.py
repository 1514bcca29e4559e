"""Which unit a document belongs to: the submission root above a package file, the run folder holding a
run-folder file, or nothing (a file outside any package: checked alone, file-level rules only).

Only the fixed shapes count, so an unrelated ``docs/`` far above a file never makes a submission root:
results/<system>/<model>/r<N>/<file> or results/<system>/system_power.json under a root with results/;
<run folder>/<file>, <run folder>/performance/result_summary.json, <run folder>/accuracy/accuracy_results.json.
"""
from __future__ import annotations

import os

import msgspec

#: the file kinds a package or run folder holds (the documents the server checks)
KINDS = {
    "point.yaml": "point_yaml",
    "config.yaml": "config",
    "system_desc.json": "system_desc",
    "result_summary.json": "result_summary",
    "accuracy_results.json": "accuracy",
    "system_power.json": "power",
}


class Unit(msgspec.Struct, frozen=True):
    """What one check covers: ``kind`` submission, run-folder or file; ``root`` its directory (or the file)."""

    kind: str
    root: str


def file_kind(path: str) -> str | None:
    return KINDS.get(os.path.basename(path))


def resolve(path: str) -> Unit | None:
    """The unit of the file at ``path`` (absolute), or None when it is no file kind the server checks."""
    from checker.load.discovery import is_run_folder

    name = os.path.basename(path)
    if name not in KINDS:
        return None
    path = os.path.abspath(path)
    d = os.path.dirname(path)
    parts = d.split(os.sep)
    # results/<system>/<model>/r<N>/<file>, results/<system>/system_power.json
    depth = 2 if name == "system_power.json" else 4
    if len(parts) > depth and parts[-depth] == "results":
        root = os.sep.join(parts[:-depth]) or os.sep
        if os.path.isdir(os.path.join(root, "results")):
            return Unit("submission", root)
    for cand in (d, os.path.dirname(d)):
        if cand != d and os.path.basename(d) not in ("performance", "accuracy"):
            continue
        try:
            if is_run_folder(cand):
                return Unit("run-folder", cand)
        except OSError:
            pass
    return Unit("file", path)


def inside(path: str, unit: Unit) -> bool:
    """Whether a file belongs to the unit (its overlay entries, its published diagnostics)."""
    if unit.kind == "file":
        return os.path.abspath(path) == unit.root
    root = unit.root.rstrip(os.sep) + os.sep
    return os.path.abspath(path).startswith(root)
