"""The typed package model: Package > Submission > System > Curve > Point, plus run folders.

Built once by ``checker.load.discovery``; rules only read it. Each node keeps its LoadedFiles (raw tree,
source map, typed model) so any finding can point at ``file:line:col``. Parent links are private
attributes so the tree can be walked upwards without cycles in dumps.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import BaseModel, ConfigDict, PrivateAttr

from checker.core.findings import Subject
from checker.load.reader import LoadedFile, LoadError


class Node(BaseModel):
    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    name: str
    rel: str  # display path of the directory
    abspath: str
    dir_error: Optional[LoadError] = None
    junk: list = []  # [(entry name, why)] entries that are not part of the layout
    subj: Optional[Subject] = None  # set by discovery once the parent is known (hot path: read per finding)
    _parent: Any = PrivateAttr(default=None)
    _cache: dict = PrivateAttr(default_factory=dict)

    def cached(self, key: str, compute):
        """Memoise a derived value on this node (e.g. a curve's regions) for every rule to share."""
        if key not in self._cache:
            self._cache[key] = compute()
        return self._cache[key]


class Point(Node):
    dir_concurrency: Optional[int] = None  # N of r<N>
    files: dict[str, LoadedFile] = {}
    nested: dict = {}  # a run folder pasted inside the point: {kind: path inside the point} (checker.load.placement)

    @property
    def curve(self) -> "Curve":
        return self._parent

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
        if y is not None and isinstance(y.concurrency, int) and not isinstance(y.concurrency, bool):
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

    points: list[Point] = []
    duplicate_points: list = []  # [(concurrency, [dir names])]
    excess_points: list = []  # r<N> directories beyond discovery.MAX_POINTS_PER_CURVE: named, never loaded

    @property
    def system(self) -> "System":
        return self._parent

    @property
    def subject(self) -> Subject:
        if self.subj is None:
            self.subj = Subject(self.system.submission.name, self.system.name, self.name)
        return self.subj

    @property
    def loaded_points(self) -> list[Point]:
        return [p for p in self.points if p.yaml is not None]

    @property
    def is_agentic(self) -> bool:
        """Agentic by load pattern (RULES.md §4.1): every readable point uses agentic_inference."""
        pats = [p.load_pattern for p in self.points if p.yaml is not None and not p.is_dedicated_offline]
        return bool(pats) and all(x == "agentic_inference" for x in pats)


class System(Node):
    power: Optional[LoadedFile] = None
    curves: list[Curve] = []

    @property
    def submission(self) -> "Submission":
        return self._parent

    @property
    def subject(self) -> Subject:
        if self.subj is None:
            self.subj = Subject(self.submission.name, self.name)
        return self.subj


class Submission(Node):
    org: str = ""
    results_state: str = "missing"  # ok | missing | not-dir | error
    docs_state: str = "missing"
    src_state: str = "missing"
    dir_problems: dict = {}  # top-level dir name -> LoadError
    src_impls: list = []  # [(name, readme_state)] readme_state: ok | missing | wrong-case:<name>
    systems: list[System] = []
    files: dict[str, LoadedFile] = {}  # submission-level files (cli_metadata.json)
    refused: list = []  # [(Subject, entry, LoadError)] every loader refusal in this submission

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

    files: dict[str, LoadedFile] = {}
    layout: str = "standard"  # standard | flat
    refused: list = []
    events_audit: Any = None  # checker.load.events.EventsAudit, filled before the rules run (None: not audited)
    idx_map: Any = None  # checker.load.sample_map.IdxMap: per-phase sample counts of sample_idx_map.json
    context: dict = {}  # where the optional context came from: {"point_yaml": "beside"|"--point", ...}

    @property
    def subject(self) -> Subject:
        return Subject(submission="", point=self.name)


class Package(BaseModel):
    """Everything one invocation checks."""

    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    paths: list[str] = []
    missing_paths: list[str] = []
    unusable_paths: list = []  # [(path, why)]
    submissions: list[Submission] = []
    run_folders: list[RunFolder] = []
    junk: list = []  # [(display path, why)] at the organisation/cohort level
    #: run folders assembled into the bundle they become (checker.load.bundle.Assembly), when assembling
    assemblies: list = []
    #: client configs pre-flighted before the runs (checker.load.planned.PlannedSet), or None
    plan: Any = None
    refused: list = []  # [(Subject, display path, LoadError)] entries of an organisation/cohort directory refused

    @property
    def subject(self) -> Subject:
        return Subject()
