"""Plan the bundle a set of run folders becomes, the way `runs create` + `submissions create` build it.

RULES.md §1.2-1.4: each run folder needs system_desc.json, point.yaml and
performance/result_summary.json; it is classified (config.yaml ``datasets[].type``, else point.yaml
``dataset_type`` when exactly ``Accuracy`` or ``Performance``) and filed into
``results/<system>/<model_name>/r<concurrency>/``; system_power.json is lifted per system; every
``src/`` is united and every ``documentation/`` merged into ``docs/``. This module only reads and
decides (the view is staged by ``checker.engine.assemble``); the ``bundle`` rules report what it found.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Optional

from checker.core.findings import Subject
from checker.load.bundle_tree import TreeInventory, inventory

#: what `runs create --path <folder>` requires (RULES.md §1.2): run-folder path -> loaded kind
RUNS_CREATE_FILES = (("system_desc.json", "system_desc"), ("point.yaml", "point_yaml"),
                     ("performance/result_summary.json", "result_summary"))
#: a point directory's files: bundle name -> (run-folder kind, path inside the run folder)
POINT_FILES = {
    "point.yaml": ("point_yaml", "point.yaml"),
    "system_desc.json": ("system_desc", "system_desc.json"),
    "result_summary.json": ("result_summary", "performance/result_summary.json"),
    "accuracy_results.json": ("accuracy", "accuracy/accuracy_results.json"),
    "config.yaml": ("config", "config.yaml"),
}
#: loader refusals that leave nothing to copy (the file cannot be read safely)
UNCOPYABLE = ("file-unreadable", "symlink-escape", "file-too-large")
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]*$")


@dataclass
class Run:
    """One run folder as the builder sees it."""

    rf: Any  # checker.load.model.RunFolder
    missing: list = field(default_factory=list)  # [(run-folder path, why)] what runs create refuses
    kind: Optional[str] = None  # performance | accuracy (None: the builder cannot classify it)
    how: str = ""  # how the kind was decided, or why it could not be
    unfiled: Optional[str] = None  # why the builder cannot file it (no concurrency or model name)
    concurrency: Optional[int] = None
    model: Optional[str] = None
    system: str = ""  # the results/<system>/ label
    system_key: str = ""  # what groups runs into one system (system_desc.json system_name)
    issued: Any = None  # performance/result_summary.json n_samples_issued
    has_accuracy: bool = False  # accuracy/accuracy_results.json exists

    @property
    def name(self) -> str:
        return self.rf.name

    @property
    def rel(self) -> str:
        return self.rf.rel

    @property
    def subject(self) -> Subject:
        return self.rf.subject

    @property
    def created(self) -> bool:
        """`runs create` accepts it (the three files are there and readable)."""
        return not self.missing

    @property
    def filed(self) -> bool:
        """It lands in the bundle: created, classified and placed."""
        return self.created and self.kind is not None and self.unfiled is None

    @property
    def provides_accuracy(self) -> bool:
        return self.has_accuracy and self.kind in ("performance", "accuracy")

    def file(self, kind: str):
        return self.rf.files.get(kind)

    def path(self, inner: str) -> str:
        return os.path.join(self.rf.rel, inner)


@dataclass
class PointPlan:
    """One r<N> directory and the runs filed into it."""

    system: str
    model: str
    n: int
    perf: list = field(default_factory=list)  # performance-class runs
    acc: list = field(default_factory=list)  # every run carrying accuracy results (accuracy runs, --mode both)

    @property
    def lead(self) -> Run:
        """The run whose point.yaml, system_desc.json and config.yaml go into r<N>."""
        return self.perf[0] if self.perf else self.acc[0]

    @property
    def accuracy_run(self) -> Optional[Run]:
        return self.acc[0] if self.acc else None

    @property
    def rel(self) -> str:
        return f"results/{self.system}/{self.model}/r{self.n}"

    def source(self, name: str) -> Optional[Run]:
        """The run whose file lands as r<N>/<name>."""
        if name == "accuracy_results.json":
            return self.accuracy_run
        if name == "result_summary.json":
            return self.perf[0] if self.perf else None
        return self.lead


@dataclass
class SystemPlan:
    label: str
    key: str
    runs: list = field(default_factory=list)
    power: list = field(default_factory=list)  # runs carrying system_power.json, in run order

    @property
    def lifted(self) -> Optional[Run]:
        return self.power[0] if self.power else None


@dataclass
class Assembly:
    """The bundle a set of run folders becomes; read by the bundle rules and staged by the engine."""

    name: str
    display: str  # where the runs are (the directory given, or the runs' common parent)
    runs: list = field(default_factory=list)
    points: dict = field(default_factory=dict)  # (system, model, n) -> PointPlan
    systems: dict = field(default_factory=dict)  # label -> SystemPlan
    src: TreeInventory = field(default_factory=TreeInventory)
    docs: TreeInventory = field(default_factory=TreeInventory)
    shared: dict = field(default_factory=dict)  # (point key, field) -> SharedPath

    @property
    def subject(self) -> Subject:
        return Subject(self.name)

    def filed(self) -> list:
        return [r for r in self.runs if r.filed]


@dataclass
class SharedPath:
    """shared_src/shared_docs of one bundled point.yaml: declared (validated) or injected."""

    key: str
    declared: Any
    value: Optional[str]  # what the bundle's point.yaml says (the declared or the injected value)
    ok: bool
    note: str


def assemble_plan(run_folders: list, name: str, display: str, max_entries: int = 20000) -> Assembly:
    """Classify, file and inventory ``run_folders`` (already loaded); no file is written."""
    a = Assembly(name=name, display=display)
    for rf in sorted(run_folders, key=lambda r: (r.rel, r.name)):
        run = Run(rf=rf)
        _runs_create(run)
        _classify(run)
        _place(run)
        a.runs.append(run)
    _group_systems(a)
    for run in a.filed():
        if run.kind != "performance" and not run.provides_accuracy:
            continue  # an accuracy run without accuracy results gives the bundle nothing (bundle-run-kind)
        key = (run.system, run.model, run.concurrency)
        pp = a.points.setdefault(key, PointPlan(*key))
        if run.kind == "performance":
            pp.perf.append(run)
        if run.provides_accuracy:
            pp.acc.append(run)
    a.points = dict(sorted(a.points.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2])))
    created = [r for r in a.runs if r.created]
    a.src = inventory([(r, os.path.join(r.rf.abspath, "src"), r.path("src")) for r in created], max_entries)
    a.docs = inventory([(r, os.path.join(r.rf.abspath, "documentation"), r.path("documentation")) for r in created],
                       max_entries)
    for key, pp in a.points.items():
        _shared_paths(a, key, pp)
    return a


def _runs_create(run: Run) -> None:
    rf = run.rf
    if rf.layout == "flat":
        run.missing.append(("performance/result_summary.json",
                            "flat layout: result_summary.json sits at the top of the folder"))
    for inner, kind in RUNS_CREATE_FILES:
        lf = rf.files.get(kind)
        if kind == "result_summary" and rf.layout == "flat":
            continue
        if lf is None or not lf.exists:
            run.missing.append((inner, "missing"))
        elif lf.error is not None and (kind != "point_yaml" or lf.error.code in UNCOPYABLE):
            run.missing.append((inner, f"cannot be read: {lf.error.message}"))
    s = rf.files.get("result_summary")
    if s is not None and s.ok and isinstance(s.data, dict):
        run.issued = s.data.get("n_samples_issued")
    acc = rf.files.get("accuracy")
    run.has_accuracy = acc is not None and acc.exists and (acc.error is None or acc.error.code not in UNCOPYABLE)


def dataset_types(rf) -> list:
    """The kinds config.yaml's ``datasets[].type`` names, sorted (empty: no config.yaml or no types)."""
    lf = rf.files.get("config")
    if lf is None or not lf.ok or not isinstance(lf.data, dict) or not isinstance(lf.data.get("datasets"), list):
        return []
    return sorted({d.get("type") for d in lf.data["datasets"]
                   if isinstance(d, dict) and d.get("type") in ("performance", "accuracy")})


def _classify(run: Run) -> None:
    """RULES.md §1.4: config.yaml datasets[].type first, else point.yaml dataset_type exactly.

    The client writes every configured dataset into config.yaml whatever the mode (RUN-FOLDER.md
    §1.1: an --accuracy-only run still lists its performance dataset), so a config naming both
    kinds does not tell the run's kind: the builder's point.yaml fallback decides, as it does
    when config.yaml is absent.
    """
    types = dataset_types(run.rf)
    if types == ["performance"] or types == ["accuracy"]:
        run.kind, run.how = types[0], f"config.yaml datasets[].type: {types[0]} only"
        return
    why = ("config.yaml lists performance and accuracy datasets (the client writes both in every mode)"
           if types else "config.yaml absent" if not _exists(run.rf, "config") else "config.yaml names no dataset type")
    lf = run.rf.files.get("point_yaml")
    dt = lf.data.get("dataset_type") if lf is not None and lf.ok and isinstance(lf.data, dict) else None
    if dt in ("Performance", "Accuracy"):
        run.kind, run.how = dt.lower(), f"point.yaml dataset_type {dt!r} ({why})"
    else:
        shown = "absent" if dt is None else repr(dt)
        run.how = f"{why}, and point.yaml dataset_type is {shown}, not exactly 'Accuracy' or 'Performance'"


def _exists(rf, kind: str) -> bool:
    lf = rf.files.get(kind)
    return lf is not None and lf.exists


def _place(run: Run) -> None:
    lf = run.rf.files.get("point_yaml")
    data = lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else None
    if data is None:
        run.unfiled = "point.yaml does not load" if lf is not None and lf.exists else "no point.yaml"
        return
    c, m = data.get("concurrency"), data.get("model_name")
    if not isinstance(c, int) or isinstance(c, bool) or c <= 0 or c >= 1 << 62:
        run.unfiled = f"point.yaml concurrency is {c!r}, not a positive integer (it names the r<N> directory)"
    elif not isinstance(m, str) or not _SAFE_NAME.match(m):
        run.unfiled = f"point.yaml model_name is {m!r}, not a model id usable as the <model_name> directory"
    else:
        run.concurrency, run.model = c, m


def _group_systems(a: Assembly) -> None:
    """Runs of one system (system_desc.json system_name) share results/<system>/ and its system_power.json."""
    by_key: dict[str, SystemPlan] = {}
    for run in a.runs:
        if not run.created:
            continue
        sd = run.file("system_desc")
        data = sd.data if sd is not None and sd.ok and isinstance(sd.data, dict) else {}
        key = data.get("system_name") if isinstance(data.get("system_name"), str) else ""
        run.system_key = key
        sp = by_key.setdefault(key, SystemPlan(label="", key=key))
        sp.runs.append(run)
        pw = run.file("power")
        if pw is not None and pw.exists and (pw.error is None or pw.error.code not in UNCOPYABLE):
            sp.power.append(run)
    used: set[str] = set()
    for key, sp in by_key.items():
        label = _label(sp)
        base, i = label, 2
        while label in used:
            label, i = f"{base}-{i}", i + 1
        used.add(label)
        sp.label = label
        for run in sp.runs:
            run.system = label
        a.systems[label] = sp


def _label(sp: SystemPlan) -> str:
    """The free <system> label: system_power.json's system_desc_id, else the system's (short) name."""
    lifted = sp.lifted
    pw = lifted.file("power") if lifted is not None else None
    cands = [pw.data.get("system_desc_id") if pw is not None and pw.ok and isinstance(pw.data, dict) else None]
    sd = sp.runs[0].file("system_desc")
    if sd is not None and sd.ok and isinstance(sd.data, dict):
        cands += [sd.data.get("shortened_system_name"), sd.data.get("system_name")]
    for c in cands:
        if isinstance(c, str) and c.strip():
            clean = re.sub(r"[^A-Za-z0-9._+-]+", "_", c.strip()).strip("._") or "system"
            return clean[:100]
    return "system"


def _shared_paths(a: Assembly, key: tuple, pp: PointPlan) -> None:
    """Validate declared shared_src/shared_docs against the assembled tree; inject absent ones."""
    run = pp.lead
    lf = run.file("point_yaml")
    data = lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else {}
    own = a.src.top_dirs(run)
    impls = a.src.top_dirs()
    for fld, top, tree in (("shared_src", "src", a.src), ("shared_docs", "docs", a.docs)):
        declared = data.get(fld)
        if declared is not None:
            ok, note = _resolves(declared, top, tree, fld)
            a.shared[(key, fld)] = SharedPath(fld, declared, declared if isinstance(declared, str) else None, ok, note)
            continue
        if fld == "shared_src":
            pick = own if len(own) == 1 else impls if len(impls) == 1 else []
            if len(pick) == 1:
                value = f"src/{pick[0]}"
                why = "the run's own src/" if len(own) == 1 else "the only implementation in the bundle"
                a.shared[(key, fld)] = SharedPath(fld, None, value, True, f"injected {value!r} ({why})")
            else:
                shown = ", ".join(impls) if impls else "none"
                a.shared[(key, fld)] = SharedPath(fld, None, None, False,
                                                  f"absent and cannot be injected: the bundle's src/ holds "
                                                  f"{len(impls)} implementation(s) ({shown}) and the run carries "
                                                  f"{len(own)}")
        elif tree.has_root:
            a.shared[(key, fld)] = SharedPath(fld, None, "docs", True, "injected 'docs'")
        else:
            a.shared[(key, fld)] = SharedPath(fld, None, None, False,
                                              "absent and cannot be injected: no run folder carries documentation/, "
                                              "so the bundle has no docs/")


def _resolves(value: Any, top: str, tree: TreeInventory, fld: str) -> tuple[bool, str]:
    """(ok, note) for a declared shared path, against the tree the builder will write."""
    if not isinstance(value, str) or not value.strip():
        return False, f"{fld} is {value!r}: not a path"
    if os.path.isabs(value) or value.startswith("~"):
        return False, f"{fld} {value!r} is absolute; it must be relative to the submission root"
    norm = os.path.normpath(value).replace(os.sep, "/")
    if norm == ".." or norm.startswith("../"):
        return False, f"{fld} {value!r} leaves the submission root"
    head, _, rest = norm.partition("/")
    if head != top:
        return False, f"{fld} {value!r} is not under {top}/ (the builder writes {top}/ from the runs' " \
                      f"{'src/' if top == 'src' else 'documentation/'})"
    if fld == "shared_src" and not rest:
        return False, f"{fld} {value!r} names src/ itself, not an implementation directory under it"
    if not (tree.has_root if not rest else tree.is_dir(rest)):
        return False, f"{fld} {value!r} does not exist in the assembled bundle"
    return True, f"{fld} {value!r} resolves in the assembled bundle"
