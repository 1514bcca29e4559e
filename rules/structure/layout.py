"""Package layout and per-file parsing rules (R§8.1 layout; OFFICIAL-CHECKER.md §3 A and B)."""
from __future__ import annotations

import os

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from rules.shared.assembled import assembled

_KIND_NAMES = {
    "point_yaml": "point.yaml",
    "result_summary": "result_summary.json",
    "config": "config.yaml",
}


@rule(id="path-exists", title="Checked path exists", clause="R§8.1", severity="reject",
      scope="package", official=True)
def path_exists(pkg, ctx):
    """Every PATH given on the command line exists and holds something checkable.

    What it checks: each PATH exists, is a directory, and holds a submission root (results/, docs/),
    an organisation directory of submissions, or a run folder.
    Why: a typo in a CI job must not look like a clean pass; the exit code is 2 as well.
    How to fix: Pass the submission root, the organisation directory, or a run folder.
    """
    outs = [Fail(f"path does not exist: {p}", file=p, entry=p, observed="missing", expected="a directory")
            for p in pkg.missing_paths]
    outs += [Fail(f"nothing to check at {p}: {why}", file=p, entry=p, observed=why,
                  expected="a submission root, organisation directory or run folder")
             for p, why in pkg.unusable_paths]
    if outs:
        return outs
    n_sub, n_run = len(pkg.submissions), len(pkg.run_folders)
    plan = getattr(pkg, "plan", None)
    if plan is not None:  # client configs to pre-flight
        return Pass(f"found {len(plan.configs)} client config(s) to pre-flight")
    return Pass(f"found {n_sub} submission(s) and {n_run} run folder(s)")


@rule(id="required-dir", title="Required directories", clause="R§8.1", severity="reject",
      scope="submission", official=True)
def required_dir(sub, ctx):
    """The submission root holds `results/` and `docs/` directories.

    What it checks: `results/` and `docs/` exist at the submission root and are directories (not
    files, not symlinks leaving the package).
    Why: R§8.1 fixes the bundle layout; MLCommons' pipeline reads results/ and publishes docs/.
    How to fix: Create the missing directory at the submission root (the level that holds src/).
    """
    bad = []
    for d in ("results", "docs"):
        state = getattr(sub, f"{d}_state")
        if state == "missing":
            bad.append(f"{d}/ is missing")
        elif state == "not-dir":
            bad.append(f"{d} is a file, not a directory")
        elif state == "error":
            bad.append(f"{d}/ cannot be used ({sub.dir_problems[d].message})")
    if bad and assembled(ctx):  # run folders: the bundle's directories are made from them
        if bad == ["results/ is missing"]:
            return Fail("no run folder is filed into the bundle as a point (bundle-run-files names why each is "
                        "refused), so its results/ is empty", file=sub.rel, observed="no point filed",
                        expected="each run folder filed as a point of results/",
                        fix="Make each run folder one `runs create` files as a point: point.yaml, system_desc.json, "
                            "config.yaml and performance/result_summary.json.")
    if bad:
        legacy = [x for x in ("pareto", "systems", "documentation") if os.path.isdir(os.path.join(sub.abspath, x))]
        hint = f" This looks like the v0.7 layout ({', '.join(legacy)}/); v1.0 uses results/ and docs/." if legacy else ""
        return Fail("; ".join(bad) + "." + hint, file=sub.rel, observed=bad, expected=["results/", "docs/"])
    return Pass("results/ and docs/ are present")


@rule(id="src-dir", title="Implementation sources (src/)", clause="R§2.2.1", severity="reject",
      scope="submission", official=True, needs=("has:src",))
def src_dir(sub, ctx):
    """`src/` exists and holds at least one implementation directory.

    What it checks: `src/<implementation>/` (e.g. src/trtllm) exists at the submission root.
    Why: Standardized submissions must publish the code that reproduces each point (R§2.2.1).
    How to fix: Add src/<implementation>/ with the SUT launch code and a README.md.
    """
    if sub.src_state == "missing":
        return Fail("src/ is missing", file=sub.rel, observed="missing", expected="src/<implementation>/")
    if sub.src_state == "not-dir":
        return Fail("src is a file, not a directory", file=f"{sub.rel}/src")
    if not sub.src_impls and assembled(ctx):
        return Fail("no run folder carries src/<implementation>/, so the bundle's src/ holds none", file=f"{sub.rel}/src",
                    observed=0, expected=">= 1",
                    fix="Add src/<implementation>/ (the SUT launch code and a README.md) to one of the run folders.")
    if not sub.src_impls:
        return Fail("src/ holds no implementation directory", file=f"{sub.rel}/src", observed=0, expected=">= 1")
    return Pass(f"src/ holds {len(sub.src_impls)} implementation(s): {', '.join(n for n, _ in sub.src_impls)}")


@rule(id="src-readme", title="Implementation README", clause="R§2.2.1", severity="reject",
      scope="submission", official=True)
def src_readme(sub, ctx):
    """Every `src/<implementation>/` has a `README.md` (exact name).

    What it checks: each implementation directory holds README.md, spelled exactly so (the
    official checker accepts any case; RULES.md §12 says case-sensitive), as a readable regular
    file inside the package (not a FIFO, socket, device or directory, not a dangling, looping or
    escaping symlink: the official checker reports those as missing; an unreadable one or a link out
    of the package is never read). An empty README.md is a warning.
    Why: the README tells reviewers how to build and launch the SUT and reproduce a point.
    How to fix: Add src/<implementation>/README.md (rename readme.md / Readme.md).
    """
    if sub.src_state != "ok" or not sub.src_impls:
        return Skip("no implementation directory under src/ (see src-dir)", reason="missing-input")
    bad, empty = [], []
    for name, state in sub.src_impls:
        if state == "missing":
            bad.append(f"src/{name}/README.md is missing")
        elif state.startswith("wrong-case:"):
            bad.append(f"src/{name}/{state.split(':', 1)[1]} must be named README.md")
        elif state == "refused":
            bad.append(f"src/{name}/ cannot be read")
        elif state.startswith("bad:"):  # a FIFO, a dangling link, a link out of the package, unreadable...
            bad.append(f"src/{name}/README.md cannot be used: {state[4:]}")
        elif state == "empty":
            empty.append(f"src/{name}/README.md is empty")
    if bad:
        return Fail("; ".join(bad), file=f"{sub.rel}/src", observed=bad, expected="README.md in every implementation")
    if empty:  # present, as the official checker requires; but it documents nothing
        return Fail("; ".join(empty) + ": it should say how to build and launch the SUT and reproduce a point",
                    file=f"{sub.rel}/src", observed=empty, expected="a README.md with content",
                    severity=Severity.WARN)
    return Pass("every implementation has README.md")


@rule(id="system-results-dir", title="System results directory", clause="R§8.1", severity="reject", scope="submission", official=True)
def system_results_dir(sub, ctx):
    """`results/` holds at least one `<system>/` directory.

    What it checks: at least one system directory (junk such as __MACOSX/ or hidden directories is
    not counted and is reported by unexpected-entry).
    Why: a submission without a system has no result.
    How to fix: Put each system's curves under results/<system>/<model>/r<N>/.
    """
    if sub.results_state != "ok":
        return Skip("results/ is not usable (see required-dir)", reason="missing-input")
    if not sub.systems:
        return Fail("results/ holds no system directory", file=f"{sub.rel}/results", observed=0, expected=">= 1")
    return Pass(f"{len(sub.systems)} system(s): {', '.join(s.name for s in sub.systems)}")


@rule(id="benchmark-model-dir", title="Benchmark-model directory", clause="R§8.1", severity="reject", scope="system", official=True, needs=("has:dir",))
def benchmark_model_dir(system, ctx):
    """Each `results/<system>/` holds at least one `<model_name>/` directory.

    What it checks: at least one model directory per system.
    Why: one published curve = one system x one benchmark model.
    How to fix: Put the points under results/<system>/<model_name>/r<N>/.
    """
    if not system.curves:
        return Fail(f"{system.rel}/ holds no model directory", file=system.rel, observed=0, expected=">= 1")
    return Pass(f"{len(system.curves)} model(s): {', '.join(c.name for c in system.curves)}")


@rule(id="point-dirs", title="Pareto point directories", clause="R§8.1", severity="reject",
      scope="curve", official=True, needs=("has:dir",))
def point_dirs(curve, ctx):
    """Each model directory holds at least one `r<N>/` point directory.

    What it checks: at least one directory named r<N> (N = the point's concurrency).
    Why: a curve is made of its points.
    How to fix: Name each point directory r<N>, e.g. r1, r64, r13368.
    """
    if not curve.points:
        return Fail(f"{curve.rel}/ holds no r<N>/ directory", file=curve.rel, observed=0, expected=">= 1")
    return Pass(f"{len(curve.points)} point directories")


@rule(id="duplicate-point", title="One directory per concurrency", clause="R§8.1", severity="reject", scope="curve")
def duplicate_point(curve, ctx):
    """Two point directories name the same concurrency (`r8` and `r08`).

    What it checks: the N of every r<N> directory is unique within a curve.
    Why: both would be filed into the same r<N> by the bundle builder; one result silently hides
    the other (the official checker lets the second overwrite the first).
    How to fix: Keep one directory per concurrency, named without leading zeros.
    """
    if not curve.duplicate_points:
        return Pass("every concurrency has one directory")
    desc = "; ".join(f"concurrency {n}: {', '.join(names)}" for n, names in curve.duplicate_points)
    return Fail(f"several directories for one concurrency: {desc}", file=curve.rel,
                observed=[names for _, names in curve.duplicate_points], expected="one r<N> per concurrency")


def _present(point, kind: str):
    lf = point.files[kind]
    if not lf.exists:
        down = point.nested.get(kind)  # a run folder pasted into the point holds it one level down
        if down:
            return Fail(f"{_KIND_NAMES[kind]} is missing: it is one level down, at {point.name}/{down}",
                        file=point.rel, observed=f"{point.name}/{down}", expected=f"{point.name}/{_KIND_NAMES[kind]}",
                        fix=f"Move {point.name}/{down} to {point.name}/{_KIND_NAMES[kind]}.")
        return Fail(f"{_KIND_NAMES[kind]} is missing", file=point.rel, observed="missing",
                    expected=f"{point.name}/{_KIND_NAMES[kind]}")
    return Pass(f"{_KIND_NAMES[kind]} present")


@rule(id="measurement-points-present", title="Point configuration present", clause="R§8.3", severity="reject", scope="point", official=True, needs=("has:dir", "maybe:point_yaml"))
def measurement_points_present(point, ctx):
    """Every `r<N>/` has its `point.yaml`.

    What it checks: the disclosure file exists at each point.
    Why: point.yaml carries the point's concurrency, region, seeds and disclosures (R§8.3).
    How to fix: Copy the run folder's point.yaml into r<N>/.
    """
    return _present(point, "point_yaml")


@rule(id="result-summary-present", title="Result summary present", clause="R§8.1", severity="reject", scope="point", official=True, needs=("has:dir", "maybe:result_summary"))
def result_summary_present(point, ctx):
    """Every `r<N>/` has `result_summary.json`.

    What it checks: the performance summary exists at each point (moved up from performance/ by
    the bundle builder).
    Why: without it the point has no result.
    How to fix: Copy the run folder's performance/result_summary.json to r<N>/result_summary.json.
    """
    return _present(point, "result_summary")


@rule(id="config-file-present", title="Benchmark configuration", clause="R§8.1", severity="flag", scope="point", official=True, needs=("has:dir", "maybe-read:config"))
def config_file_present(point, ctx):
    """`config.yaml`, when present, is a YAML mapping (it is optional as of v1.0).

    What it checks: r<N>/config.yaml parses as a YAML mapping. Absent: SKIP (RULES.md §1.2 makes it
    optional; the official checker still requires it). Cross-check rules read it when present.
    Why: a broken config.yaml hides the evidence the cross-checks compare with point.yaml.
    How to fix: Copy the client's config.yaml from the run folder unchanged.
    """
    lf = point.files["config"]
    if not lf.exists:
        return Skip("config.yaml is optional as of v1.0 and absent; cross-checks against it skip",
                    reason="not-applicable")
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        return Fail(f"config.yaml does not parse: {lf.error.message}", file=lf, observed=lf.error.message,
                    expected="a YAML mapping")
    if not isinstance(lf.data, dict):
        return Fail(f"config.yaml must be a mapping, not {type(lf.data).__name__}", file=lf,
                    observed=type(lf.data).__name__, expected="mapping")
    return Pass("config.yaml parses")


@rule(id="point-dirname-concurrency", title="Point directory name", clause="R§8.1", severity="warn", scope="point", needs=("point_yaml",), official=True)
def point_dirname_concurrency(point, ctx):
    """The directory `r<N>` agrees with point.yaml's `concurrency` and is written without leading zeros.

    What it checks: N in r<N> equals `concurrency` (a dedicated Offline run's N is the dataset size).
    Why: reviewers and the bundle builder file a point by its directory name.
    How to fix: Rename the directory to r<concurrency>.
    """
    c = point.yaml.concurrency
    if c is None:
        return Skip("point.yaml declares no valid concurrency (see point-config-valid)", reason="missing-input")
    lf = point.files["point_yaml"]
    if point.dir_concurrency != c:
        return Fail(f"directory {point.name} but point.yaml says concurrency {c}", file=lf, path=("concurrency",),
                    observed=point.name, expected=f"r{c}", fix=f"Rename {point.name}/ to r{c}/.")
    if point.name != f"r{c}":
        return Fail(f"directory {point.name} should be named r{c} (no leading zeros)", file=lf, path=("concurrency",),
                    observed=point.name, expected=f"r{c}", fix=f"Rename {point.name}/ to r{c}/.")
    return Pass(f"{point.name} matches concurrency {c}")


def _resolve_shared(sub, value):
    """Return (ok, message) for a shared_src/shared_docs value."""
    if not isinstance(value, str) or not value.strip():
        return False, "is empty"
    if "\0" in value:
        return False, f"{value!r} holds a NUL character: no path can"
    if os.path.isabs(value) or value.startswith("~"):
        return False, f"{value!r} is absolute; it must be relative to the submission root"
    norm = os.path.normpath(value)
    if norm == ".." or norm.startswith(".." + os.sep):
        return False, f"{value!r} leaves the submission root"
    target = os.path.join(sub.abspath, norm)
    try:
        real = os.path.realpath(target, strict=True)
    except OSError:
        return False, f"{value!r} does not exist"
    root = sub.root_real
    if not (real == root or real.startswith(root + os.sep)):
        return False, f"{value!r} resolves outside the submission root (through a symlink, to {real})"
    if not os.path.isdir(real):
        return False, f"{value!r} is not a directory"
    return True, f"{value!r} resolves to a directory"


@rule(id="shared-path-resolution", title="Shared src/ and docs/ paths", clause="R§9.1", severity="reject", scope="point", needs=("point_yaml",), official=True,
      consequence_of=("src-dir", "required-dir", "unknown-key"))
def shared_path_resolution(point, ctx):
    """point.yaml's `shared_src` and `shared_docs` resolve to directories inside the submission root.

    What it checks: both values are relative paths, free of `..` escapes, and resolve (following
    every symlink) to an existing directory under the submission root; shared_src must lie under src/.
    Why: R§9.1 rejects a submission whose shared paths do not resolve; the official checker follows
    symlinks out of the package without noticing.
    How to fix: Set shared_src to e.g. `src/trtllm` and shared_docs to `docs`, and replace symlinks
    with real directories.
    """
    y = point.yaml
    sub = point.curve.system.submission
    lf = point.files["point_yaml"]
    problems, seen = [], []
    for key in ("shared_src", "shared_docs"):
        value = getattr(y, key)
        if value is None:
            problems.append((key, "is missing"))
            continue
        ok, msg = _resolve_shared(sub, value)
        if ok and key == "shared_src" and not os.path.normpath(value).split(os.sep)[0] == "src":
            ok, msg = False, f"{value!r} is not under src/"
        if not ok:
            problems.append((key, msg))
        seen.append(f"{key}={value}")
    if problems:
        key = problems[0][0]
        return Fail("; ".join(f"{k} {m}" for k, m in problems), file=lf, path=(key,),
                    observed={k: getattr(y, k) for k, _ in problems},
                    expected="relative directory under the submission root")
    return Pass(", ".join(seen) + " resolve inside the submission")


@rule(id="unexpected-entry", title="No junk in the layout", clause="R§8.1", severity="warn",
      scope="package")
def unexpected_entry(pkg, ctx):
    """An entry that is not part of the layout (`__MACOSX/`, `.ipynb_checkpoints/`, hidden files, `r8_old/`).

    What it checks: every directory level of the layout; each unexpected entry is one finding and is
    never treated as a system, model or point.
    Why: archive debris and backups get uploaded with the bundle; the official checker treats them
    as systems or models and reports misleading errors, or ignores `r8_old/` silently.
    How to fix: Delete the entry, or move it out of the package.
    """
    outs = []
    for path, why in pkg.junk:
        outs.append(Fail(f"{path}: {why}", file=path, entry=path, observed=path, expected="no such entry"))
    for sub in pkg.submissions:
        for name, why in sub.junk:
            outs.append(Fail(f"{name}: {why}", file=f"{sub.rel}/{name}", subject=sub.subject, entry=name,
                             observed=name, expected="results/, docs/, src/"))
        for s in sub.systems:
            for name, why in s.junk:
                outs.append(Fail(f"{name}: {why}", file=f"{s.rel}/{name}", subject=s.subject, entry=name,
                                 observed=name, expected="<model>/ and system_power.json"))
            for c in s.curves:
                for name, why in c.junk:
                    outs.append(Fail(f"{name}: {why}", file=f"{c.rel}/{name}", subject=c.subject, entry=name,
                                     observed=name, expected="r<N>/ directories"))
                for p in c.points:
                    for name, why in p.junk:
                        pasted = name.endswith("/") and bool(p.nested)  # a run folder pasted into the point
                        outs.append(Fail(f"{name}: {why}", file=f"{p.rel}/{name}", subject=p.subject, entry=name,
                                         observed=name, expected="the point's files",
                                         fix=f"Move the files up into {p.name}/ as named, then delete "
                                             f"{p.name}/{name}." if pasted else None))
    return outs or Pass("no unexpected entries")
