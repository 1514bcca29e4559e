"""The union of the runs' ``src/`` (and the merge of their ``documentation/``) the builder writes.

Walks each run's tree without following symlinks (a link is never followed out of its run folder:
it is listed as skipped), bounded by an entry budget, and records where every file comes from and
where two runs disagree (same path, different content; a file in one run, a directory in another).
"""
from __future__ import annotations

import filecmp
import os
import stat
from typing import Any

import msgspec


class Entry(msgspec.Struct):
    kind: str  # file | dir
    sources: list = msgspec.field(default_factory=list)  # [(run, abspath, display)] in run order


class TreeInventory(msgspec.Struct):
    entries: dict = msgspec.field(default_factory=dict)  # path inside the tree ("trtllm/README.md") -> Entry
    roots: list = msgspec.field(default_factory=list)  # [(run, display)] runs that carry the tree
    conflicts: list = msgspec.field(default_factory=list)  # [(path, [displays], why)]
    skipped: list = msgspec.field(default_factory=list)  # [(run, display, why)] entries not copied
    truncated: bool = False  # the entry budget ran out

    @property
    def has_root(self) -> bool:
        return bool(self.roots)

    def is_dir(self, rel: str) -> bool:
        e = self.entries.get(rel.strip("/"))
        return e is not None and e.kind == "dir"

    def file_dirs(self) -> set:
        """The directories the builder creates: those holding a file somewhere below (it copies files only)."""
        out = set()
        for rel, e in self.entries.items():
            if e.kind == "file":
                parts = rel.split("/")[:-1]
                out.update("/".join(parts[:i]) for i in range(1, len(parts) + 1))
        return out

    def top_dirs(self) -> list:
        """Top-level directories that hold files (src/: the implementations), sorted."""
        return sorted(d for d in self.file_dirs() if "/" not in d)

    def without_readme(self) -> list:
        """Top-level directories with no README.md (any case) directly inside, as the builder requires."""
        have = {rel.split("/")[0] for rel, e in self.entries.items()
                if e.kind == "file" and rel.count("/") == 1 and rel.split("/")[1].lower() == "readme.md"}
        return [d for d in self.top_dirs() if d not in have]

    def origin(self, rel: str) -> str | None:
        """Display path of the copy of ``rel`` the bundle keeps (the last run's: the builder overwrites in run
        order), or of its nearest parent that exists."""
        rel = rel.strip("/")
        while rel:
            e = self.entries.get(rel)
            if e is not None and e.sources:
                return e.sources[-1][2]
            rel = rel.rpartition("/")[0]
        return self.roots[0][1] if self.roots else None


def inventory(trees: list, max_entries: int = 20000) -> TreeInventory:
    """``trees``: [(run, absolute tree path, display path)]; runs without the tree are skipped."""
    inv = TreeInventory()
    budget = [max_entries]
    for run, top, display in trees:
        try:
            st = os.lstat(top)
        except OSError:
            continue
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
            inv.skipped.append((run, display, "a symlink or a file, not a directory: not copied"
                                if stat.S_ISLNK(st.st_mode) else "not a directory: not copied"))
            continue
        inv.roots.append((run, display))
        _walk(inv, run, top, display, "", budget)
    inv.entries = dict(sorted(inv.entries.items()))
    return inv


def _walk(inv: TreeInventory, run: Any, absdir: str, display: str, rel: str, budget: list) -> None:
    try:
        with os.scandir(absdir) as it:
            items = sorted(it, key=lambda e: e.name)
    except OSError as exc:
        inv.skipped.append((run, display, f"directory cannot be listed: {exc.strerror or exc}"))
        return
    for e in items:
        if budget[0] <= 0:
            inv.truncated = True
            return
        budget[0] -= 1
        child_rel = f"{rel}/{e.name}" if rel else e.name
        child_abs, child_disp = os.path.join(absdir, e.name), os.path.join(display, e.name)
        try:
            st = os.lstat(child_abs)
        except OSError as exc:
            inv.skipped.append((run, child_disp, f"cannot stat: {exc.strerror or exc}"))
            continue
        if stat.S_ISLNK(st.st_mode):
            inv.skipped.append((run, child_disp, "a symlink: the checker never follows it out of the run folder, "
                                                 "and it is not copied"))
            continue
        kind = "dir" if stat.S_ISDIR(st.st_mode) else "file" if stat.S_ISREG(st.st_mode) else None
        if kind is None:
            inv.skipped.append((run, child_disp, "not a regular file or directory: not copied"))
            continue
        old = inv.entries.get(child_rel)
        if old is None:
            inv.entries[child_rel] = Entry(kind, [(run, child_abs, child_disp)])
        elif old.kind != kind:
            inv.conflicts.append((child_rel, [old.sources[-1][2], child_disp],
                                  f"a {old.kind} in one run, a {kind} in another"))
            continue
        else:
            if kind == "file" and not _same_file(old.sources[-1][1], child_abs):
                inv.conflicts.append((child_rel, [old.sources[-1][2], child_disp], "the two copies differ"))
            old.sources.append((run, child_abs, child_disp))
        if kind == "dir":
            _walk(inv, run, child_abs, child_disp, child_rel, budget)


def _same_file(a: str, b: str) -> bool:
    try:
        return filecmp.cmp(a, b, shallow=False)
    except OSError:
        return False
