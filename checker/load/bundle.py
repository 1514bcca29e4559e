"""Plan the bundle a set of run folders becomes, the way `runs create` and `submissions create` build it.

RULES.md §1.2-1.4, as endpoints-submission-cli 1.5.3.0 implements them: `runs create` takes a
folder holding system_desc.json, point.yaml, config.yaml and performance/result_summary.json; the
builder classifies each run (config.yaml ``datasets[0].type``, else point.yaml ``dataset_type``
``Accuracy``/``Performance``, case-insensitively), files it into
``results/<system_name>/<model_name>/r<concurrency>/`` (the performance run supplies the point, an
accuracy run its accuracy_results.json), lifts system_power.json per system, unites ``src/`` and
merges ``documentation/`` into ``docs/``. This module only reads and decides; the view is staged by
``checker.engine.assemble`` and the ``bundle`` rules report what it found.
"""
from __future__ import annotations

import os
import re
from typing import Any, Optional

import msgspec

from checker.core.values import loaded_mapping
from checker.core.findings import Subject
from checker.load.bundle_tree import TreeInventory, inventory

#: what `runs create --path <folder>` requires: run-folder path -> loaded kind
RUNS_CREATE_FILES = (("system_desc.json", "system_desc"), ("point.yaml", "point_yaml"), ("config.yaml", "config"),
                     ("performance/result_summary.json", "result_summary"))
#: loader refusals that leave nothing to read (the file cannot be read safely)
UNCOPYABLE = ("file-unreadable", "symlink-escape", "file-too-large")
#: the accuracy files the builder reads from a run, in its order of preference
ACCURACY_SOURCES = ("accuracy/accuracy_results.json", "accuracy/results.json")


class Run(msgspec.Struct):
    """One run folder as `runs create` and the builder see it."""

    rf: Any  # checker.load.package_tree.RunFolder
    missing: list = msgspec.field(default_factory=list)  # [(run-folder path, why)]: `runs create` refuses the folder
    kind: Optional[str] = None  # performance | accuracy (None: the builder cannot classify it)
    how: str = ""  # how the kind was decided, or why it could not be
    concurrency: Optional[int] = None
    conc_how: str = ""  # where the concurrency came from, or why it cannot be read
    model: str = ""  # the results/<system>/<model>/ directory name
    system: str = ""  # the results/<system>/ directory name (system_desc.json system_name)
    issued: Any = None  # performance/result_summary.json n_samples_issued
    accuracy: Optional[str] = None  # the accuracy file the builder reads from this run (ACCURACY_SOURCES)

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
        return not self.missing

    @property
    def filed(self) -> bool:
        """It lands in the bundle: created, classified and given a concurrency."""
        return self.created and self.kind is not None and self.concurrency is not None

    @property
    def has_accuracy(self) -> bool:
        return self.accuracy is not None

    def file(self, kind: str):
        return self.rf.files.get(kind)

    def data(self, kind: str) -> dict:
        lf = loaded_mapping(self.rf.files.get(kind))
        return lf.data if lf is not None else {}

    def path(self, inner: str) -> str:
        return os.path.join(self.rf.rel, inner)


class PointPlan(msgspec.Struct):
    """One r<N> directory: its performance run, its accuracy run, and the runs that collide there."""

    system: str
    model: str
    n: int
    perf: list = msgspec.field(default_factory=list)  # performance-class runs (more than one: the build fails)
    acc: list = msgspec.field(default_factory=list)  # accuracy-class runs (idem)

    @property
    def primary(self) -> Run:
        """The run that defines the point: point.yaml, result_summary.json, system_desc.json, config.yaml."""
        return self.perf[0] if self.perf else self.acc[0]

    @property
    def accuracy_run(self) -> Optional[Run]:
        """The run whose accuracy results become r<N>/accuracy_results.json (an accuracy run wins)."""
        if self.acc:
            return self.acc[0] if self.acc[0].has_accuracy else None
        return self.primary if self.primary.has_accuracy else None

    @property
    def rel(self) -> str:
        return f"results/{self.system}/{self.model}/r{self.n}"


class SystemPlan(msgspec.Struct):
    name: str
    runs: list = msgspec.field(default_factory=list)
    power: list = msgspec.field(default_factory=list)  # runs carrying a readable system_power.json, in run order

    @property
    def lifted(self) -> Optional[Run]:
        return self.power[0] if self.power else None


class SharedPath(msgspec.Struct):
    """shared_src/shared_docs of one bundled point.yaml: declared (validated) or injected."""

    key: str
    declared: Any
    value: Optional[str]  # what the bundle's point.yaml says
    ok: bool
    note: str


class Assembly(msgspec.Struct):
    """The bundle a set of run folders becomes; read by the bundle rules and staged by the engine."""

    name: str
    display: str  # where the runs are (the directory given, or the runs' common parent)
    runs: list = msgspec.field(default_factory=list)
    points: dict = msgspec.field(default_factory=dict)  # (system, model, n) -> PointPlan
    systems: dict = msgspec.field(default_factory=dict)  # system directory -> SystemPlan
    src: TreeInventory = msgspec.field(default_factory=TreeInventory)
    docs: TreeInventory = msgspec.field(default_factory=TreeInventory)
    shared: dict = msgspec.field(default_factory=dict)  # (point key, field) -> SharedPath

    @property
    def subject(self) -> Subject:
        return Subject(self.name)

    def filed(self) -> list:
        return [r for r in self.runs if r.filed]

    def curves(self) -> dict:
        """(system, model) -> [PointPlan]."""
        out: dict = {}
        for (s, m, _n), pp in self.points.items():
            out.setdefault((s, m), []).append(pp)
        return out


def assemble_plan(run_folders: list, name: str, display: str, max_entries: int = 20000) -> Assembly:
    """Classify, file and inventory ``run_folders`` (already loaded); no file is written."""
    a = Assembly(name=name, display=display)
    for rf in sorted(run_folders, key=lambda r: (r.rel, r.name)):
        run = Run(rf=rf)
        _runs_create(run)
        if run.created:
            _classify(run)
            _place(run)
        a.runs.append(run)
    for run in a.runs:
        if not run.created:
            continue
        sp = a.systems.setdefault(run.system, SystemPlan(run.system))
        sp.runs.append(run)
        pw = run.file("power")
        if loaded_mapping(pw) is not None:
            sp.power.append(run)
    for run in a.filed():
        key = (run.system, run.model, run.concurrency)
        pp = a.points.setdefault(key, PointPlan(*key))
        (pp.perf if run.kind == "performance" else pp.acc).append(run)
    a.points = dict(sorted(a.points.items(), key=lambda kv: kv[0]))
    created = [r for r in a.runs if r.created]
    a.src = inventory([(r, os.path.join(r.rf.abspath, "src"), r.path("src")) for r in created], max_entries)
    a.docs = inventory([(r, os.path.join(r.rf.abspath, "documentation"), r.path("documentation"))
                        for r in created], max_entries)
    for key, pp in a.points.items():
        _shared_paths(a, key, pp)
    return a


def _runs_create(run: Run) -> None:
    """`runs create`: the four files, JSON/YAML that parse (YAML mappings), a numeric duration_ns."""
    rf = run.rf
    for inner, kind in RUNS_CREATE_FILES:
        lf = rf.files.get(kind)
        if lf is None or not lf.exists:
            why = "missing (flat layout: result_summary.json sits at the top)" if kind == "result_summary" and \
                rf.layout == "flat" else "missing"
            run.missing.append((inner, why))
        elif lf.error is not None:
            run.missing.append((inner, f"cannot be read: {lf.error.message}"))
        elif kind in ("point_yaml", "config") and not isinstance(lf.data, dict):
            run.missing.append((inner, f"is a {type(lf.data).__name__}, not a mapping"))
    s = rf.files.get("result_summary")
    if s is not None and s.ok:
        if not isinstance(s.data, dict):
            run.missing.append(("performance/result_summary.json", f"is a {type(s.data).__name__}, not an object"))
        else:
            d = s.data.get("duration_ns", 0)
            if isinstance(d, bool) or not isinstance(d, (int, float)):
                run.missing.append(("performance/result_summary.json",
                                    f"duration_ns is {d!r}: `runs create` divides it to date the run and stops "
                                    "with a TypeError"))
            run.issued = s.data.get("n_samples_issued")
    pw = rf.files.get("power")
    if pw is not None and pw.exists and pw.error is not None:
        run.missing.append(("system_power.json", f"cannot be read: {pw.error.message}"))
    run.accuracy = next((p for p in ACCURACY_SOURCES if _readable(rf, p)), None)


def _readable(rf, inner: str) -> bool:
    """A regular file inside the run folder (a symlink out of it, a FIFO or a refused file is not)."""
    if inner == "accuracy/accuracy_results.json":
        lf = rf.files.get("accuracy")
        return lf is not None and lf.exists and (lf.error is None or lf.error.code not in UNCOPYABLE)
    return inside(rf.abspath, os.path.join(rf.abspath, inner))


def inside(root: str, path: str) -> bool:
    """``path`` is a regular file whose real location is inside ``root`` (never follows a link out)."""
    real, top = os.path.realpath(path), os.path.realpath(root)
    return real.startswith(top + os.sep) and os.path.isfile(real)


def _classify(run: Run) -> None:
    """config.yaml ``datasets[0].type``, else point.yaml ``dataset_type``, each stripped and lower-cased."""
    ds = run.data("config").get("datasets")
    first = ds[0] if isinstance(ds, list) and ds and isinstance(ds[0], dict) else None
    declared = str(first.get("type") or "").strip().lower() if first is not None else ""
    if declared in ("accuracy", "performance"):
        run.kind, run.how = declared, f"config.yaml datasets[0].type {first.get('type')!r}"
        return
    why = f"config.yaml datasets[0].type is {first.get('type')!r}" if first is not None \
        else "config.yaml declares no datasets[].type"
    dt = run.data("point_yaml").get("dataset_type")
    low = str(dt or "").strip().lower()
    if low in ("accuracy", "performance"):
        run.kind, run.how = low, f"point.yaml dataset_type {dt!r} ({why})"
    else:
        shown = "declares no dataset_type" if not dt else f"dataset_type {dt!r} names neither kind alone"
        run.how = f"{why}, and point.yaml {shown}"


def _to_int(value: Any) -> tuple[Optional[int], str]:
    """Python's int() as the builder applies it (a bool is 0/1, a float truncates); None on failure."""
    try:
        return int(value), ""
    except (TypeError, ValueError, OverflowError) as exc:
        return None, f"{type(exc).__name__}: {str(exc)[:80]}"


def _place(run: Run) -> None:
    """r<N> from point.yaml concurrency, else config.yaml's target_concurrency, else 1; model and system names."""
    point, config = run.data("point_yaml"), run.data("config")
    lp = (config.get("settings") or {}).get("load_pattern") if isinstance(config.get("settings"), dict) else None
    for where, value in (("point.yaml concurrency", point.get("concurrency")),
                         ("config.yaml settings.load_pattern.target_concurrency",
                          lp.get("target_concurrency") if isinstance(lp, dict) else None),
                         ("config.yaml target_concurrency", config.get("target_concurrency", 1))):
        if value is None:
            continue
        n, err = _to_int(value)
        if n is None:
            run.conc_how = f"{where} is {value!r}: the builder's int() fails ({err})"
        elif n <= 0 or n >= 1 << 62:
            run.conc_how = f"{where} is {value!r}: not a positive concurrency"
        else:
            run.concurrency, run.conc_how = n, where + (f" ({value!r} read as {n})" if value != n else "")
        break
    mp = config.get("model_params") if isinstance(config.get("model_params"), dict) else {}
    name = point.get("model_name") or mp.get("name") or ""
    run.model = slugify(str(name).split("/")[-1]) if name else "unknown_model"
    sd = run.data("system_desc")
    sysname = sd.get("system_name")
    run.system = system_dir(sysname)


def slugify(name: str) -> str:
    """The builder's directory slug: every run of non-word, non-hyphen characters becomes one `_`."""
    slug = re.sub(r"[^\w\-]", "_", name.strip())
    slug = re.sub(r"_+", "_", slug).strip("_")
    return slug[:64] or "unknown"


def system_dir(system_name: Any) -> str:
    """results/<system>/: system_name with spaces as underscores (a path separator would nest: made `_`)."""
    text = system_name.strip().replace(" ", "_") if isinstance(system_name, str) else ""
    text = text.replace("/", "_").replace("\\", "_")
    return text if text not in ("", ".", "..") else "unnamed_system"


def resolves(value: Any, tree_dirs: set) -> bool:
    """A shared pointer resolves: relative, no `..`, naming a directory of the assembled tree."""
    if not isinstance(value, str) or not value.strip():
        return False
    raw = value.strip()
    if raw.startswith(("/", "~")):
        return False
    parts = [p for p in raw.replace("\\", "/").split("/") if p and p != "."]
    return bool(parts) and ".." not in parts and "/".join(parts) in tree_dirs


def bundle_dirs(a: Assembly) -> set:
    """Every directory of the assembled bundle, relative to its root."""
    out = {"src", "docs", "results"}
    for top, tree in (("src", a.src), ("docs", a.docs)):
        for rel in tree.file_dirs():
            out.add(f"{top}/{rel}")
    for pp in a.points.values():
        parts = pp.rel.split("/")
        out.update("/".join(parts[:i]) for i in range(2, len(parts) + 1))
    return out


def _shared_paths(a: Assembly, key: tuple, pp: PointPlan) -> None:
    """Validate declared shared_src/shared_docs; inject absent ones (shared_src: the sole implementation)."""
    run = pp.primary
    data = run.data("point_yaml")
    impls = a.src.top_dirs()
    dirs = bundle_dirs(a)
    for fld, default in (("shared_src", f"src/{impls[0]}" if len(impls) == 1 else None), ("shared_docs", "docs")):
        declared = data.get(fld)
        if declared not in (None, ""):
            ok = resolves(str(declared), dirs)
            note = f"{fld} {declared!r} resolves in the assembled bundle" if ok else \
                f"{fld} {declared!r} does not resolve to a directory of the assembled bundle (relative to its root, " \
                "no '..')"
            a.shared[(key, fld)] = SharedPath(fld, declared, str(declared), ok, note)
        elif default is None:
            shown = ", ".join(impls) if impls else "none"
            a.shared[(key, fld)] = SharedPath(fld, declared, None, False,
                                              f"shared_src is not declared and cannot be injected: src/ holds "
                                              f"{len(impls)} implementation(s) ({shown}), not exactly one")
        else:
            a.shared[(key, fld)] = SharedPath(fld, declared, default, True, f"{fld} injected as {default!r}")
