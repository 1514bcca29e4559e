"""Load one submission root: ``src/``, ``docs/`` and ``results/<system>/<model>/r<N>/`` with their files.

The shape bounds live here (points per curve, systems and curves per submission, unexpected entries
reported one by one); ``checker.load.discovery`` decides what a PATH holds and calls ``load_submission``.
"""
from __future__ import annotations

import os

from checker.core.findings import Subject
from checker.core.scratch import is_fix_temp
from checker.load import carried
from checker.load.models.attach import attach_model
from checker.load.layout import POINT_DIR_RE, POINT_FILES, Options, is_dir, junk_reason, scan_dir
from checker.load.package_tree import Curve, Point, Submission, System
from checker.load.placement import is_repository_entry, is_repository_top, move_hint, nested_run_files
from checker.load.reader import LoadBudget, LoadedFile, LoadError, entry_problem, read_file


#: the checker's bounds on a package's shape (docs/robustness.md): the rules allow 32 points per curve
#: (R§5.6), so twice that many are loaded and checked and the rest are named once by point-cap; at most
#: MAX_JUNK_PER_DIR unexpected entries of one directory are reported one by one
MAX_POINTS_PER_CURVE = 64
MAX_JUNK_PER_DIR = 100
#: the rules give no maximum for these, so the bounds are generous; beyond them directories are named once
#: (a file-too-large refusal of the directory holding them) and never loaded
MAX_SYSTEMS_PER_SUBMISSION = 256
MAX_CURVES_PER_SUBMISSION = 256
MAX_POINTS_PER_SUBMISSION = 2048


class UnitBudget:
    """What one submission's loading may still spend (docs/robustness.md): the values its files hold together
    (``reader.LoadBudget``) and the entries of src/, docs/ and the points' own directories still to inspect
    (``carried.Budget``). Made by ``load_submission`` and passed down its walk; a run folder's files have a
    LoadBudget of their own (``run_folder_files``)."""

    __slots__ = ("values", "entries")

    def __init__(self) -> None:
        self.values = LoadBudget()
        self.entries = carried.Budget()


def _load_point_files(point: Point, owner_files: dict, root_real: str, options: Options, budget: UnitBudget,
                      refused: list) -> None:
    entries, err = scan_dir(point.abspath, options.exclude)
    if err is not None:
        point.dir_error = err
        refused.append((point.subject, point.name + "/", err))
        for name, kind in POINT_FILES.items():
            point.files[kind] = LoadedFile(kind=kind, rel=os.path.join(point.rel, name),
                                           abspath=os.path.join(point.abspath, name), exists=True,
                                           error=LoadError("file-unreadable", "its directory cannot be listed"))
        return
    names = {e.name for e in entries}
    point_real = os.path.realpath(point.abspath)  # once for the point's files, not once per file
    for name, kind in POINT_FILES.items():
        rel = os.path.join(point.rel, name)
        abspath = os.path.join(point.abspath, name)
        if name not in names:
            point.files[kind] = LoadedFile(kind=kind, rel=rel, abspath=abspath)
            continue
        lf = read_file(kind, rel, abspath, root_real, options.max_bytes, parent_real=point_real, budget=budget.values,
                       post=attach_model, reads=options.reads)
        point.files[kind] = lf
        if lf.error is not None and lf.error.code != "parse-error":
            refused.append((point.subject, name, lf.error))
    run_dir, point.nested = nested_run_files(point.abspath, entries)
    for e in entries:
        if is_fix_temp(e.name):  # ours, left by an interrupted --fix: not the package's (the CLI says so)
            options.leftovers.append(os.path.join(point.abspath, e.name))
            continue
        why = junk_reason(e.name)
        if e.name == run_dir:
            point.junk.append((e.name + "/", _nested_reason(point, e.name)))
        elif why:
            point.junk.append((e.name, why))
        elif e.name not in POINT_FILES:  # carried by the bundle (server_configs/, notes): read or reported
            carried.carry_entry(point.subject, os.path.join(point.abspath, e.name), e.name, root_real, budget.entries,
                                options.exclude, refused)


def _nested_reason(point: Point, run_dir: str) -> str:
    moves = {k: v for k, v in point.nested.items() if k not in point.files or not point.files[k].exists}
    tail = f": {move_hint(point.name, moves)}, then delete {point.name}/{run_dir}/" if moves else ""
    return f"a run folder pasted inside the point; the point's files belong directly in {point.name}/{tail}"


def _dir_entry_ok(path: str, root_real: str, subject: Subject, name: str, refused: list) -> bool:
    problem = entry_problem(path, root_real)
    if problem is not None:
        refused.append((subject, name + "/", problem))
        return False
    return True


def load_submission(path: str, display: str, options: Options, org: str = "", name: str | None = None) -> Submission:
    """Load one submission root; ``name`` overrides the subject label (cohort mode: ``<org>/<id>``)."""
    abspath = os.path.abspath(path)
    root_real = os.path.realpath(abspath)
    name = name or os.path.basename(os.path.normpath(abspath))
    sub = Submission(
        name=name, rel=display, abspath=abspath, dir_error=None, junk=[], org=org,
        results_state="missing", docs_state="missing", src_state="missing", dir_problems={},
        src_impls=[], systems=[], files={}, refused=[],
    )
    if options.shallow:
        return sub
    budget = UnitBudget()
    entries, err = scan_dir(abspath, options.exclude)
    if err is not None:
        sub.dir_error = err
        sub.refused.append((sub.subject, "", err))
        return sub
    if is_repository_top(abspath):  # a repository whose top is the submission root: .git, CI, README, LICENSE
        entries = [e for e in entries if not is_repository_entry(e.name, is_dir(os.path.join(abspath, e.name)))]
    by_name = {e.name: e for e in entries}
    for top in ("results", "docs", "src"):
        if top not in by_name:
            continue
        p = os.path.join(abspath, top)
        problem = entry_problem(p, root_real)
        if problem is not None:
            sub.dir_problems[top] = problem
            sub.refused.append((sub.subject, top + "/", problem))
            setattr(sub, f"{top}_state", "error")
        elif not is_dir(p):
            setattr(sub, f"{top}_state", "not-dir")
        else:
            setattr(sub, f"{top}_state", "ok")
    for e in entries:
        if e.name in ("results", "docs", "src"):
            continue
        why = junk_reason(e.name)
        if why:
            sub.junk.append((e.name, why))
        elif e.name == "cli_metadata.json":
            lf = sub.files["cli_metadata"] = read_file("cli_metadata", os.path.join(display, e.name),
                                                       os.path.join(abspath, e.name), root_real, options.max_bytes,
                                                       budget=budget.values, reads=options.reads)
            if lf.error is not None and lf.error.code != "parse-error":  # a parse error: cli-metadata-valid
                sub.refused.append((sub.subject, e.name, lf.error))
        else:
            sub.junk.append((e.name, "not part of the submission layout (results/, docs/, src/)"))
    if sub.docs_state == "ok":  # the bundle carries docs/ whole: every entry is read or reported
        carried.carry_entry(sub.subject, os.path.join(abspath, "docs"), "docs", root_real, budget.entries,
                            options.exclude, sub.refused, empties=True)
    if sub.src_state == "ok":
        _load_src(sub, os.path.join(abspath, "src"), root_real, options, budget)
    if sub.results_state == "ok":
        _load_results(sub, os.path.join(abspath, "results"), os.path.join(display, "results"), root_real, options,
                      budget)
    if budget.entries.cut is not None:
        sub.junk.append((budget.entries.cut, f"more than {carried.MAX_ENTRIES:,} entries under src/, docs/ and the "
                                             "points' own directories: the rest were not inspected"))
    sub.junk = cap_entries(sub.junk)
    return sub


def _load_src(sub: Submission, src: str, root_real: str, options: Options, budget: UnitBudget) -> None:
    entries, err = scan_dir(src, options.exclude)
    if err is not None:
        sub.dir_problems["src"] = err
        sub.refused.append((sub.subject, "src/", err))
        sub.src_state = "error"
        return
    for e in entries:
        why = junk_reason(e.name)
        p = os.path.join(src, e.name)
        if why:
            sub.junk.append((f"src/{e.name}", why))
            continue
        if not is_dir(p):  # a file directly in src/ is carried too
            carried.carry_entry(sub.subject, p, f"src/{e.name}", root_real, budget.entries, options.exclude, sub.refused)
            continue
        if not _dir_entry_ok(p, root_real, sub.subject, f"src/{e.name}", sub.refused):
            sub.src_impls.append((e.name, "refused"))
            continue
        inner, ierr = scan_dir(p, options.exclude)
        if ierr is None and not os.access(p, os.R_OK | os.X_OK):  # listed, but its entries cannot be reached
            ierr = LoadError("file-unreadable", "directory cannot be searched (permission denied)")
        if ierr is not None:
            sub.refused.append((sub.subject, f"src/{e.name}/", ierr))
            sub.src_impls.append((e.name, "refused"))
            continue
        sub.src_impls.append((e.name, carried.readme_state(p, {x.name for x in inner}, root_real)))
        found: list = []  # src-readme reports README.md itself
        carried.inspect(p, f"src/{e.name}", root_real, found, budget.entries, options.exclude, skip={"README.md"})
        sub.refused.extend((sub.subject, shown, err) for shown, err in found)


def _load_results(sub: Submission, results: str, rdisplay: str, root_real: str, options: Options,
                  budget: UnitBudget) -> None:
    entries, err = scan_dir(results, options.exclude)
    if err is not None:
        sub.dir_problems["results"] = err
        sub.refused.append((sub.subject, "results/", err))
        sub.results_state = "error"
        return
    skipped: list[str] = []
    for e in entries:
        p = os.path.join(results, e.name)
        why = junk_reason(e.name)
        if why:
            sub.junk.append((f"results/{e.name}", why))
            continue
        if not is_dir(p):
            if os.path.lexists(p) and not os.path.exists(p):
                _dir_entry_ok(p, root_real, sub.subject, f"results/{e.name}", sub.refused)
            else:
                sub.junk.append((f"results/{e.name}", "a file where only system directories belong"))
            continue
        if not _dir_entry_ok(p, root_real, sub.subject, f"results/{e.name}", sub.refused):
            continue
        if len(sub.systems) >= MAX_SYSTEMS_PER_SUBMISSION:
            skipped.append(e.name)
            continue
        system = System(name=e.name, rel=os.path.join(rdisplay, e.name), abspath=p,
                                        dir_error=None, junk=[], power=None, curves=[])
        sub.adopt(system)
        sub.systems.append(system)
        _load_system(sub, system, root_real, options, budget)
    _refuse_excess(sub.refused, sub.subject, "results/", skipped, "system", MAX_SYSTEMS_PER_SUBMISSION)


def _load_system(sub: Submission, system: System, root_real: str, options: Options, budget: UnitBudget) -> None:
    entries, err = scan_dir(system.abspath, options.exclude)
    power_rel = os.path.join(system.rel, "system_power.json")
    power_abs = os.path.join(system.abspath, "system_power.json")
    if err is not None:
        system.dir_error = err
        sub.refused.append((system.subject, "", err))
        system.power = LoadedFile(kind="power", rel=power_rel, abspath=power_abs, exists=True,
                                  error=LoadError("file-unreadable", "its directory cannot be listed"))
        return
    names = {e.name for e in entries}
    system.power = (read_file("power", power_rel, power_abs, root_real, options.max_bytes, budget=budget.values,
                              post=attach_model, reads=options.reads)
                    if "system_power.json" in names else LoadedFile(kind="power", rel=power_rel, abspath=power_abs))
    if system.power.error is not None and system.power.error.code != "parse-error":
        sub.refused.append((system.subject, "system_power.json", system.power.error))
    skipped: list[str] = []
    for e in entries:
        if e.name == "system_power.json":
            continue
        p = os.path.join(system.abspath, e.name)
        why = junk_reason(e.name)
        if why:
            system.junk.append((e.name, why))
            continue
        if not is_dir(p):
            if os.path.lexists(p) and not os.path.exists(p):
                _dir_entry_ok(p, root_real, system.subject, e.name, sub.refused)
            else:
                system.junk.append((e.name, "a file where only model directories and system_power.json belong"))
            continue
        if not _dir_entry_ok(p, root_real, system.subject, e.name, sub.refused):
            continue
        if sum(len(s.curves) for s in sub.systems) >= MAX_CURVES_PER_SUBMISSION:
            skipped.append(e.name)
            continue
        curve = Curve(name=e.name, rel=os.path.join(system.rel, e.name), abspath=p,
                                      dir_error=None, junk=[], points=[], duplicate_points=[], excess_points=[])
        system.adopt(curve)
        system.curves.append(curve)
        _load_curve(sub, curve, root_real, options, budget)
    system.junk = cap_entries(system.junk)
    _refuse_excess(sub.refused, system.subject, "", skipped, "model", MAX_CURVES_PER_SUBMISSION)


def _load_curve(sub: Submission, curve: Curve, root_real: str, options: Options, budget: UnitBudget) -> None:
    entries, err = scan_dir(curve.abspath, options.exclude)
    if err is not None:
        curve.dir_error = err
        sub.refused.append((curve.subject, "", err))
        return
    by_n: dict[int, list[str]] = {}
    candidates = []
    for e in entries:
        p = os.path.join(curve.abspath, e.name)
        why = junk_reason(e.name)
        if why:
            curve.junk.append((e.name, why))
            continue
        m = POINT_DIR_RE.match(e.name)
        if not m:
            what = "directory" if is_dir(p) else "file"
            curve.junk.append((e.name, f"a {what} whose name is not r<N> (N = the point's concurrency)"))
            continue
        n = int(m.group(1)) if len(m.group(1)) <= 18 else None
        candidates.append((n if n is not None else 1 << 62, e.name, n, p))
    # the lowest MAX_POINTS_PER_CURVE concurrencies are loaded (fewer once the submission has loaded
    # MAX_POINTS_PER_SUBMISSION); the rest are named once (point-cap)
    candidates.sort()
    room = max(0, min(MAX_POINTS_PER_CURVE, MAX_POINTS_PER_SUBMISSION - sum(len(c.points) for c in sub.curves())))
    curve.excess_points = [name for _k, name, _n, _p in candidates[room:]]
    for _key, name, n, p in candidates[:room]:
        if not _dir_entry_ok(p, root_real, curve.subject, name, sub.refused):
            continue
        if not is_dir(p):
            curve.junk.append((name, "a file named like a point directory"))
            continue
        point = Point(name=name, rel=os.path.join(curve.rel, name), abspath=p,
                                      dir_error=None, junk=[], dir_concurrency=n, files={})
        curve.adopt(point)
        curve.points.append(point)
        if n is not None:
            by_n.setdefault(n, []).append(name)
        _load_point_files(point, point.files, root_real, options, budget, sub.refused)
        point.junk = cap_entries(point.junk)
    curve.points.sort(key=lambda p: (p.dir_concurrency if p.dir_concurrency is not None else 1 << 62, p.name))
    curve.duplicate_points = [(n, names) for n, names in sorted(by_n.items()) if len(names) > 1]
    curve.junk = cap_entries(curve.junk)


def _refuse_excess(refused: list, subject: Subject, entry: str, names: list, what: str, limit: int) -> None:
    """Directories beyond a bound: one refusal naming them (a few by name), never one per directory."""
    if not names:
        return
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    refused.append((subject, entry, LoadError(
        "file-too-large", f"{len(names)} {what} director{'y' if len(names) == 1 else 'ies'} beyond the checker's "
                          f"limit of {limit} per submission were not checked: {shown}")))


def cap_entries(entries: list, limit: int = MAX_JUNK_PER_DIR) -> list:
    """At most ``limit`` unexpected entries of one directory one by one, then one line for the rest."""
    if len(entries) <= limit:
        return entries
    rest = len(entries) - limit
    return entries[:limit] + [(f"(and {rest} more entries)", f"{rest} further unexpected entries in this directory, "
                                                             "not listed one by one")]
