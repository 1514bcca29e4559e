"""Bundle rules, part 2: what the builder merges across runs (RULES.md §1.4): accuracy runs into their
points, system_power.json per system, shared_src/shared_docs, src/ and documentation/.
"""
from __future__ import annotations

import datetime as _dt
import os
import re

from checker.core.findings import Severity, Subject
from checker.core.rule import Fail, Pass, Skip, rule

_REPORT_DIR = re.compile(r"reports_(\d{8}_\d{6})$")
#: point.yaml fields an accuracy run must share with its performance run (same model, stack, seeds: R§4.3)
_SAME_POINT = ("model_name", "division", "dataset", "model_precision", "seed_set", "target_cohort",
               "max_supported_concurrency")
#: system_desc.json fields that legitimately differ between the two runs of one point
_PER_RUN_SYSDESC = ("tps_utilization",)


def _start_s(run):
    """(wall-clock start in seconds, where it comes from), or (None, None) when the files carry none."""
    s = run.file("result_summary")
    t = s.get("test_started_at") if s is not None and s.ok else None
    if isinstance(t, int) and not isinstance(t, bool) and t > 10 ** 17:  # epoch nanoseconds
        return t / 1e9, "result_summary.json test_started_at"
    c = run.file("config")
    rd = c.get("report_dir") if c is not None and c.ok else None
    m = _REPORT_DIR.search(rd.rstrip("/")) if isinstance(rd, str) else None
    if m:
        try:
            when = _dt.datetime.strptime(m.group(1), "%Y%m%d_%H%M%S").replace(tzinfo=_dt.timezone.utc)
        except ValueError:
            return None, None
        return when.timestamp(), "config.yaml report_dir (the client's default reports_<date>_<time>)"
    return None, None


def _duration_s(run):
    s = run.file("result_summary")
    d = s.get("duration_ns") if s is not None and s.ok else None
    return d / 1e9 if isinstance(d, int) and not isinstance(d, bool) and d > 0 else 0.0


def _differences(acc, perf) -> list[str]:
    out = []
    pa, pp = acc.file("point_yaml"), perf.file("point_yaml")
    for k in _SAME_POINT:
        va, vp = pa.get(k), pp.get(k)
        if va != vp:
            out.append(f"point.yaml {k} {va!r} vs {vp!r}")
    sa, sp = acc.file("system_desc"), perf.file("system_desc")
    if sa is not None and sp is not None and sa.ok and sp.ok and isinstance(sa.data, dict) and isinstance(sp.data, dict):
        keys = sorted((set(sa.data) | set(sp.data)) - set(_PER_RUN_SYSDESC))
        diff = [k for k in keys if sa.data.get(k) != sp.data.get(k)]
        if diff:
            out.append(f"system_desc.json {', '.join(diff[:5])}" + (" ..." if len(diff) > 5 else ""))
    return out


@rule(id="bundle-accuracy-pairing", title="Accuracy run follows its performance run", clause="R§4.3",
      severity="flag", scope="bundle")
def bundle_accuracy_pairing(a, ctx):
    """Each accuracy-only run has its performance run at the same concurrency, on the same stack, before it.

    What it checks: for every run classified as accuracy: a performance run is filed into the same
    r<N> (else the point has accuracy and no result); its point.yaml agrees with the performance
    run's on model, division, dataset, precision, seed set, target cohort and C_max, and its
    system_desc.json on everything but tps_utilization (the bundle keeps only the performance
    run's copies); where both runs carry a wall-clock start (result_summary.json
    `test_started_at`, or the client's default report_dir `reports_<date>_<time>`), the accuracy
    run starts after the performance run's tracked duration has elapsed. A --mode both run is
    ordered by construction. Without timestamps the order is reported as not verifiable.
    Why: R§4.3: each accuracy run runs at the matching concurrency, on the same instance,
    immediately after its performance run (`--mode both` is the easy way).
    How to fix: Run the accuracy phase right after its performance run (or use --mode both), with
    the same point.yaml and system description.
    """
    outs = []
    for pp in a.points.values():
        for run in pp.acc:
            if run.kind != "accuracy":
                outs.append(Pass(f"--mode both run: its accuracy phase follows its performance phase in "
                                 f"{run.rel}", subject=run.subject))
                continue
            if not pp.perf:
                outs.append(Fail(f"{run.rel}: no performance run is filed into {pp.rel}/, so the point has accuracy "
                                 "results and no result_summary.json", file=run.file("point_yaml"),
                                 path=("concurrency",), subject=run.subject, observed="no performance run",
                                 expected=f"a performance run at concurrency {pp.n}", severity=Severity.REJECT,
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
            if ta < end:
                outs.append(Fail(f"{run.rel} started {_fmt(ta)}, before its performance run {perf.rel} (started "
                                 f"{_fmt(tp)}, {_duration_s(perf):.0f} s tracked) had finished ({wa})",
                                 file=run.file("config") if "report_dir" in wa else run.file("result_summary"),
                                 path=("report_dir",) if "report_dir" in wa else ("test_started_at",),
                                 subject=run.subject, observed=_fmt(ta), expected=f">= {_fmt(end)}"))
            else:
                outs.append(Pass(f"starts {_fmt(ta)}, after its performance run {perf.rel} ({_fmt(tp)} + "
                                 f"{_duration_s(perf):.0f} s) ({wa})", subject=run.subject))
    return outs or Pass("no accuracy-only run: every accuracy result comes from a --mode both run or none")


def _fmt(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")


@rule(id="bundle-power-copies", title="One system_power.json per system", clause="R§4.5.2", severity="reject",
      scope="bundle")
def bundle_power_copies(a, ctx):
    """The system_power.json copies of one system's run folders are identical; one is lifted to results/<system>/.

    What it checks: per system (runs grouped by system_desc.json `system_name`), every run folder
    carrying system_power.json carries the same bytes; the finding says which copies differ and
    whether only the formatting does. A system whose runs carry none is left to power-descriptor.
    Why: RULES.md §1.4: system_power.json is lifted from whichever run folders of the system carry
    it; differing copies fail the build.
    How to fix: Keep one system_power.json and copy it byte for byte into the other run folders
    (or remove the other copies).
    """
    outs = []
    for label, sp in a.systems.items():
        subject = Subject(a.name, label)
        if not sp.power:
            outs.append(Skip(f"no run folder of system {label} carries system_power.json (power-descriptor reports "
                             "it)", reason="missing-input", subject=subject))
            continue
        first = sp.power[0].file("power")
        base = _bytes(first)
        differ = [r for r in sp.power[1:] if _bytes(r.file("power")) != base]
        if differ:
            same_data = all(r.file("power").ok and first.ok and r.file("power").data == first.data for r in differ)
            how = "formatting only (same values)" if same_data else "content"
            outs.append(Fail(f"system {label}: system_power.json differs in {how} between {sp.power[0].rel} and "
                             f"{', '.join(r.rel for r in differ)}: the build fails", file=differ[0].file("power"),
                             subject=subject, observed=[r.rel for r in differ],
                             expected=f"byte-identical to {first.rel}"))
        else:
            n = len(sp.power)
            outs.append(Pass(f"system {label}: system_power.json lifted from {sp.power[0].rel}"
                             + (f" ({n} identical copies)" if n > 1 else ""), subject=subject))
    return outs or Pass("no system")


def _bytes(lf):
    if lf is None or not lf.exists:
        return None
    if lf.text is not None:
        return lf.text
    try:
        with open(lf.abspath, "rb") as fh:
            return fh.read(16 << 20)
    except OSError:
        return None


@rule(id="bundle-shared-paths", title="shared_src/shared_docs resolve after assembly", clause="R§9.1",
      severity="reject", scope="bundle")
def bundle_shared_paths(a, ctx):
    """Each bundled point.yaml's shared_src/shared_docs resolve in the assembled tree, or can be injected.

    What it checks: a declared value is validated against the tree the builder writes (src/ = the
    union of the runs' src/, docs/ = their merged documentation/): relative, no `..`, under src/
    (an implementation directory) or docs/, existing. An absent value is injected: shared_src the
    run's own src/<impl> (or the bundle's only implementation), shared_docs `docs`; when there is
    nothing to point at, injection is impossible.
    Why: RULES.md §1.4: the builder injects absent values (their referent only exists after
    assembly), never overwrites a declared one, and fails the build on an unresolvable one.
    How to fix: Declare `shared_src: src/<implementation>` and `shared_docs: docs` matching the
    src/ and documentation/ the run folders carry, or remove a wrong value and let it be injected.
    """
    outs = []
    for key, pp in a.points.items():
        run = pp.lead
        parts = [a.shared.get((key, f)) for f in ("shared_src", "shared_docs")]
        bad = [s for s in parts if s is not None and not s.ok]
        if bad:
            s = bad[0]
            outs.append(Fail(f"{pp.rel}/point.yaml (from {run.rel}): " + "; ".join(x.note for x in bad),
                             file=run.file("point_yaml"), path=(s.key,) if s.declared is not None else (),
                             subject=run.subject, observed={x.key: x.declared for x in bad},
                             expected="shared_src: src/<implementation>, shared_docs: docs (or absent: injected)"))
        else:
            outs.append(Pass(f"{pp.rel}/point.yaml: " + "; ".join(s.note for s in parts if s is not None),
                             subject=run.subject))
    return outs or Pass("no point is filed")


@rule(id="bundle-sources", title="src/ and documentation/ merge cleanly", clause="R§2.2.1", severity="warn",
      scope="bundle")
def bundle_sources(a, ctx):
    """The runs' src/ trees unite and their documentation/ trees merge without one copy hiding another.

    What it checks: no path is given by two runs with different content (or as a file in one run and
    a directory in another); no entry is left out (a symlink is never followed out of its run
    folder, a FIFO or device is never read); the walk stayed within its entry budget. The PASS
    lists the implementations and where src/ and docs/ come from.
    Why: RULES.md §1.4: src/<impl>/ is the union of every run's src/, documentation/ is merged into
    docs/; where two copies differ only one can be published, and reviewers reproduce from it.
    How to fix: Make the copies identical (or keep src/ and documentation/ in one run folder only),
    and replace symlinks with the files themselves.
    """
    problems, first = [], None
    for top, tree in (("src", a.src), ("documentation", a.docs)):
        for rel, displays, why in tree.conflicts:
            problems.append(f"{top}/{rel}: {why} ({' vs '.join(displays)}; the view keeps the first)")
            first = first or displays[-1]
        for _run, display, why in tree.skipped:
            problems.append(f"{display}: {why}")
            first = first or display
        if tree.truncated:
            problems.append(f"{top}/: more entries than the checker lists; the rest is not compared")
    if problems:
        more = f" (+{len(problems) - 5} more)" if len(problems) > 5 else ""
        return Fail(f"{len(problems)} problem(s) merging src/ and documentation/: " + "; ".join(problems[:5]) + more,
                    file=first, subject=a.subject, observed=problems[:20], expected="one copy of every path")
    impls = a.src.top_dirs()
    src = f"src/ from {len(a.src.roots)} run(s) ({', '.join(impls) or 'no implementation'})" if a.src.has_root \
        else "no run folder carries src/"
    docs = f"docs/ from {len(a.docs.roots)} run(s)" if a.docs.has_root else "no run folder carries documentation/"
    return Pass(f"{src}; {docs}")
