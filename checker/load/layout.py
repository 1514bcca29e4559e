"""The on-disk shape the loader knows: which files it reads where (point, run folder), what a
directory is (a run folder, a submission root, debris), the --exclude filter and the walk's Options.

Every loader module below ``discovery`` reads these tables from here, so none of them has to import
another to learn the shape (the load layer has no import cycle); the bounds on a package's size
live with the walk that enforces them (``checker.load.submission``).
"""
from __future__ import annotations

import fnmatch
import os
import re
import stat

from checker.load.file_kinds import FILE_KINDS
from checker.load.reader import DEFAULT_MAX_BYTES, DISK, LoadError, Reads

POINT_DIR_RE = re.compile(r"^r([0-9]+)$")  # ASCII digits only: r² or r١ is no point directory

#: files read at each point, by name -> kind
POINT_FILES = {k.point: kind for kind, k in FILE_KINDS.items() if k.point}
#: where a point's file sits inside a run folder written by the client (in the order a move hint names them), and
#: its name in the point
RUN_FOLDER_SOURCES = {kind: FILE_KINDS[kind].run_folder
                      for kind in ("point_yaml", "result_summary", "config", "accuracy", "system_desc")}
POINT_NAMES = {kind: FILE_KINDS[kind].point for kind in RUN_FOLDER_SOURCES}
#: run-folder files read eagerly, in the order they are read (events.jsonl and sample_idx_map.json grow with the
#: samples: the run-folder family streams them, checker.load.run_folder), by path -> kind
RUN_FOLDER_FILES = {FILE_KINDS[kind].run_folder[0]: kind
                    for kind in ("config", "result_summary", "accuracy", "final_snapshot", "steady_state_json",
                                 "point_yaml", "system_desc", "power", "flat_result_summary")}
#: files the loader reads or accounts for without a model, and why: the run-folder entries it does not load
#: whole (the first four: their state is recorded for run-folder-files; events.jsonl is also audited, unless
#: --no-events) and a submission's cli_metadata.json
NOT_MODELLED = {
    "report.txt": "the client's text report for people; only its presence is recorded (run-folder-files)",
    "events.jsonl": "streamed line by line and accounted for by the events audit (checker.load.events_lines)",
    "sample_idx_map.json": "grows with the samples: streamed into the sample map (checker.load.sample_map)",
    "run_meta.json": "the run's metadata later clients write beside steady_state.json: only its presence is "
                     "recorded (run-folder-recognised names it); no rule reads a key of it",
    "cli_metadata.json": "the official tool's record of the bundle it built, carried as written: no rule reads a "
                         "key of it (cli-metadata-valid only checks that it is a JSON object)",
}
UNREAD_ENTRIES = tuple(n for n in NOT_MODELLED if n != "cli_metadata.json")

#: archive and editor debris, reported as such wherever it lies
JUNK_NAMES = {"__MACOSX", "__pycache__", ".ipynb_checkpoints", ".DS_Store", "Thumbs.db", "desktop.ini"}


class Options:
    """Loader options shared by the walk."""

    def __init__(self, max_bytes: int = DEFAULT_MAX_BYTES, shallow: bool = False, exclude=(), events: bool = True,
                 reads: Reads = DISK):
        self.max_bytes = max_bytes
        #: the check's overlay and parse cache (``reader.Reads``): every file of the walk is read through it
        self.reads = reads
        #: cohort planning: find submission roots and run folders, but load nothing inside them
        self.shallow = shallow
        #: --exclude globs: matching entries are left out of the walk (as if absent)
        self.exclude = tuple(exclude or ())
        #: audit events.jsonl while a run archive streams by (off with --no-events)
        self.events = events
        #: temporary files of an interrupted ``check --fix`` found in a point (checker.core.scratch: never
        #: package entries), by absolute path
        self.leftovers: list[str] = []


def junk_reason(name: str) -> str | None:
    """Why an entry is debris (archive or editor leftovers, hidden), or None."""
    if name in JUNK_NAMES:
        return "archive or editor debris"
    if name.startswith("."):
        return "hidden entry"
    return None


def is_dir(path: str) -> bool:
    """A directory (through symlinks), False for anything unreadable."""
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def is_file(path: str) -> bool:
    """A regular file (through symlinks), False for FIFOs, devices and anything unreadable."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def scan_dir(path: str, exclude=()) -> tuple[list[os.DirEntry], LoadError | None]:
    """A directory's entries by name, --exclude applied, or the refusal when it cannot be listed."""
    try:
        with os.scandir(path) as it:
            return sorted((e for e in it if not excluded(e.path, exclude)), key=lambda e: e.name), None
    except PermissionError as exc:
        return [], LoadError("file-unreadable", f"directory cannot be listed: {exc.strerror}")
    except OSError as exc:
        return [], LoadError("file-unreadable", f"directory cannot be listed: {exc.strerror or exc}")


def is_run_folder(path: str) -> bool:
    """A run folder written by the reference client (standard or flat layout, RUN-FOLDER.md §1)."""
    return (
        is_file(os.path.join(path, "performance", "result_summary.json"))
        or is_file(os.path.join(path, "accuracy", "accuracy_results.json"))
        or (is_file(os.path.join(path, "events.jsonl")) and is_file(os.path.join(path, "config.yaml")))
        or (is_file(os.path.join(path, "result_summary.json")) and is_file(os.path.join(path, "config.yaml"))
            and not is_dir(os.path.join(path, "results")))
    )


def is_submission_root(path: str) -> bool:
    """A submission root: it holds results/ or docs/."""
    return is_dir(os.path.join(path, "results")) or is_dir(os.path.join(path, "docs"))


def excluded(path: str, patterns) -> bool:
    """--exclude GLOB: the entry's name or the end of its absolute path matches (``r8_old``, ``docs/drafts/*``,
    an absolute path such as a report folder inside the checked tree)."""
    if not patterns:
        return False
    p = os.path.abspath(path).replace(os.sep, "/").rstrip("/")
    name = p.rsplit("/", 1)[-1]
    for pat in patterns:
        pat = pat.strip().rstrip("/")
        if pat and (fnmatch.fnmatchcase(name, pat) or fnmatch.fnmatchcase(p, "*/" + pat.lstrip("/"))):
            return True
    return False


def loader_names() -> frozenset[str]:
    """Base names of the files the loader reads whole (each under the size cap): these are copied."""
    names = set(POINT_FILES) | {r.rsplit("/", 1)[-1] for r in RUN_FOLDER_FILES}
    return frozenset(names | {k.system for k in FILE_KINDS.values() if k.system} | {"cli_metadata.json"})
