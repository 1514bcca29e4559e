"""Bundle rules, part 1: each run folder as `runs create` and the builder take it (RULES.md §1.2, §1.4).

The subject is the assembly (``checker.load.bundle.Assembly``); each rule reports once per run
folder, so every build failure names the folder to open and fix. The behaviour reproduced is
endpoints-submission-cli 1.5.3.0's (`runs create`, `submissions create`).
"""
from __future__ import annotations

from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule

_FIX_FILE = {
    "point.yaml": "Write point.yaml (R§8.3) into the run folder: the submitter adds it, nothing derives it.",
    "system_desc.json": "Write system_desc.json (R§8.2) into the run folder (by hand or with mlperf-sysinfo).",
    "config.yaml": "Keep the config.yaml the client wrote into the run folder: `runs create` requires it.",
    "performance/result_summary.json": "Keep the folder as the client wrote it: every run writes "
                                       "performance/result_summary.json, accuracy-only runs included.",
    "system_power.json": "Fix system_power.json (valid JSON) or remove it from this run folder.",
}


def _kind_source(run) -> tuple:
    """(file, path) of what decided the run's kind: config.yaml datasets[0].type or point.yaml dataset_type."""
    if run.how.startswith("config.yaml datasets[0].type"):
        return run.file("config"), ("datasets", 0, "type")
    return run.file("point_yaml"), ("dataset_type",)


def _not_created(run):
    return Skip(f"{run.rel}: `runs create` refuses it (see bundle-run-files)", reason="not-applicable",
                subject=run.subject)


@rule(id="bundle-run-files", title="runs create accepts the folder", clause="R§8.1", severity="reject",
      scope="bundle")
def bundle_run_files(a, ctx):
    """Each run folder holds what `runs create` requires, in a form it can send.

    What it checks: system_desc.json, point.yaml, config.yaml and performance/result_summary.json
    exist; the JSON files parse (result_summary.json to an object), point.yaml and config.yaml to
    mappings; a system_power.json present parses; result_summary.json's `duration_ns` is a number
    (the CLI divides it to date the run: the null an --accuracy-only run writes stops it with a
    TypeError). A flat folder (result_summary.json at the top) is refused, with what to move where.
    Why: RULES.md §1.2; endpoints-submission-cli 1.5.3.0 requires config.yaml as well (RULES.md
    calls it optional as of v1.0). A refused run never reaches the bundle.
    How to fix: Add or repair the file the finding names; the client writes config.yaml and
    performance/result_summary.json, the submitter point.yaml and system_desc.json.
    """
    outs = []
    for run in a.runs:
        if run.rf.layout == "flat":
            lf = run.rf.files.get("flat_result_summary")
            outs.append(Fail(f"{run.rel}: flat layout: result_summary.json sits at the top of the run folder, "
                             "`runs create` wants performance/result_summary.json", file=lf, subject=run.subject,
                             observed="result_summary.json", expected="performance/result_summary.json",
                             fix=f"Move {run.rel}/result_summary.json into {run.rel}/performance/ (and an "
                                 "accuracy_results.json into accuracy/): the layout the client writes."))
        elif run.missing:
            inner, _why = run.missing[0]
            shown = "; ".join(f"{p} {w}" for p, w in run.missing)
            lf = next((v for v in run.rf.files.values() if v.rel == run.path(inner)), None)
            dur = "duration_ns" in shown
            outs.append(Fail(f"{run.rel}: {shown}: `runs create` refuses the folder, so it is not in the bundle",
                             file=lf if lf is not None and lf.exists else run.path(inner),
                             path=("duration_ns",) if dur else (), subject=run.subject,
                             observed=[p for p, _ in run.missing],
                             expected="system_desc.json, point.yaml, config.yaml, performance/result_summary.json",
                             fix="Run the accuracy phase with --mode both, in the performance run's folder (an "
                                 "--accuracy-only run writes duration_ns: null)." if dur else
                             " ".join(dict.fromkeys(_FIX_FILE.get(p, f"Repair {p}.") for p, _ in run.missing))))
        else:
            outs.append(Pass("system_desc.json, point.yaml, config.yaml and performance/result_summary.json are "
                             "present and readable", subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-run-kind", title="The builder can classify the run", clause="R§8.1", severity="reject",
      scope="bundle", needs=("maybe:point_yaml",))
def bundle_run_kind(a, ctx):
    """Each run is classified as performance or accuracy the way the builder does, and is what it is classified as.

    What it checks: config.yaml `datasets[0].type` (the first dataset's) decides when it says
    `performance` or `accuracy`; otherwise point.yaml `dataset_type` must be `Performance` or
    `Accuracy` (any case): `Accuracy + Performance` or nothing fails the build, naming the run. The
    class must match the files: a performance-class run whose performance phase is empty (an
    accuracy-only run whose config.yaml lists the performance dataset first, as the client writes
    it) would be filed as a performance point; an accuracy-class run that measured performance
    samples loses them; an accuracy-class run without accuracy results gives the point none.
    Why: RULES.md §1.4: the builder refuses to guess (defaulting to performance once collided an
    accuracy run with the real performance run and dropped its results).
    How to fix: Run the accuracy phase with --mode both, or run it from a config whose first dataset
    is the accuracy dataset; where config.yaml names no type, set point.yaml `dataset_type` to
    exactly `Performance` or `Accuracy`.
    """
    outs = []
    for run in a.runs:
        if not run.created:
            outs.append(_not_created(run))
            continue
        pt = run.file("point_yaml")
        if run.kind is None:
            outs.append(Fail(f"{run.rel}: the builder cannot classify it and the build fails: {run.how}", file=pt,
                             path=("dataset_type",), subject=run.subject, observed=pt.get("dataset_type"),
                             expected="'Performance' or 'Accuracy' (or config.yaml datasets[0].type)"))
        elif run.kind == "performance" and run.issued == 0:
            outs.append(Fail(f"{run.rel}: classified as a performance run ({run.how}), but its performance phase is "
                             "empty (0 samples issued: an accuracy-only run); it would be filed as the performance "
                             f"point r{run.concurrency}", file=_kind_source(run)[0], path=_kind_source(run)[1],
                             subject=run.subject, observed="performance", expected="accuracy"))
        elif run.kind == "accuracy" and isinstance(run.issued, int) and run.issued > 0:
            outs.append(Fail(f"{run.rel}: classified as an accuracy run ({run.how}), but it measured {run.issued} "
                             "performance samples: the builder takes only its accuracy results",
                             file=_kind_source(run)[0], path=_kind_source(run)[1], subject=run.subject, observed="accuracy",
                             expected="performance"))
        elif run.kind == "accuracy" and not run.has_accuracy:
            outs.append(Fail(f"{run.rel}: classified as an accuracy run ({run.how}), but it has no "
                             "accuracy/accuracy_results.json: its point gets no accuracy results",
                             file=run.path("accuracy/accuracy_results.json"), subject=run.subject,
                             observed="missing", expected="accuracy/accuracy_results.json",
                             fix="Rerun the accuracy phase to completion, or drop the folder from the set."))
        else:
            both = " with its accuracy phase (--mode both)" if run.kind == "performance" and run.has_accuracy else ""
            outs.append(Pass(f"{run.kind} run{both} ({run.how})", subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-point-filing", title="The builder can file the run into r<N>", clause="R§8.1", severity="reject",
      scope="bundle", needs=("maybe:point_yaml",))
def bundle_point_filing(a, ctx):
    """Each run lands in results/<system>/<model>/r<N>/: N from point.yaml, the names as the builder makes them.

    What it checks: the concurrency the builder reads (point.yaml `concurrency`, else config.yaml's
    target_concurrency, else 1) converts to a positive integer (a value int() refuses stops the
    build). The PASS says where the run lands: <system> is system_desc.json `system_name` with
    spaces as underscores; <model> is point.yaml `model_name` (else config.yaml's model) slugged,
    so `llama3.1-8b` becomes `llama3_1-8b/` (model-name-consistency then compares it).
    Why: RULES.md §1.3-1.4: the builder copies point.yaml verbatim and files the point by its
    declared concurrency; nothing is derived from the run itself.
    How to fix: Give point.yaml the point's `concurrency` as an integer (the dataset size for a
    dedicated Offline run).
    """
    outs = []
    for run in a.runs:
        if not run.created:
            outs.append(_not_created(run))
        elif run.concurrency is None:
            outs.append(Fail(f"{run.rel}: the builder cannot name its r<N> directory: {run.conc_how}",
                             file=run.file("point_yaml"), path=("concurrency",), subject=run.subject,
                             observed=run.conc_how, expected="a positive integer concurrency"))
        elif run.kind is None:
            outs.append(Skip(f"{run.rel}: not classified (see bundle-run-kind)", reason="not-applicable",
                             subject=run.subject))
        else:
            name = run.data("point_yaml").get("model_name")
            renamed = f"; model_name {name!r} becomes the directory {run.model}/" \
                if isinstance(name, str) and name != run.model else ""
            outs.append(Pass(f"filed into results/{run.system}/{run.model}/r{run.concurrency}/ ({run.conc_how}"
                             f"{renamed})", subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-point-collision", title="One performance and one accuracy run per r<N>", clause="R§8.1",
      severity="reject", scope="bundle")
def bundle_point_collision(a, ctx):
    """No two runs of one kind land in one r<N>; a separate accuracy run overrides a --mode both run's accuracy.

    What it checks: per results/<system>/<model>/r<N>/, at most one performance run and at most one
    accuracy run (a dedicated Offline run whose dataset size equals a real point's concurrency
    collides too): a duplicate fails the build, and every run involved is named. A --mode both run
    sharing r<N> with a separate accuracy run is a warning: the builder takes the accuracy run's
    results and drops the --mode both run's.
    Why: RULES.md §1.4 and §12: a performance run and its accuracy run share r<N> by design; two
    runs of one kind cannot both be filed ("Duplicate ... run at concurrency N").
    How to fix: Remove the extra run from the set (or fix its point.yaml concurrency).
    """
    outs, seen = [], set()
    for pp in a.points.values():
        for runs, kind in ((pp.perf, "performance"), (pp.acc, "accuracy")):
            if len(runs) < 2:
                continue
            names = ", ".join(r.rel for r in runs)
            for r in runs:
                if r.rel in seen:
                    continue
                seen.add(r.rel)
                outs.append(Fail(f"{pp.rel}/: {len(runs)} {kind} runs at concurrency {pp.n} ({names}): the build "
                                 f"fails (duplicate {kind} run)", file=r.file("point_yaml"), path=("concurrency",),
                                 subject=r.subject, observed=[x.rel for x in runs], expected=f"one {kind} run"))
        if pp.acc and pp.perf and pp.perf[0].has_accuracy and pp.perf[0].rel not in seen:
            r = pp.perf[0]
            seen.add(r.rel)
            outs.append(Fail(f"{pp.rel}/: {r.rel} carries accuracy results (--mode both) and {pp.acc[0].rel} is a "
                             f"separate accuracy run at the same concurrency: the bundle takes {pp.acc[0].rel}'s "
                             f"and drops {r.rel}'s", file=r.path("accuracy/accuracy_results.json"),
                             subject=r.subject, severity=Severity.WARN, observed=[r.rel, pp.acc[0].rel],
                             expected="one source of accuracy results per point",
                             fix="Keep one of the two accuracy results: drop the accuracy-only run, or keep it "
                                 "and know the --mode both results are not published."))
    for run in a.filed():
        if run.rel not in seen:
            outs.append(Pass(f"the only {run.kind} run in r{run.concurrency}/", subject=run.subject))
    return outs or Pass("no run is filed")
