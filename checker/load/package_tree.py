"""The typed package model: Package > Submission > System > Curve > Point, plus run folders.

Built once by ``checker.load.discovery``; rules only read it. Each node keeps its LoadedFiles (raw tree,
source map, typed model) so any finding can point at ``file:line:col``. Parent links are private weak
references (``Node.adopt``): the tree can be walked upwards, yet holds no reference cycle, so a package
nobody holds any more is freed at once by reference counting (the language server checks thousands of
them: a cyclic tree waited, with everything it holds, for the cyclic collector's rare full collections).

The nodes are plain slotted classes, not records: nothing validates them (discovery builds
them field by field), and a plain class costs nothing to define at start-up and nothing per
attribute read in the rules' hot path. ``FIELDS`` lists each class's fields and defaults; a
mutable default is copied for every node.
"""
from __future__ import annotations

import weakref
from typing import Any

from checker.core.findings import Subject
from checker.load.reader import LoadedFile
from checker.core.values import is_int


class _Plain:
    """A node: declared ``FIELDS`` (name -> default), keyword construction, slots, no validation."""

    __slots__ = ()
    FIELDS: dict[str, Any] = {}

    def __init__(self, **values: Any) -> None:
        for name, default in self.FIELDS.items():
            if name in values:
                value = values.pop(name)
            else:
                value = default.copy() if type(default) in (list, dict) else default
            object.__setattr__(self, name, value)
        if values:
            raise TypeError(f"{type(self).__name__} has no field(s) {', '.join(sorted(values))}")

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        own = cls.__dict__.get("FIELDS", {})
        cls.FIELDS = {**getattr(cls.__mro__[1], "FIELDS", {}), **own}

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={getattr(self, 'name', None)!r})"


class Node(_Plain):
    __slots__ = ("name", "rel", "abspath", "dir_error", "junk", "subj", "_parent", "_cache", "__weakref__")
    FIELDS = {
        "name": "",
        "rel": "",  # display path of the directory
        "abspath": "",
        "dir_error": None,  # Optional[LoadError]
        "junk": [],  # [(entry name, why)] entries that are not part of the layout
        "subj": None,  # Optional[Subject], set by discovery once the parent is known (read per finding)
        "_parent": None,  # a weakref.ref to the parent node (adopt)
        "_cache": {},
    }

    def adopt(self, child: "Node") -> None:
        """This node becomes ``child``'s parent (a weak link: the parent holds the child, never the reverse)."""
        child._parent = weakref.ref(self)

    def _up(self):
        ref = self._parent
        return ref() if ref is not None else None

    def __getstate__(self) -> dict:
        """Pickled (a worker's result) and copied with the parent itself: a weak reference cannot be pickled."""
        state = {name: getattr(self, name) for name in self.FIELDS}
        state["_parent"] = self._up()
        return state

    def __setstate__(self, state: dict) -> None:
        parent = state.pop("_parent", None)
        for name, value in state.items():
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_parent", weakref.ref(parent) if parent is not None else None)

    def cached(self, key: str, compute):
        """Memoise a derived value on this node (e.g. a curve's regions) for every rule to share."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]


class Point(Node):
    __slots__ = ("dir_concurrency", "files", "nested")
    FIELDS = {
        "dir_concurrency": None,  # N of r<N>
        "files": {},  # kind -> LoadedFile
        "nested": {},  # a run folder pasted inside the point: {kind: path inside the point} (checker.load.placement)
    }

    @property
    def curve(self) -> "Curve":
        return self._up()

    @property
    def subject(self) -> Subject:
        if self.subj is None:
            c = self.curve
            self.subj = Subject(c.system.submission.name, c.system.name, c.name, self.name)
        return self.subj

    def file(self, kind: str) -> LoadedFile:
        return self.files[kind]

    @property
    def yaml(self):
        """The typed point.yaml model (PointYaml) or None."""
        lf = self.files.get("point_yaml")
        return lf.model if lf is not None else None

    @property
    def summary(self):
        lf = self.files.get("result_summary")
        return lf.model if lf is not None else None

    @property
    def sysdesc(self):
        lf = self.files.get("system_desc")
        return lf.model if lf is not None else None

    @property
    def concurrency(self) -> int | None:
        """Declared concurrency, falling back to the directory's N."""
        y = self.yaml
        if y is not None and is_int(y.concurrency):
            return y.concurrency
        return self.dir_concurrency

    @property
    def offline(self) -> str | None:
        y = self.yaml
        return y.offline if y is not None else None

    @property
    def is_dedicated_offline(self) -> bool:
        return self.offline == "dedicated"

    @property
    def load_pattern(self) -> str | None:
        y = self.yaml
        return y.load_pattern if y is not None else None


class Curve(Node):
    """One published Pareto curve: results/<system>/<model>/."""

    __slots__ = ("points", "duplicate_points", "excess_points")
    FIELDS = {
        "points": [],  # [Point]
        "duplicate_points": [],  # [(concurrency, [dir names])]
        "excess_points": [],  # r<N> directories beyond submission.MAX_POINTS_PER_CURVE: named, never loaded
    }

    @property
    def system(self) -> "System":
        return self._up()

    @property
    def subject(self) -> Subject:
        if self.subj is None:
            self.subj = Subject(self.system.submission.name, self.system.name, self.name)
        return self.subj

    @property
    def loaded_points(self) -> list[Point]:
        return [p for p in self.points if p.yaml is not None]


class System(Node):
    __slots__ = ("power", "curves")
    FIELDS = {
        "power": None,  # Optional[LoadedFile]
        "curves": [],  # [Curve]
    }

    @property
    def submission(self) -> "Submission":
        return self._up()

    @property
    def subject(self) -> Subject:
        if self.subj is None:
            self.subj = Subject(self.submission.name, self.name)
        return self.subj


class Submission(Node):
    __slots__ = ("org", "results_state", "docs_state", "src_state", "dir_problems", "src_impls", "systems", "files",
                 "refused")
    FIELDS = {
        "org": "",
        "results_state": "missing",  # ok | missing | not-dir | error
        "docs_state": "missing",
        "src_state": "missing",
        "dir_problems": {},  # top-level dir name -> LoadError
        "src_impls": [],  # [(name, readme_state)] readme_state: ok | missing | wrong-case:<name>
        "systems": [],  # [System]
        "files": {},  # submission-level files (cli_metadata.json): kind -> LoadedFile
        "refused": [],  # [(Subject, entry, LoadError)] every loader refusal in this submission
    }

    @property
    def subject(self) -> Subject:
        return Subject(self.name)

    @property
    def root_real(self) -> str:
        import os

        return os.path.realpath(self.abspath)

    def curves(self) -> list[Curve]:
        return [c for s in self.systems for c in s.curves]

    def points(self) -> list[Point]:
        return [p for c in self.curves() for p in c.points]

    def all_files(self) -> list[tuple[Subject, LoadedFile]]:
        out = [(self.subject, lf) for lf in self.files.values()]
        for s in self.systems:
            if s.power is not None:
                out.append((s.subject, s.power))
            for c in s.curves:
                for p in c.points:
                    out.extend((p.subject, lf) for lf in p.files.values())
        return out


class RunFolder(Node):
    """A run folder written by the reference client (RUN-FOLDER.md §1)."""

    __slots__ = ("files", "layout", "refused", "events_audit", "idx_map", "context", "entry_states")
    FIELDS = {
        "files": {},  # kind -> LoadedFile
        #: the entries the client writes that no loader reads (report.txt) or only an audit does (events.jsonl):
        #: name -> "ok", "empty", "missing" or "bad:<why it cannot be read>" (checker.load.carried.file_state)
        "entry_states": {},
        "layout": "standard",  # standard | flat
        "refused": [],
        "events_audit": None,  # checker.load.events.EventsAudit, filled before the rules run (None: not audited)
        "idx_map": None,  # checker.load.sample_map.IdxMap: per-phase sample counts of sample_idx_map.json
        "context": {},  # where the optional context came from: {"point_yaml": "beside"|"--point", ...}
    }

    @property
    def subject(self) -> Subject:
        return Subject(submission="", point=self.name)


class Package(_Plain):
    """Everything one invocation checks."""

    __slots__ = ("paths", "missing_paths", "unusable_paths", "submissions", "run_folders", "junk", "assemblies", "plan",
                 "refused", "leftovers")
    FIELDS = {
        "paths": [],
        "missing_paths": [],
        "unusable_paths": [],  # [(path, why)]
        "submissions": [],  # [Submission]
        "run_folders": [],  # [RunFolder]
        "junk": [],  # [(display path, why)] at the organisation/cohort level
        #: run folders assembled into the bundle they become (checker.load.bundle.Assembly), when assembling
        "assemblies": [],
        #: client configs pre-flighted before the runs (checker.load.planned.PlannedSet), or None
        "plan": None,
        "refused": [],  # [(Subject, display path, LoadError)] entries of an organisation/cohort directory refused
        #: temporary files of an interrupted --fix found in the points (Options.leftovers), absolute paths
        "leftovers": [],
    }

    @property
    def subject(self) -> Subject:
        return Subject()
