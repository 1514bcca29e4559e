"""The entries a submission bundle carries but no rule reads (docs/, src/, a point's server_configs/):
each one is inspected, never opened, so every entry is either read or reported.

What is reported, as a loader refusal of the entry (``file-unreadable`` / ``symlink-escape`` / ``empty-file``):
a directory that cannot be listed or searched (modes 000, 111, 444), a file that cannot be read, a FIFO,
socket or device, a dangling or looping symlink, a symlink resolving outside the submission root (the
target is never opened, only its path resolved), and, where ``empties`` is set (docs/), an empty file
that is not a hidden placeholder (``.gitkeep``). Bounded: at most ``MAX_ENTRIES`` entries per submission
and ``MAX_DEPTH`` levels; what lies beyond is named once.
"""
from __future__ import annotations

import os
import stat

from checker.load.layout import excluded
from checker.load.reader import LoadError, entry_problem, filetype

MAX_ENTRIES = 100_000  # per submission (src/, docs/ and server_configs/ together; about 3 µs each)
MAX_DEPTH = 32


class Budget:
    """Entries still to be inspected in one submission."""

    def __init__(self, entries: int | None = None):
        self.left = MAX_ENTRIES if entries is None else entries
        self.cut: str | None = None  # the first directory not inspected whole


#: names the rules give to documents: at the top of docs/ each is a file, never a directory
DOC_FILE_NAMES = frozenset({"readme.md", "calibration.adoc", "software_disclosure.md"})


def entry_state(path: str, root_real: str, lst: os.stat_result | None = None,
                expect_file: bool = False) -> LoadError | None:
    """None for a readable regular file or a listable directory inside the root (a file only, with
    ``expect_file``); else why it cannot be carried (a symlink's target is resolved, never opened)."""
    try:
        st = lst if lst is not None else os.lstat(path)
    except OSError as exc:
        return LoadError("file-unreadable", f"cannot stat: {exc.strerror or exc}")
    problem = entry_problem(path, root_real, lst=st)
    if problem is not None:
        return problem
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(path)
        except OSError as exc:
            return LoadError("file-unreadable", f"cannot stat its target: {exc.strerror or exc}")
    if not stat.S_ISREG(st.st_mode) and not stat.S_ISDIR(st.st_mode):
        return LoadError("file-unreadable", f"not a regular file ({filetype(st.st_mode)}): the bundle cannot carry it")
    if stat.S_ISDIR(st.st_mode):
        if expect_file:
            return LoadError("file-unreadable", "a directory where a file is expected")
        if not os.access(path, os.R_OK | os.X_OK):
            return LoadError("file-unreadable", "directory cannot be listed or searched (permission denied)")
        return None
    if not os.access(path, os.R_OK):
        return LoadError("file-unreadable", "file cannot be read (permission denied)")
    return None


def inspect(absdir: str, display: str, root_real: str, found: list, budget: Budget, exclude=(),
            empties: bool = False, skip=frozenset(), depth: int = 0) -> None:
    """Append (display path, LoadError) for every entry under ``absdir`` (itself already checked) that the
    bundle cannot carry; ``skip``: names of ``absdir`` another rule reports (src/<impl>/README.md)."""
    try:
        with os.scandir(absdir) as it:
            entries = sorted((e for e in it if not excluded(e.path, exclude)), key=lambda e: e.name)
    except OSError as exc:
        found.append((display + "/", LoadError("file-unreadable", f"directory cannot be listed: {exc.strerror or exc}")))
        return
    for e in entries:
        if e.name in skip:
            continue
        if budget.left <= 0:
            budget.cut = budget.cut or display
            return
        budget.left -= 1
        child, shown = os.path.join(absdir, e.name), f"{display}/{e.name}"
        try:
            lst = os.lstat(child)
        except OSError as exc:
            found.append((shown, LoadError("file-unreadable", f"cannot stat: {exc.strerror or exc}")))
            continue
        problem = entry_state(child, root_real, lst, expect_file=empties and depth == 0
                              and e.name.lower() in DOC_FILE_NAMES)
        if problem is not None:
            found.append((shown + ("/" if stat.S_ISDIR(lst.st_mode) else ""), problem))
        elif stat.S_ISDIR(lst.st_mode):  # a symlinked directory inside the root is inspected where it lives
            if depth + 1 >= MAX_DEPTH:
                budget.cut = budget.cut or shown
                continue
            inspect(child, shown, root_real, found, budget, exclude, empties, depth=depth + 1)
        elif empties and stat.S_ISREG(lst.st_mode) and lst.st_size == 0 and not e.name.startswith("."):
            found.append((shown, LoadError("empty-file", "empty file (0 bytes): documentation with no content")))


def _is_real_dir(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return False


def carry_entry(subject, path: str, name: str, root_real: str, budget: Budget, exclude, refused: list,
                empties: bool = False) -> None:
    """An entry no rule reads but the bundle carries (``budget``: the submission's entries still to inspect;
    ``exclude``: the --exclude globs): a refusal when it cannot be carried; a directory is inspected whole."""
    problem = entry_state(path, root_real)
    if problem is not None:
        refused.append((subject, name + ("/" if _is_real_dir(path) else ""), problem))
    elif _is_real_dir(path):
        found: list = []
        inspect(path, name, root_real, found, budget, exclude, empties)
        refused.extend((subject, shown, err) for shown, err in found)


def readme_state(impl: str, names: set, root_real: str) -> str:
    """State of ``<impl>/README.md`` for src-readme: ok | missing | wrong-case:<name> | empty | bad:<what it is>
    (never opened: a symlink's target is resolved, not read)."""
    if "README.md" not in names:
        other = sorted(n for n in names if n.lower() == "readme.md")
        return f"wrong-case:{other[0]}" if other else "missing"
    return file_state(os.path.join(impl, "README.md"), root_real)


def file_state(path: str, root_real: str) -> str:
    """ok | empty | bad:<what it is> of a file a rule expects (never opened)."""
    problem = entry_state(path, root_real, expect_file=True)
    if problem is not None:
        return f"bad:{problem.message}"
    try:
        return "empty" if os.stat(path).st_size == 0 else "ok"
    except OSError as exc:
        return f"bad:cannot stat: {exc.strerror or exc}"
