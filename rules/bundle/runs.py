"""Bundle rules, part 1: each run folder as `runs create` and the builder take it (RULES.md §1.2, §1.4).

The subject is the assembly (``checker.load.bundle.Assembly``); each rule reports once per run
folder, so every build failure names the folder to open and fix.
"""
from __future__ import annotations

from checker.core.rule import Fail, Pass, Skip, rule

_FIX_FILE = {
    "point.yaml": "Write point.yaml (R§8.3) into the run folder: the submitter adds it, nothing derives it.",
    "system_desc.json": "Write system_desc.json (R§8.2) into the run folder (by hand or with mlperf-sysinfo).",
    "performance/result_summary.json": "Keep the folder as the client wrote it: performance/result_summary.json "
                                       "is written by every run, accuracy-only runs included.",
}


def _not_created(run):
    return Skip(f"{run.rel}: `runs create` refuses it (see bundle-run-files)", reason="not-applicable",
                subject=run.subject)


@rule(id="bundle-run-files", title="runs create accepts the folder", clause="R§8.1", severity="reject",
      scope="bundle")
def bundle_run_files(a, ctx):
    """Each run folder holds what `runs create` requires: system_desc.json, point.yaml, performance/result_summary.json.

    What it checks: the three files exist in the run folder and can be read (system_desc.json and
    result_summary.json are sent as the run's payload); a flat folder (result_summary.json at the
    top) is refused, with what to move where. config.yaml is optional as of v1.0.
    Why: RULES.md §1.2: `endpoints-submission-cli runs create --path <folder>` requires exactly
    these three files and refuses a flat folder ("missing required file(s):
    performance/result_summary.json"); a refused run never reaches the bundle.
    How to fix: Add the missing file to the run folder (point.yaml and system_desc.json are the
    submitter's; the client writes performance/result_summary.json).
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
            inner, why = run.missing[0]
            shown = "; ".join(f"{p} {w}" for p, w in run.missing)
            outs.append(Fail(f"{run.rel}: {shown}: `runs create` refuses the folder, so it is not in the bundle",
                             file=run.path(inner), subject=run.subject, observed=[p for p, _ in run.missing],
                             expected="system_desc.json, point.yaml, performance/result_summary.json",
                             fix=" ".join(_FIX_FILE.get(p, f"Make {p} a readable file.") for p, _ in run.missing)))
        else:
            outs.append(Pass("system_desc.json, point.yaml and performance/result_summary.json are present",
                             subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-run-kind", title="The builder can classify the run", clause="R§8.1", severity="reject",
      scope="bundle")
def bundle_run_kind(a, ctx):
    """Each run is classified as performance or accuracy the way the builder does, and is what it is classified as.

    What it checks: config.yaml `datasets[].type` when it names one kind only; otherwise (config.yaml
    absent, or listing both kinds, as the client writes in every mode) point.yaml `dataset_type`,
    which must be exactly `Performance` or `Accuracy` (`Accuracy + Performance` or nothing fails the
    build, naming the run). The class must match the files: a performance run whose performance
    phase is empty (an accuracy-only run) would file an empty result; an accuracy run that measured
    performance samples would lose them; an accuracy run needs accuracy/accuracy_results.json.
    Why: RULES.md §1.4: the builder fails on an unclassifiable run on purpose (defaulting to
    performance once collided an accuracy run with the real performance run and dropped its
    results).
    How to fix: Set point.yaml `dataset_type` to exactly `Performance` (performance or --mode both
    run) or `Accuracy` (accuracy-only run).
    """
    outs = []
    for run in a.runs:
        if not run.created:
            outs.append(_not_created(run))
            continue
        pt = run.file("point_yaml")
        if run.kind is None:
            outs.append(Fail(f"{run.rel}: the builder cannot classify it: {run.how}", file=pt,
                             path=("dataset_type",), subject=run.subject,
                             observed=pt.get("dataset_type") if pt is not None else None,
                             expected="'Performance' or 'Accuracy' (or config.yaml datasets of one kind)"))
            continue
        empty = run.issued == 0
        if run.kind == "performance" and empty:
            outs.append(Fail(f"{run.rel}: classified as a performance run ({run.how}), but its performance phase "
                             "is empty (0 samples issued: an accuracy-only run); the bundle would file an empty "
                             f"result at r{run.concurrency}", file=pt, path=("dataset_type",), subject=run.subject,
                             observed="Performance", expected="Accuracy",
                             fix="Set point.yaml dataset_type: Accuracy for an accuracy-only run."))
        elif run.kind == "accuracy" and isinstance(run.issued, int) and run.issued > 0:
            outs.append(Fail(f"{run.rel}: classified as an accuracy run ({run.how}), but it measured {run.issued} "
                             "performance samples: the builder files only its accuracy results and drops them",
                             file=pt, path=("dataset_type",), subject=run.subject, observed="Accuracy",
                             expected="Performance",
                             fix="Set point.yaml dataset_type: Performance for a performance or --mode both run."))
        elif run.kind == "accuracy" and not run.has_accuracy:
            outs.append(Fail(f"{run.rel}: classified as an accuracy run ({run.how}), but it has no "
                             "accuracy/accuracy_results.json: nothing of it reaches the bundle",
                             file=run.path("accuracy/accuracy_results.json"), subject=run.subject,
                             observed="missing", expected="accuracy/accuracy_results.json",
                             fix="Rerun the accuracy phase to completion, or drop the folder from the set."))
        else:
            both = " with its accuracy phase (--mode both)" if run.kind == "performance" and run.has_accuracy else ""
            outs.append(Pass(f"{run.kind} run{both} ({run.how})", subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-point-filing", title="The builder can file the run into r<N>", clause="R§8.1", severity="reject",
      scope="bundle")
def bundle_point_filing(a, ctx):
    """Each run lands in results/<system>/<model_name>/r<concurrency>/, named from its point.yaml.

    What it checks: point.yaml loads, `concurrency` is a positive integer (it names r<N>; an
    accuracy-only run is filed into the r<N> of its concurrency) and `model_name` is a model id
    usable as the directory name; the PASS says where the run lands and which files it gives.
    Why: RULES.md §1.3-1.4: the builder copies point.yaml verbatim and files the point by its
    declared concurrency and model_name; nothing derives them from config.yaml.
    How to fix: Give point.yaml the point's `concurrency` (the dataset size for a dedicated Offline
    run) and the canonical `model_name`.
    """
    outs = []
    gives = {"performance": "point.yaml, system_desc.json, result_summary.json, config.yaml", "accuracy":
             "accuracy_results.json"}
    for run in a.runs:
        if not run.created:
            outs.append(_not_created(run))
        elif run.unfiled is not None:
            key = "model_name" if "model_name" in run.unfiled else "concurrency"
            outs.append(Fail(f"{run.rel}: the builder cannot file it: {run.unfiled}", file=run.file("point_yaml"),
                             path=(key,), subject=run.subject, observed=run.unfiled,
                             expected="a positive integer concurrency and a canonical model_name"))
        elif run.kind is None or (run.kind == "accuracy" and not run.has_accuracy):
            outs.append(Skip(f"{run.rel}: gives the bundle nothing (see bundle-run-kind)", reason="not-applicable",
                             subject=run.subject))
        else:
            what = gives[run.kind] + (", accuracy_results.json" if run.kind == "performance" and run.has_accuracy
                                      else "")
            outs.append(Pass(f"filed into results/{run.system}/{run.model}/r{run.concurrency}/ ({what})",
                             subject=run.subject))
    return outs or Pass("no run folder")


@rule(id="bundle-point-collision", title="One run per r<N> and result", clause="R§8.1", severity="reject",
      scope="bundle")
def bundle_point_collision(a, ctx):
    """No two runs land in one r<N> with the same file: two performance runs, or two accuracy results.

    What it checks: per r<N>, at most one performance run (its result_summary.json, point.yaml and
    system_desc.json) and at most one run giving accuracy_results.json (an accuracy run, or a
    --mode both run); a dedicated Offline run whose dataset size equals a real point's
    concurrency collides too. Each run of a collision is reported, naming the other.
    Why: RULES.md §1.4 and §12: a performance run and its accuracy run share r<N> by design; two
    runs giving the same file cannot both be filed, and one result would be lost.
    How to fix: Remove the extra run from the set (or fix its point.yaml concurrency).
    """
    outs, seen = [], set()
    for pp in a.points.values():
        for runs, what in ((pp.perf, "result_summary.json (two performance runs)"),
                           (pp.acc, "accuracy_results.json (two runs carrying accuracy results)")):
            if len(runs) < 2:
                continue
            names = ", ".join(r.rel for r in runs)
            for r in runs[1:]:
                if r.rel in seen:
                    continue
                seen.add(r.rel)
                outs.append(Fail(f"{pp.rel}/: {names} all give {what}; the view keeps {runs[0].rel}, {r.rel} is "
                                 "left out", file=r.file("point_yaml"), path=("concurrency",), subject=r.subject,
                                 observed=[x.rel for x in runs], expected=f"one run giving {what.split(' ')[0]}"))
            if runs[0].rel not in seen:
                seen.add(runs[0].rel)
                outs.append(Fail(f"{pp.rel}/: {names} all give {what}; the view keeps this one",
                                 file=runs[0].file("point_yaml"), path=("concurrency",), subject=runs[0].subject,
                                 observed=[x.rel for x in runs], expected=f"one run giving {what.split(' ')[0]}"))
    for run in a.filed():
        if run.rel not in seen and (run.kind == "performance" or run.provides_accuracy):
            outs.append(Pass(f"alone in its r{run.concurrency}/ for the files it gives", subject=run.subject))
    return outs or Pass("no run is filed")
