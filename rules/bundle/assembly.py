"""Bundle rules, part 2: what the builder merges across runs (RULES.md §1.4): accuracy runs into their
points, the values a system's and a curve's runs must share, system_power.json per system,
shared_src/shared_docs, src/ and documentation/.
"""
from __future__ import annotations

import datetime as _dt
import re

from checker.core.findings import Severity, Subject
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import is_int

_REPORT_DIR = re.compile(r"reports_(\d{8}_\d{6})$")
#: point.yaml fields an accuracy run must share with its performance run (same model, stack, seeds: R§4.3)
_SAME_POINT = ("model_name", "division", "dataset", "model_precision", "seed_set", "target_cohort",
               "max_supported_concurrency")
#: system_desc.json fields that legitimately differ between the two runs of one point
_PER_RUN_SYSDESC = ("tps_utilization",)


def _epoch(value):
    """A wall-clock epoch in seconds, ms, us or ns, read as `runs create` reads test_started_at (a year in
    2020-2100), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        return None
    for scale in (1, 1e3, 1e6, 1e9):
        try:
            when = _dt.datetime.fromtimestamp(value / scale, tz=_dt.timezone.utc)
        except (OverflowError, OSError, ValueError):
            continue
        if 2020 <= when.year <= 2100:
            return when.timestamp()
    return None


def _start_s(run):
    """(wall-clock start in seconds, where it comes from), or (None, None) when the files carry none."""
    t = _epoch(run.data("result_summary").get("test_started_at"))
    if t is not None:
        return t, "result_summary.json test_started_at"
    rd = run.data("config").get("report_dir")
    m = _REPORT_DIR.search(rd.rstrip("/")) if isinstance(rd, str) else None
    if m:
        try:
            when = _dt.datetime.strptime(m.group(1), "%Y%m%d_%H%M%S").replace(tzinfo=_dt.timezone.utc)
        except ValueError:
            return None, None
        return when.timestamp(), "config.yaml report_dir (the client's default reports_<date>_<time>)"
    return None, None


def _duration_s(run):
    d = run.data("result_summary").get("duration_ns")
    return d / 1e9 if is_int(d) and d > 0 else 0.0


def _differences(acc, perf) -> list[str]:
    out = []
    pa, pp = acc.data("point_yaml"), perf.data("point_yaml")
    for k in _SAME_POINT:
        if pa.get(k) != pp.get(k):
            out.append(f"point.yaml {k} {pa.get(k)!r} vs {pp.get(k)!r}")
    sa, sp = acc.data("system_desc"), perf.data("system_desc")
    if sa and sp:
        diff = [k for k in sorted((set(sa) | set(sp)) - set(_PER_RUN_SYSDESC)) if sa.get(k) != sp.get(k)]
        if diff:
            out.append(f"system_desc.json {', '.join(diff[:5])}" + (" ..." if len(diff) > 5 else ""))
    return out


@rule(id="bundle-accuracy-pairing", title="Accuracy run follows its performance run", clause="R§4.3",
      severity="flag", scope="bundle")
def bundle_accuracy_pairing(a, ctx):
    """Each accuracy run has its performance run at the same concurrency, on the same stack, before it.

    What it checks: for every run filed as accuracy: a performance run is filed into the same r<N>
    (else the builder makes the accuracy run the point itself, with its empty result_summary.json);
    its point.yaml agrees with the performance run's on model, division, dataset, precision, seed
    set, target cohort and C_max, and its system_desc.json on everything but tps_utilization (the
    bundle keeps only the performance run's copies); where both runs carry a wall-clock start
    (result_summary.json `test_started_at`, or the client's default report_dir
    `reports_<date>_<time>`), the accuracy run starts after the performance run's tracked duration
    has elapsed. A --mode both run is ordered by construction. Without timestamps the order is
    reported as not verifiable.
    Why: R§4.3: each accuracy run runs at the matching concurrency, on the same instance,
    immediately after its performance run (`--mode both` is the easy way).
    How to fix: Run the accuracy phase right after its performance run (or use --mode both), with
    the same point.yaml and system description.
    """
    outs = []
    for pp in a.points.values():
        if not pp.acc and pp.primary.has_accuracy:
            r = pp.primary
            outs.append(Pass(f"--mode both run: its accuracy phase follows its performance phase in {r.rel}",
                             subject=r.subject))
        for run in pp.acc:
            if not pp.perf:
                outs.append(Fail(f"{run.rel}: no performance run is filed into {pp.rel}/, so the builder makes this "
                                 "accuracy run the point, with its empty result_summary.json",
                                 file=run.file("point_yaml"), path=("concurrency",), subject=run.subject,
                                 observed="no performance run", expected=f"a performance run at concurrency {pp.n}",
                                 severity=Severity.REJECT,
                                 fix="Add the point's performance run to the set, or fix the accuracy run's "
                                     "point.yaml concurrency."))
                continue
            perf = pp.perf[0]
            diff = _differences(run, perf)
            if diff:
                outs.append(Fail(f"{run.rel} and its performance run {perf.rel} differ: {'; '.join(diff)} (the bundle "
                                 "keeps the performance run's files)", file=run.file("point_yaml"),
                                 subject=run.subject, observed=diff, expected="the same model, stack and seed set"))
                continue
            (ta, wa), (tp, wp) = _start_s(run), _start_s(perf)
            if ta is None or tp is None or wa != wp:
                outs.append(Pass(f"accuracy run for {perf.rel} at concurrency {pp.n}; the order of the two runs is "
                                 "not verifiable from the files (no wall-clock start in both)", subject=run.subject))
                continue
            end = tp + _duration_s(perf)
            by_dir = "report_dir" in wa
            if ta < end:
                outs.append(Fail(f"{run.rel} started {_fmt(ta)}, before its performance run {perf.rel} (started "
                                 f"{_fmt(tp)}, {_duration_s(perf):.0f} s tracked) had finished ({wa})",
                                 file=run.file("config") if by_dir else run.file("result_summary"),
                                 path=("report_dir",) if by_dir else ("test_started_at",),
                                 subject=run.subject, observed=_fmt(ta), expected=f">= {_fmt(end)}"))
            else:
                outs.append(Pass(f"starts {_fmt(ta)}, after its performance run {perf.rel} ({_fmt(tp)} + "
                                 f"{_duration_s(perf):.0f} s) ({wa})", subject=run.subject))
    return outs or Pass("no point carries accuracy results")


def _fmt(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


@rule(id="bundle-curve-values", title="Values a system's and a curve's runs share", clause="R§8.2, R§5.4",
      severity="reject", scope="bundle", needs=("maybe:system_desc",))
def bundle_curve_values(a, ctx):
    """A system's runs agree on max_supported_concurrency; a curve's points on c_min_override, naming a point.

    What it checks: every run of a system (runs are grouped by system_desc.json `system_name`, which
    must be set) declares `max_supported_concurrency`, all the same value; across a curve, the
    system_desc.json of each point's defining run omits `c_min_override` or declares the same value,
    and that value is the concurrency of a submitted point (not the dedicated Offline run). Each
    of these stops the builder.
    Why: RULES.md §1.4: the builder checks these before it writes anything; one C_max per system
    and one C_min per curve are what the region arithmetic (R§5.4-5.5) runs on.
    How to fix: Make the runs' system_desc.json agree (one max_supported_concurrency per system, one
    c_min_override or none per curve).
    """
    outs = []
    for name, sp in a.systems.items():
        subject = Subject(a.name, name)
        unnamed = [r for r in sp.runs if not isinstance(r.data("system_desc").get("system_name"), str)
                   or not r.data("system_desc").get("system_name").strip()]
        values = {r.rel: r.data("system_desc").get("max_supported_concurrency") for r in sp.runs}
        lacking = [rel for rel, v in values.items() if v is None]
        distinct = sorted({repr(v) for v in values.values() if v is not None})
        if unnamed:
            outs.append(Fail(f"{', '.join(r.rel for r in unnamed)}: system_desc.json has no system_name, which names "
                             "results/<system>/ (the builder's schema check fails)", file=unnamed[0].file("system_desc"),
                             path=("system_name",), subject=subject, observed=None, expected="a system name"))
        elif lacking:
            outs.append(Fail(f"system {name}: {', '.join(lacking)} declare(s) no max_supported_concurrency: the build "
                             "fails", file=sp.runs[[r.rel for r in sp.runs].index(lacking[0])].file("system_desc"),
                             subject=subject, observed=lacking, expected="max_supported_concurrency in every run"))
        elif len(distinct) > 1:
            groups: dict = {}
            for rel, v in values.items():
                groups.setdefault(repr(v), []).append(rel)
            order = sorted(groups, key=lambda k: (-len(groups[k]), k))  # the most common value first
            shown = "; ".join(f"{k} in {', '.join(groups[k]) if len(groups[k]) <= 3 else f'{len(groups[k])} runs'}"
                              for k in order)
            first = next(r for r in sp.runs if repr(values[r.rel]) != order[0])
            outs.append(Fail(f"system {name}: runs declare different max_supported_concurrency ({shown}): the build "
                             "fails", file=first.file("system_desc"), path=("max_supported_concurrency",),
                             subject=subject, observed=distinct, expected="one value"))
        else:
            outs.append(Pass(f"system {name}: {len(sp.runs)} run(s), max_supported_concurrency {distinct[0]}",
                             subject=subject))
    for (system, model), pps in a.curves().items():
        outs.append(_c_min_override(a, system, model, pps))
    return outs or Pass("no system")


def _c_min_override(a, system, model, pps):
    subject = Subject(a.name, system, model)
    prim = [pp.primary for pp in pps]
    decl = {r.rel: r.data("system_desc").get("c_min_override") for r in prim}
    distinct = {repr(v) for v in decl.values()}
    if len(distinct) > 1:
        shown = "; ".join(f"{rel}: {v!r}" for rel, v in decl.items())
        first = next(r for r in prim if decl[r.rel] is not None)
        return Fail(f"curve {system}/{model}: points declare different c_min_override ({shown}): the build fails",
                    file=first.file("system_desc"), path=("c_min_override",), subject=subject,
                    observed=sorted(distinct), expected="the same value at every point, or none")
    value = next(iter(decl.values())) if decl else None
    if value is None:
        return Pass(f"curve {system}/{model}: no c_min_override (C_min is derived)", subject=subject)
    points = {pp.n for pp in pps if pp.primary.data("point_yaml").get("offline") != "dedicated"}
    if value not in points:
        return Fail(f"curve {system}/{model}: c_min_override {value!r} is not a submitted concurrency "
                    f"({', '.join(map(str, sorted(points)))}): the build fails", file=prim[0].file("system_desc"),
                    path=("c_min_override",), subject=subject, observed=value, expected=sorted(points))
    return Pass(f"curve {system}/{model}: c_min_override {value} at every point, a submitted concurrency",
                subject=subject)


@rule(id="bundle-power-copies", title="One system_power.json per system", clause="R§4.5.2", severity="reject",
      scope="bundle", needs=("maybe:power",))
def bundle_power_copies(a, ctx):
    """The system_power.json copies of one system's run folders hold the same values; one is lifted to results/<system>/.

    What it checks: per system (runs grouped by system_desc.json `system_name`), every run folder
    carrying system_power.json carries the same values (compared parsed, as the builder compares
    them: formatting may differ); the finding names the copies that differ. A system whose runs
    carry none is left to power-descriptor.
    Why: RULES.md §1.4: system_power.json is lifted from whichever run folders of the system carry
    it; differing copies fail the build.
    How to fix: Keep one system_power.json and copy it into the other run folders (or remove the
    other copies).
    """
    outs = []
    for name, sp in a.systems.items():
        subject = Subject(a.name, name)
        if not sp.power:
            outs.append(Skip(f"no run folder of system {name} carries system_power.json (power-descriptor reports "
                             "it)", reason="missing-input", subject=subject))
            continue
        first = sp.power[0].file("power")
        differ = [r for r in sp.power[1:] if r.file("power").data != first.data]
        if differ:
            outs.append(Fail(f"system {name}: system_power.json of {', '.join(r.rel for r in differ)} holds other "
                             f"values than {sp.power[0].rel}'s: the build fails", file=differ[0].file("power"),
                             subject=subject, observed=[r.rel for r in differ], expected=f"the values of {first.rel}"))
        else:
            n = len(sp.power)
            outs.append(Pass(f"system {name}: system_power.json lifted from {sp.power[0].rel}"
                             + (f" ({n} copies with the same values)" if n > 1 else ""), subject=subject))
    return outs or Pass("no system")


@rule(id="bundle-shared-paths", title="shared_src/shared_docs resolve after assembly", clause="R§9.1",
      severity="reject", scope="bundle", consequence_of=("src-dir", "required-dir"))
def bundle_shared_paths(a, ctx):
    """Each bundled point.yaml's shared_src/shared_docs resolve in the assembled tree, or can be injected.

    What it checks: a declared value must name a directory of the tree the builder writes (src/ =
    the union of the runs' src/, docs/ = their merged documentation/), relative to its root,
    without `..`. An absent (or empty) value is injected: shared_docs `docs`, shared_src
    `src/<impl>` when src/ holds exactly one implementation; with several, the point.yaml must
    name its own.
    Why: RULES.md §1.4: the builder injects absent values (their referent only exists after
    assembly), never overwrites a declared one, and fails the build on one that does not resolve.
    How to fix: Declare `shared_src: src/<implementation>` matching a src/ directory the run folders
    carry, or remove a wrong value and let it be injected.
    """
    outs = []
    for key, pp in a.points.items():
        run = pp.primary
        parts = [a.shared.get((key, f)) for f in ("shared_src", "shared_docs")]
        bad = [s for s in parts if s is not None and not s.ok]
        if bad:
            s = bad[0]
            outs.append(Fail(f"{pp.rel}/point.yaml (from {run.rel}): " + "; ".join(x.note for x in bad)
                             + ": the build fails", file=run.file("point_yaml"),
                             path=(s.key,) if s.declared not in (None, "") else (), subject=run.subject,
                             observed={x.key: x.declared for x in bad},
                             expected="shared_src: src/<implementation>, shared_docs: docs (or absent: injected)"))
        else:
            outs.append(Pass(f"{pp.rel}/point.yaml: " + "; ".join(s.note for s in parts if s is not None),
                             subject=run.subject))
    return outs or Pass("no point is filed")


@rule(id="bundle-sources", title="src/ and documentation/ assemble", clause="R§2.2.1", severity="reject",
      scope="bundle", consequence_of=("src-dir",))
def bundle_sources(a, ctx):
    """The runs' src/ unite into at least one implementation with a README, and no copy hides another.

    What it checks: the union of the runs' src/ holds at least one implementation directory (with a
    file in it) and each has a README.md (any case) directly inside: both stop the builder. Warnings:
    a path two runs give with different content (or as a file and a directory; the builder keeps
    the copy of the run it reads last, i.e. the order of --run-ids); an entry that is not copied (a
    symlink is never followed out of its run folder, a FIFO or device never read); a tree larger
    than the checker lists.
    Why: RULES.md §1.4: src/<impl>/ is the union of every run's src/ and documentation/ is merged into
    docs/; R§2.2.1: a submission ships its source, each implementation with a README.
    How to fix: Put src/<implementation>/README.md in at least one run folder; make copies of a path
    identical (or keep src/ and documentation/ in one run folder only); replace symlinks with files.
    """
    impls = a.src.top_dirs()
    src_runs = ", ".join(d for _r, d in a.src.roots) or "no run folder carries src/"
    if not impls:
        first = a.src.roots[0][1] if a.src.roots else (a.runs[0].path("src") if a.runs else a.display)
        return Fail(f"the assembled src/ holds no implementation directory ({src_runs}): the build fails",
                    file=first, subject=a.subject, observed=src_runs, expected="src/<implementation>/README.md",
                    fix="Add src/<implementation>/ with a README.md (how to build and launch the SUT, reproduce a "
                        "point) to a run folder.")
    no_readme = a.src.without_readme()
    if no_readme:
        return Fail(f"src/{', src/'.join(no_readme)} has no README.md: the build fails", file=a.src.origin(no_readme[0]),
                    subject=a.subject, observed=no_readme, expected="README.md in every implementation")
    problems, first = [], None
    for top, tree in (("src", a.src), ("documentation", a.docs)):
        for rel, displays, why in tree.conflicts:
            problems.append(f"{top}/{rel}: {why} ({' vs '.join(displays)}; the builder keeps the last run's)")
            first = first or displays[-1]
        for _run, display, why in tree.skipped:
            problems.append(f"{display}: {why}")
            first = first or display
        if tree.truncated:
            problems.append(f"{top}/: more entries than the checker lists; the rest is not compared")
    if problems:
        more = f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""
        return Fail(f"{len(problems)} problem(s) merging src/ and documentation/: " + "; ".join(problems[:5]) + more,
                    file=first, subject=a.subject, observed=problems[:20], expected="one copy of every path",
                    severity=Severity.WARN)
    docs = f"docs/ from {len(a.docs.roots)} run(s)" if a.docs.has_root else "docs/ empty (no run carries documentation/)"
    return Pass(f"src/ from {len(a.src.roots)} run(s): {', '.join(impls)}; {docs}")
