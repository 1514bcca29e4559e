"""Check a set of run folders as the bundle they will become: plan, stage, load, relocate, write.

The plan (``checker.load.bundle``) is staged into a private temporary directory exactly as the
builder lays it out (src/ and docs/ as sparse placeholders of their sizes: no rule reads their contents), loaded by
the ordinary package discovery, and every location is moved back from the staged tree to the file in
the run folder it came from. ``--write-bundle OUT`` writes the same tree with full contents; nothing is
ever written into a run folder or the directory holding them.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile

from checker.core.findings import Finding, Location
from checker.engine.bundle_writer import write_tree
from checker.load.bundle import Assembly, assemble_plan
from checker.load.layout import Options
from checker.load.reader import DISK
from checker.load.submission import load_submission

#: display root of the staged tree (shown only where no run-folder file corresponds)
STAGED = "(bundle)"
_STAGED_PATH = re.compile(re.escape(STAGED) + r"(?:/[^\s'\",;()]*)?")


def wanted(plan, config) -> bool:
    """Assemble? --assemble/--no-assemble decide; --write-bundle implies it (even for one folder); else run folders
    only (two or more, no --point) with at least one carrying the submitter's point.yaml and system_desc.json."""
    if config.assemble is not None:
        return bool(config.assemble) and bool(plan.run_folders) and not plan.submissions
    if config.write_bundle:
        return bool(plan.run_folders) and not plan.submissions
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

    def __init__(self, assembly: Assembly, max_bytes: int, reads=None):
        self.assembly = assembly
        self.max_bytes = max_bytes
        #: the check's overlay (``checker.load.reader.Reads``): a --fix/--diff round stages the fixed texts
        self.reads = reads or DISK
        #: staged display path -> (run-folder display path, its LoadedFile or None, rewritten by the builder?)
        self.files: dict[str, tuple] = {}
        self.dirs: dict[str, str] = {}
        self.tmp: str | None = None

    def note(self, rel: str, origin: str, lf=None, transformed: bool = False, is_dir: bool = False) -> None:
        key = os.path.join(STAGED, rel)
        if is_dir:
            self.dirs[key] = origin
        else:
            self.files[key] = (origin, lf, transformed)

    def stage(self) -> str:
        self.tmp = tempfile.mkdtemp(prefix="endpoints-checker-bundle-")
        root = os.path.join(self.tmp, "bundle")
        write_tree(self.assembly, root, full=False, max_bytes=self.max_bytes, note=self.note, reads=self.reads)
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

    def where(self, path: str) -> str:
        """The run-folder path a staged display path stands for (unchanged when it is not staged)."""
        if path != STAGED and not path.startswith(STAGED + "/"):
            return path
        if path in self.files:
            return self.files[path][0]
        cur = path
        while cur and cur != STAGED:
            if cur in self.dirs:
                return os.path.join(self.dirs[cur], path[len(cur):].strip("/")).rstrip("/")
            cur = cur.rpartition("/")[0]
        rest = path[len(STAGED):].strip("/")
        return os.path.join(self.assembly.display, rest).rstrip("/") if rest else self.assembly.display

    def relocate(self, findings: list[Finding]) -> list[Finding]:
        """Point every location (and every staged path quoted in a message) at the run folders; a file the
        builder rewrites (injected keys, tps_utilization) takes its line from the run folder's own file."""
        for f in findings:
            loc = f.location
            if loc is not None and loc.file.startswith(STAGED):
                line, col = loc.line, loc.column
                origin = self.files.get(loc.file)
                if origin is not None and origin[2] and origin[1] is not None:
                    line, col = origin[1].position(loc.path)
                f.location = Location(self.where(loc.file), line, col, loc.path)
            if STAGED in f.message:
                f.message = self._text(f.message)
            f.observed, f.expected = self._value(f.observed), self._value(f.expected)
            if f.edits:
                f.edits = self._edits(f.edits)
        return findings

    def _edits(self, edits) -> tuple:
        """A fix found in the staged tree, moved to the run folder's own file: the same spans where the builder
        copied the file verbatim, else the same request resolved again in the run folder's text."""
        import msgspec

        from checker.fix.locate import digest_of, resolve

        root = os.path.join(self.tmp or "", "bundle")
        out = []
        for e in edits:
            if not self.tmp or not e.abspath.startswith(root + os.sep):
                out.append(e)
                continue
            origin = self.files.get(os.path.join(STAGED, os.path.relpath(e.abspath, root).replace(os.sep, "/")))
            lf = origin[1] if origin is not None else None
            if lf is None:
                return ()
            if not origin[2] and digest_of(lf) == e.digest:
                out.append(msgspec.structs.replace(e, file=lf.rel, abspath=lf.abspath))
                continue
            again = resolve(lf, msgspec.structs.replace(e.intent, file=lf)) if e.intent is not None else None
            if again is None:
                return ()
            out.append(again)
        return tuple(out)

    def _text(self, text: str) -> str:
        return _STAGED_PATH.sub(lambda m: self.where(m.group(0)), text)

    def _value(self, v):
        """Evidence with staged paths moved to the run folders (strings, and lists of them)."""
        if isinstance(v, str) and STAGED in v:
            return self._text(v)
        if isinstance(v, list) and any(isinstance(x, str) and STAGED in x for x in v):
            return [self._text(x) if isinstance(x, str) else x for x in v]
        return v

    def publish(self, sub) -> None:
        """After the rules ran: name the view's directories as the bundle will (results/<system>/...), for
        the reports that show the curve; the submission is the set of runs it is assembled from."""
        sub.rel = f"{self.assembly.display} (assembled)"
        for system in sub.systems:
            system.rel = system.rel.replace(STAGED + "/", "", 1)
            for curve in system.curves:
                curve.rel = curve.rel.replace(STAGED + "/", "", 1)
                for point in curve.points:
                    point.rel = point.rel.replace(STAGED + "/", "", 1)


def build_view(pkg, paths: list[str], max_bytes: int, exclude=(), reads=None) -> Staged | None:
    """Plan and load the assembled view into ``pkg`` (submissions = [the bundle], assemblies = [plan])."""
    label, display = _name(paths, pkg.run_folders)
    staged = Staged(assemble_plan(pkg.run_folders, label, display), max_bytes, reads)
    try:
        sub = staged.load(Options(max_bytes=max_bytes, exclude=exclude, reads=staged.reads))
    except OSError as exc:  # no room or no permission for the private staging directory
        staged.cleanup()
        pkg.unusable_paths.append((display, f"the bundle view cannot be staged ({exc.strerror or exc}): the run "
                                            "folders are checked one by one"))
        return None
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
    return write_tree(staged.assembly, out, full=True, max_bytes=staged.max_bytes, reads=staged.reads)
