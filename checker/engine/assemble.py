"""Check a set of run folders as the bundle they will become: plan, stage, load, relocate, write.

The plan (``checker.load.bundle``) is staged into a private temporary directory exactly as the
builder lays it out (src/ and docs/ as empty placeholders: no rule reads their contents), loaded by
the ordinary package discovery, and every location is moved back from the staged tree to the file in
the run folder it came from. ``--write-bundle OUT`` writes the same tree with full contents; nothing is
ever written into a run folder or the directory holding them.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from typing import Any

from checker.core.findings import Finding, Location
from checker.load.bundle import POINT_FILES, UNCOPYABLE, Assembly, assemble_plan
from checker.load.discovery import Options, load_submission

#: display root of the staged tree (shown only where no run-folder file corresponds)
STAGED = "(bundle)"
_STAGED_PATH = re.compile(re.escape(STAGED) + r"(?:/[^\s'\",;()]*)?")


def wanted(plan, config) -> bool:
    """Assemble? --assemble/--no-assemble decide; else run folders only (two or more, no --point) with
    at least one carrying the submitter's point.yaml and system_desc.json."""
    if config.assemble is not None:
        return bool(config.assemble) and bool(plan.run_folders) and not plan.submissions
    if plan.submissions or len(plan.run_folders) < 2 or config.options.get("point"):
        return False
    return any(os.path.isfile(os.path.join(rf.abspath, "point.yaml"))
               and os.path.isfile(os.path.join(rf.abspath, "system_desc.json")) for rf in plan.run_folders)


def _name(paths: list[str], run_folders: list) -> tuple[str, str]:
    """(label, display): the directory given, else the run folders' common parent."""
    if len(paths) == 1 and not any(os.path.normpath(rf.rel) == os.path.normpath(paths[0]) for rf in run_folders):
        display = os.path.normpath(paths[0])
    else:
        parents = {os.path.dirname(os.path.normpath(rf.rel)) for rf in run_folders}
        display = parents.pop() if len(parents) == 1 else "."
        display = display or "."
    label = os.path.basename(os.path.abspath(display)) or "bundle"
    return label, display


class Staged:
    """The assembled view of one set of run folders: its plan, staged tree and path map."""

    def __init__(self, assembly: Assembly, max_bytes: int):
        self.assembly = assembly
        self.max_bytes = max_bytes
        self.files: dict[str, str] = {}  # staged display path -> run-folder display path
        self.dirs: dict[str, str] = {}
        self.tmp: str | None = None

    # -- staging ------------------------------------------------------------------------------
    def stage(self) -> str:
        self.tmp = tempfile.mkdtemp(prefix="endpoints-checker-bundle-")
        root = os.path.join(self.tmp, "bundle")
        write_tree(self.assembly, root, full=False, max_bytes=self.max_bytes, paths=self)
        return root

    def cleanup(self) -> None:
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None

    def load(self, options: Options):
        """Stage the tree and load it as a submission whose files carry their run-folder paths."""
        root = self.stage()
        sub = load_submission(root, STAGED, options, org="", name=self.assembly.name)
        for _subject, lf in sub.all_files():
            lf.rel = self.where(lf.rel)
        return sub

    # -- paths --------------------------------------------------------------------------------
    def where(self, path: str) -> str:
        """The run-folder path a staged display path stands for (unchanged when it is not staged)."""
        if path != STAGED and not path.startswith(STAGED + "/"):
            return path
        if path in self.files:
            return self.files[path]
        a = self.assembly
        rest = path[len(STAGED):].strip("/")
        top, _, inner = rest.partition("/")
        if top in ("src", "docs"):
            tree = a.src if top == "src" else a.docs
            base = tree.origin(inner) if inner else (tree.roots[0][1] if tree.roots else None)
            if base is None:
                first = a.runs[0].rel if a.runs else a.display
                return os.path.join(first, "src" if top == "src" else "documentation", inner).rstrip("/")
            origin_rel = _origin_rel(tree, inner)
            tail = inner[len(origin_rel):].strip("/") if origin_rel else inner
            return os.path.join(base, tail).rstrip("/") if tail else base
        cur = path
        while cur and cur != STAGED:
            if cur in self.dirs:
                return os.path.join(self.dirs[cur], path[len(cur):].strip("/")).rstrip("/")
            cur = cur.rpartition("/")[0]
        return os.path.join(a.display, rest).rstrip("/") if rest else a.display

    def relocate(self, findings: list[Finding]) -> list[Finding]:
        """Point every location (and every staged path quoted in a message) at the run folders."""
        for f in findings:
            loc = f.location
            if loc is not None and loc.file.startswith(STAGED):
                f.location = Location(self.where(loc.file), loc.line, loc.column, loc.path)
            if STAGED in f.message:
                f.message = _STAGED_PATH.sub(lambda m: self.where(m.group(0)), f.message)
        return findings

    def note(self, staged_rel: str, origin: str, is_dir: bool = False) -> None:
        key = os.path.join(STAGED, staged_rel)
        (self.dirs if is_dir else self.files)[key] = origin


def _origin_rel(tree, inner: str) -> str:
    rel = inner.strip("/")
    while rel:
        e = tree.entries.get(rel)
        if e is not None and e.sources:
            return rel
        rel = rel.rpartition("/")[0]
    return ""


def write_tree(a: Assembly, root: str, full: bool, max_bytes: int, paths: Staged | None = None) -> int:
    """Write the bundle tree under ``root`` (created; must not exist or be empty); return files written."""
    os.makedirs(root, exist_ok=True)
    if os.listdir(root):
        raise FileExistsError(f"{root} is not empty")
    n = 0
    note = paths.note if paths is not None else (lambda *a, **k: None)
    for top, tree in (("src", a.src), ("docs", a.docs)):
        if not tree.has_root:
            continue
        os.makedirs(os.path.join(root, top))
        note(top, tree.roots[0][1], is_dir=True)
        for rel, e in tree.entries.items():
            dst = os.path.join(root, top, *rel.split("/"))
            if e.kind == "dir":
                os.makedirs(dst, exist_ok=True)
                continue
            if full:
                shutil.copyfile(e.sources[0][1], dst, follow_symlinks=False)
            else:
                open(dst, "wb").close()
            n += 1
            note(f"{top}/{rel}", e.sources[0][2])
    for label, sp in a.systems.items():
        sysdir = os.path.join(root, "results", label)
        if not any(pp.system == label for pp in a.points.values()):
            continue
        os.makedirs(sysdir)
        note(f"results/{label}", a.display, is_dir=True)  # a system or curve stands for the set of runs
        lifted = sp.lifted
        target = lifted.path("system_power.json") if lifted is not None else sp.runs[0].path("system_power.json")
        note(f"results/{label}/system_power.json", target)
        if lifted is not None and _copy(lifted.file("power"), os.path.join(sysdir, "system_power.json"), max_bytes):
            n += 1
    curves: set = set()
    for key, pp in a.points.items():
        pdir = os.path.join(root, *pp.rel.split("/"))
        os.makedirs(pdir)
        curve = pp.rel.rpartition("/")[0]
        if curve not in curves:
            curves.add(curve)
            note(curve, a.display, is_dir=True)
        note(pp.rel, pp.lead.rel, is_dir=True)
        for name, (kind, inner) in POINT_FILES.items():
            src = pp.source(name)
            owner = src or pp.lead
            note(f"{pp.rel}/{name}", owner.path(inner) if src is not None or name != "result_summary.json"
                 else owner.rel)
            if src is None:
                continue
            inject = _injected(a, key) if name == "point.yaml" else {}
            if _copy(src.file(kind), os.path.join(pdir, name), max_bytes, inject):
                n += 1
        note(f"{pp.rel}/results.json", pp.lead.path("accuracy/results.json"))
    return n


def _injected(a: Assembly, key: tuple) -> dict:
    out = {}
    for fld in ("shared_src", "shared_docs"):
        sp = a.shared.get((key, fld))
        if sp is not None and sp.declared is None and sp.value is not None:
            out[fld] = sp.value
    return out


def _copy(lf, dst: str, max_bytes: int, inject: dict | None = None) -> bool:
    """Copy a loaded file verbatim (plus injected keys at its end); refused files are not copied."""
    if lf is None or not lf.exists or (lf.error is not None and lf.error.code in UNCOPYABLE):
        return False
    try:
        with open(lf.abspath, "rb") as fh:
            raw = fh.read(max_bytes + 1)
    except OSError:
        return False
    if inject:
        raw = _inject(raw, lf.data, inject)
    with open(dst, "wb") as fh:
        fh.write(raw)
    return True


def _inject(raw: bytes, data: Any, inject: dict) -> bytes:
    """Append ``key: value`` lines to a block-mapping YAML (every original line keeps its number)."""
    text = raw.decode("utf-8")
    lines = [ln for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    block = lines and not lines[0].lstrip().startswith("{") and not any(ln.startswith(("---", "...")) for ln in lines[1:])
    if block:
        tail = "" if text.endswith("\n") or not text else "\n"
        return (text + tail + "".join(f"{k}: {json.dumps(v)}\n" for k, v in inject.items())).encode("utf-8")
    merged = dict(data) if isinstance(data, dict) else {}
    merged.update(inject)
    return (json.dumps(merged, indent=2) + "\n").encode("utf-8")


def build_view(pkg, paths: list[str], max_bytes: int, exclude=()) -> Staged:
    """Plan and load the assembled view into ``pkg`` (submissions = [the bundle], assemblies = [plan])."""
    label, display = _name(paths, pkg.run_folders)
    staged = Staged(assemble_plan(pkg.run_folders, label, display), max_bytes)
    try:
        sub = staged.load(Options(max_bytes=max_bytes, exclude=exclude))
    except BaseException:
        staged.cleanup()
        raise
    pkg.submissions = [sub]
    pkg.assemblies = [staged.assembly]
    return staged


def section(staged: Staged, written: str | None) -> dict:
    """The report's ``bundle`` section: where each run lands, and where the tree was written."""
    a = staged.assembly
    where = {}
    for pp in a.points.values():
        for r in pp.perf + pp.acc:
            where.setdefault(r.rel, pp.rel)
    return {
        "name": a.name,
        "runs": [{"run": r.rel, "kind": r.kind, "how": r.how, "created": r.created, "point": where.get(r.rel)}
                 for r in a.runs],
        "points": [{"point": pp.rel, "performance": [r.rel for r in pp.perf], "accuracy": [r.rel for r in pp.acc]}
                   for pp in a.points.values()],
        "written": written,
    }


def check_output(out: str, inputs: list[str]) -> str | None:
    """Why ``--write-bundle OUT`` cannot be written (None: it can)."""
    real_out = os.path.realpath(out)
    for p in inputs:
        rp = os.path.realpath(p)
        if real_out == rp or real_out.startswith(rp + os.sep) or rp.startswith(real_out + os.sep):
            return f"it overlaps the input {p}: the bundle is never written into (or around) the run folders"
    if os.path.lexists(out) and (not os.path.isdir(out) or os.listdir(out)):
        return "it exists and is not an empty directory"
    if not os.path.isdir(os.path.dirname(real_out)):
        return f"its parent directory {os.path.dirname(real_out)} does not exist"
    return None


def write_bundle(staged: Staged, out: str, inputs: list[str]) -> int:
    """``--write-bundle OUT``: the assembled tree with full contents; never inside (or around) an input."""
    why = check_output(out, inputs)
    if why is not None:
        raise ValueError(f"--write-bundle {out}: {why}")
    return write_tree(staged.assembly, out, full=True, max_bytes=staged.max_bytes)
