"""Model identity, disclosure and cross-file / cross-point consistency (R§8.3, R§9.1).

Curve rules compare every point with the curve's reference value (the most common one; ties go to
the first point in directory order) and report each deviating point as its own finding, naming
the point.yaml (or result_summary.json) line of the odd value.
"""
from __future__ import annotations

import re
from collections import Counter

from checker.load.models.keys import missing_hint, rename_for_missing
from checker.core.findings import Severity
from checker.core.fixes import Edit
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import show
from rules.procedure.policy import NEEDS, canonical_dataset, declares_models_dataset, point_model, usable

_MISSING = "(not declared)"


def _reference(values: list) -> object:
    counts = Counter(values)
    best = max(counts.values())
    return next(v for v in values if counts[v] == best)


def _curve_compare(curve, label: str, value_of, path_of, kind: str = "point_yaml", what: str = ""):
    """Per-point FAILs for values that differ from the reference; one PASS when they all agree."""
    pts = [(p, value_of(p)) for p in curve.points if p.files.get(kind) is not None and p.files[kind].model is not None]
    if not pts:
        return Skip(f"no point has a usable {'point.yaml' if kind == 'point_yaml' else 'result_summary.json'}",
                    reason="missing-input")
    ref = _reference([v for _, v in pts])
    odd = [(p, v) for p, v in pts if v != ref]
    if not odd:
        return Pass(f"all {len(pts)} points agree on {label}: {show(ref, quote=False)}")
    others = ", ".join(p.name for p, v in pts if v == ref)
    return [Fail(f"{label} {show(v, quote=False)} differs from {show(ref, quote=False)} at the other points ({others}){what}",
                 file=p.files[kind], path=path_of(p), observed=show(v, quote=False), expected=show(ref, quote=False), subject=p.subject)
            for p, v in odd]


@rule(id="config-consistency-dataset", title="Config consistency dataset", clause="R§9.1", severity="flag", scope="curve", official=True, needs=("policy:models", "maybe:point_yaml"),
      consequence_of=("unknown-key",))
def config_consistency_dataset(curve, ctx):
    """All points of a curve declare the same `dataset`.

    What it checks: point.yaml `dataset` at every point with a readable point.yaml; spellings that
    models.yaml lists as aliases of one dataset count as the same. A point that declares none
    differs. Each deviating point is its own finding.
    Why: R§9.1 configuration consistency — one curve = one model x one dataset.
    How to fix: Run every point on the same performance dataset and declare it identically.
    """
    def value(p):
        d = p.files["point_yaml"].get("dataset")
        if not isinstance(d, str) or not d:
            return _MISSING
        try:
            return canonical_dataset(ctx, d) or d
        except Exception:
            return d
    return _curve_compare(curve, "dataset", value, lambda p: ("dataset",))


@rule(id="dataset-matches-model", title="Dataset is the benchmark's", clause="R§3.2, R§9.1", severity="flag", scope="point", needs=("point_yaml", "policy:models"))
def dataset_matches_model(point, ctx):
    """point.yaml `dataset` does not name another benchmark's dataset.

    What it checks: the point's benchmark model (canonical `model_name`, else the curve
    directory) fixes its dataset (models.yaml: the performance dataset, or the accuracy dataset,
    with their aliases). A declared `dataset` that names another dataset models.yaml knows (another
    benchmark's, or a known MLPerf set such as open_orca) FAILs; any other string is an identifier of the submitter's choosing (R§8.3: `dataset`
    is a free string, e.g. `mlperf-perf-dataset-v1`) and passes, the finding saying which dataset
    the count rules use. Whatever the point declares, the count rules (min-query-count,
    samples-whole-multiple) use the model's dataset size, so an unknown name never makes them
    SKIP. An unknown model SKIPs (model-name-valid).
    Why: R§3.2 / RULES.md §11: each benchmark is one model on one dataset; a point that says it ran
    another benchmark's dataset is not a measurement of the benchmark. An unfamiliar name says
    nothing of the kind: real packages declare ids such as `mlperf-perf-dataset-v1`. The failure
    action follows R§9.1's dataset rows (configuration consistency: flag points).
    How to fix: Run the point on the benchmark's dataset and declare it (e.g. `dataset: cnn_dailymail`).
    """
    lf = point.files["point_yaml"]
    mid = point_model(point, ctx)
    if mid is None:
        return Skip("the benchmark model is unknown (see model-name-valid)", reason="missing-input")
    m = ctx.policy.get("models").models[mid]
    names = [m.performance_dataset.name] + ([m.accuracy_dataset.name] if m.accuracy_dataset is not None
                                            and m.accuracy_dataset.name != m.performance_dataset.name else [])
    declared = lf.get("dataset")
    if declared is None:
        return Skip(f"point.yaml declares no `dataset`; {mid} fixes it: {', '.join(names)}", reason="missing-input")
    if isinstance(declared, str) and declares_models_dataset(ctx, mid, declared):
        return Pass(f"dataset {declared!r} is {mid}'s")
    if isinstance(declared, str) and canonical_dataset(ctx, declared) is None and not _other_benchmarks(ctx, mid, declared):
        return Pass(f"dataset {declared!r} is an identifier of the submitter's (R§8.3), not another benchmark's "
                    f"dataset; the count rules use {mid}'s {m.performance_dataset.name!r} "
                    f"({m.performance_dataset.size:,} samples)")
    return Fail(f"dataset {show(declared)} is not {mid}'s dataset ({' or '.join(repr(n) for n in names)}); "
                f"the count rules use {m.performance_dataset.name!r} ({m.performance_dataset.size:,} samples)",
                file=lf, path=("dataset",), observed=declared,
                expected=names + list(m.performance_dataset.aliases))


def _other_benchmarks(ctx, mid: str, name: str) -> list[str]:
    """The other benchmark models whose performance or accuracy dataset ``name`` spells (empty: none)."""
    return [other for other in ctx.policy.get("models").models if other != mid
            and declares_models_dataset(ctx, other, name)]


@rule(id="config-consistency-model", title="Config consistency model", clause="R§9.1", severity="flag", scope="curve", official=True, needs=("maybe:point_yaml",),
      consequence_of=("unknown-key",))
def config_consistency_model(curve, ctx):
    """All points of a curve declare the same `model_name`.

    What it checks: point.yaml `model_name`, compared exactly, at every point with a readable
    point.yaml. Each deviating point is its own finding.
    Why: R§8.5 and R§9.1 — a curve is one benchmark model; mixed names mean mixed runs.
    How to fix: Declare the canonical model id at every point (and rerun points run on another model).
    """
    def value(p):
        m = p.files["point_yaml"].get("model_name")
        return m if isinstance(m, str) and m else _MISSING
    return _curve_compare(curve, "model_name", value, lambda p: ("model_name",))


@rule(id="harness-consistency", title="Same harness at every point", clause="R§9.1", severity="flag", scope="curve", needs=("maybe:result_summary",))
def harness_consistency(curve, ctx):
    """Every point of a curve was measured with the same client build (`version`, `git_sha`).

    What it checks: result_summary.json `version` and `git_sha` at every point with a readable
    summary; each point whose pair differs from the rest is its own finding.
    Why: R§9.1 configuration consistency (same software stack across points) and R§2.1.1 (the
    client commit is logged); a curve assembled from two client versions can be rejected
    (seeds/run-the-points.txt). The official checker ignores both fields.
    How to fix: Lock the client version before the first point and rerun the points measured with
    another build.
    """
    def value(p):
        s = p.files["result_summary"]
        return (_str_or(s.get("version")), _str_or(s.get("git_sha")))

    def path(p):
        ref = _reference([value(q) for q in curve.points if q.files.get("result_summary") is not None
                          and q.files["result_summary"].model is not None])
        return ("version",) if value(p)[0] != ref[0] else ("git_sha",)
    return _curve_compare(curve, "harness (version, git_sha)", value, path, kind="result_summary")


def _str_or(v) -> str:
    return v if isinstance(v, str) else ("null" if v is None else show(v))


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _spelling_of(models, name: str) -> str | None:
    """The canonical id a name spells differently (aliases, punctuation/case, HF id), or None."""
    ids = models.identify(name)
    return ids[0] if ids else None


@rule(id="model-name-valid", title="Benchmark model name", clause="R§3.2", severity="reject", scope="point", needs=("point_yaml", "policy:models"), official=True)
def model_name_valid(point, ctx):
    """point.yaml `model_name` is a canonical benchmark model id of the round.

    What it checks: `model_name` is exactly one of the ids in models.yaml (llama3_1-8b,
    gpt-oss-120b, deepseek-r1, kimi-k3, qwen3_6-35b-a3b, deepseek-v4_1-flash). An older accepted
    spelling (llama3.1-8b, from the 09-24 docs and the CLI example) is a warning naming the current
    id; another spelling of a known model (case, punctuation, the Hugging Face id) fails with the
    canonical id in the fix. Missing: SKIP (point-disclosure-complete reports it).
    Why: R§3.2 — only the round's benchmarks are accepted, and results are keyed by the id.
    How to fix: Use the canonical id from the round's model list.
    """
    lf = point.files["point_yaml"]
    name = lf.get("model_name")
    if name is None or name == "":
        return Skip("no model_name (see point-disclosure-complete)", reason="missing-input")
    models = ctx.policy.get("models")
    allowed = sorted(models.models)
    if not isinstance(name, str):
        return Fail(f"model_name is {show(name)}, not a string", file=lf, path=("model_name",),
                    observed=name, expected=allowed)
    if name in models.models:
        return Pass(f"{name} ({models.models[name].display_name})")
    canon = _spelling_of(models, name)
    edits = _canonical_edit(lf, models, name, canon)
    if canon and models.canonical(name) == canon:
        return Fail(f"{name!r} is an older accepted spelling; the current id is {canon!r}", file=lf,
                    path=("model_name",), observed=name, expected=canon, severity=_warn(),
                    fix=f"Write `model_name: {canon}` (and name the model directory {canon}/).", edits=edits)
    if canon:
        return Fail(f"{name!r} is not a model id; it spells {canon!r} differently", file=lf, path=("model_name",),
                    observed=name, expected=canon, fix=f"Write `model_name: {canon}`.", edits=edits)
    return Fail(f"{name!r} is not a benchmark model of this round", file=lf, path=("model_name",), observed=name,
                expected=allowed)


def _canonical_edit(lf, models, name: str, canon: str | None) -> tuple:
    """The rename to the canonical id, when ``name`` is an alias of it or spells only that model's names."""
    if not canon or models.identify(name) != [canon]:
        return ()
    return (Edit(lf, ("model_name",), "value", canon, old=name, value=canon, plain=False),)


def _warn():
    from checker.core.findings import Severity

    return Severity.WARN


@rule(id="model-name-consistency", title="Model name consistency", clause="R§8.1", severity="flag", scope="point", needs=("point_yaml",), official=True)
def model_name_consistency(point, ctx):
    """point.yaml `model_name` equals the name of the model directory the point sits in.

    What it checks: `results/<system>/<model_name>/r<N>/` — the directory name and the declared
    `model_name` are the same string. When they differ only by spelling (llama3.1-8b vs
    llama3_1-8b) the fix names the canonical id for both.
    Why: R§8.1 — the bundle builder files points by model_name; the directory name is what the
    results pipeline publishes.
    How to fix: Rename the directory or the field so both read the canonical model id.
    """
    lf = point.files["point_yaml"]
    name, dirname = lf.get("model_name"), point.curve.name
    if not isinstance(name, str) or not name:
        return Skip("no usable model_name (see point-disclosure-complete / model-name-valid)", reason="missing-input")
    if name == dirname:
        return Pass(f"model_name {name} matches the directory")
    canon = None
    try:
        models = ctx.policy.get("models")
        a, b = _spelling_of(models, name), _spelling_of(models, dirname)
        canon = a if a and a == b else None
    except Exception:
        pass
    if canon is None and _norm(name) == _norm(dirname):
        canon = dirname
    if canon:
        return Fail(f"model_name {name!r} and directory {dirname!r}/ spell the same model differently", file=lf,
                    path=("model_name",), observed=name, expected=canon,
                    fix=f"Use the canonical id {canon!r} for both: `model_name: {canon}` in every point.yaml and "
                        f"results/<system>/{canon}/ as the directory.")
    return Fail(f"model_name {name!r} differs from its directory {dirname!r}/", file=lf, path=("model_name",),
                observed=name, expected=dirname)


@rule(id="point-disclosure-complete", title="Point disclosure complete", clause="R§8.3", severity="reject", scope="point", needs=("point_yaml", NEEDS), official=True,
      consequence_of=("unknown-key", "src-dir", "required-dir"))
def point_disclosure_complete(point, ctx):
    """point.yaml carries every required disclosure field, non-empty.

    What it checks: the fields listed in run_rules.yaml `disclosure.required_fields` (division,
    max_supported_concurrency, model_name, model_precision, link_to_model, dataset_name,
    dataset_type, dataset_link, shared_src, shared_docs, seed_set, target_cohort) are present and
    not null, blank or empty. Types are point-config-valid's business.
    Why: R§8.3 — the disclosure is the published record of how the point was run.
    How to fix: Add the missing fields to point.yaml (shared_src/shared_docs are injected by the
    bundle builder only when absent in a run folder).
    """
    lf = point.files["point_yaml"]
    required = ctx.policy.get("run_rules").disclosure.required_fields
    missing = []
    for f in required:
        v = lf.get(f)
        if v is None or (isinstance(v, str) and not v.strip()) or v in ([], {}):
            missing.append(f)
    if missing:
        hints = [(f, *missing_hint(lf, (), f)) for f in missing]
        spelt = [(f, text, p) for f, text, p in hints if p is not None]
        shown = ", ".join(f + text for f, text, _ in hints)
        fix = None
        edits: tuple = ()
        if spelt:
            fix = "Rename " + ", ".join(f"`{p[-1]}` to `{f}`" for f, _, p in spelt) + "."
            renames = [rename_for_missing(lf, (), f) for f, _, _ in spelt]
            edits = sum(renames, ()) if all(renames) and len(spelt) == len(missing) else ()
        return Fail(f"missing or empty: {shown}", file=lf, path=spelt[0][2] if spelt else (missing[0],),
                    observed=missing, expected=required, fix=fix, edits=edits)
    return Pass(f"all {len(required)} disclosure fields present")


@rule(id="point-system-desc-agreement", title="point.yaml agrees with system_desc.json", clause="R§8.2",
      severity="flag", scope="point", needs=("point_yaml", "system_desc"))
def point_system_desc_agreement(point, ctx):
    """point.yaml and the point's system_desc.json declare the same `division` and `max_supported_concurrency`.

    What it checks: both fields, where both files declare them (division compared without regard to
    case: files capitalise it, the CLI does not). Nothing to compare: SKIP.
    Why: both files carry the two values (R§8.2, R§8.3); the official checker uses only the
    system_desc copy, so a contradicting point.yaml goes unnoticed while C_max drives every region.
    How to fix: Make both files state the same division and C_max.
    """
    yf, sf = point.files["point_yaml"], point.files["system_desc"]
    diffs, compared = [], []
    for f in ("division", "max_supported_concurrency"):
        a, b = yf.get(f), sf.get(f)
        if a is None or b is None:
            continue
        compared.append(f)
        same = a.lower() == b.lower() if isinstance(a, str) and isinstance(b, str) else (a == b and type(a) is type(b))
        if not same:
            diffs.append((f, a, b))
    if not compared:
        return Skip("neither field is declared in both files", reason="missing-input")
    if diffs:
        f = diffs[0][0]
        return Fail("; ".join(f"{k}: point.yaml {show(a)} vs system_desc.json {show(b)}" for k, a, b in diffs),
                    file=yf, path=(f,), observed={k: a for k, a, _ in diffs}, expected={k: b for k, _, b in diffs})
    return Pass("point.yaml and system_desc.json agree on " + " and ".join(compared))


@rule(id="point-config-agreement", title="point.yaml agrees with what the client ran", clause="R§8.3",
      severity="flag", scope="point", needs=("point_yaml", "maybe:accuracy", "maybe:accuracy_legacy", "maybe:config", "maybe:result_summary"),
      consequence_of=("run-folder-concurrency-target",))
def point_config_agreement(point, ctx):
    """point.yaml agrees with the client's own records: config.yaml (when present) and the summary's run_config.

    What it checks: against config.yaml, `runtime_settings.load_pattern` vs
    `settings.load_pattern.type`, `concurrency` vs `settings.load_pattern.target_concurrency` and
    `stream_all_chunks` vs `settings.client.stream_all_chunks`; against result_summary.json
    `run_config`, the load pattern type and target concurrency. Target concurrency is not compared
    for a dedicated Offline point, nor with a config.yaml target of 1 where the point carries an
    accuracy run (an accuracy-only run rewrites it to 1; accuracy-concurrency judges that). Only
    values present on both sides are compared; nothing comparable: SKIP. The seeds are
    config-seeds-match's. The finding is on point.yaml: `observed` is what point.yaml says (keyed
    by its field), `expected` what the client ran (keyed by the file and field it was read from). A run at another concurrency
    than the point's directory and point.yaml both declare measured another point: only a re-run
    fixes it, and it rejects the point (reject-points, as run-folder-concurrency-target in a run
    folder: the same fact has the same severity in both modes).
    Why: config.yaml and run_config are what the client actually ran; point.yaml is hand-written
    and nothing derives one from the other (RULES.md §1.2). The official checker never reads them.
    How to fix: Correct point.yaml to what ran (or rerun the point with the declared settings).
    """
    yf = point.files["point_yaml"]
    offline = point.is_dedicated_offline
    target = [("target concurrency", ("concurrency",))]
    sources = []
    cf = point.files.get("config")
    if usable(cf):
        pairs = [("load pattern", ("runtime_settings", "load_pattern"), ("settings", "load_pattern", "type")),
                 ("stream_all_chunks", ("runtime_settings", "stream_all_chunks"),
                  ("settings", "client", "stream_all_chunks"))]
        rewritten = _has_accuracy(point) and cf.get("settings", "load_pattern", "target_concurrency") == 1
        if not offline and not rewritten:
            pairs += [(lab, yp, ("settings", "load_pattern", "target_concurrency")) for lab, yp in target]
        sources.append(("config.yaml", cf, pairs))
    sf = point.files.get("result_summary")
    if usable(sf) and isinstance(sf.get("run_config"), dict):
        pairs = [("load pattern", ("runtime_settings", "load_pattern"), ("run_config", "load_pattern", "type"))]
        if not offline:
            pairs += [(lab, yp, ("run_config", "load_pattern", "target_concurrency")) for lab, yp in target]
        sources.append(("result_summary.json", sf, pairs))
    diffs, compared = [], []
    for name, other, pairs in sources:
        for label, ypath, opath in pairs:
            a, b = yf.get(*ypath), other.get(*opath)
            if a is None or b is None:
                continue
            compared.append(f"{label} ({name})")
            if not (a == b and type(a) is type(b)):
                diffs.append((label, ypath, a, f"{name} {'.'.join(opath)}", b))
    if not compared:
        return Skip("nothing recorded in both point.yaml and config.yaml / run_config (config.yaml is optional)",
                    reason="missing-input")
    if diffs:
        return _agreement_fail(point, yf, diffs)
    return Pass(f"agrees on {len(compared)} settings with " + " and ".join(n for n, _, _ in sources))


def _agreement_fail(point, yf, diffs):
    """point-config-agreement's FAIL on point.yaml. A target concurrency the point's directory and point.yaml
    both contradict is a run at the wrong concurrency: a re-run fixes it, and it rejects the point."""
    declared = yf.get("concurrency")
    ran = [d for d in diffs if d[1] == ("concurrency",) and declared == point.dir_concurrency]
    shown = []
    for lab, yp, a, where, b in diffs:
        if lab == "target concurrency" and (lab, yp, a, where, b) in ran:
            if any(s.startswith(f"the run went at concurrency {show(b)} ") for s in shown):
                continue
            shown.append(f"the run went at concurrency {show(b)} ({where}), not the point's {show(a)}: only a "
                         "re-run at the point's concurrency fixes it")
        else:
            shown.append(f"{lab}: point.yaml {'.'.join(yp)} is {show(a)}, the client ran {show(b)} ({where})")
    # what point.yaml holds and what the client ran, each keyed by the file it was read from; for a run at the wrong
    # concurrency the other way round: what ran (the client's record) and what should have run (point.yaml's)
    observed = {(d[3] if d in ran else f"point.yaml {'.'.join(d[1])}"): (d[4] if d in ran else d[2]) for d in diffs}
    expected = {(f"point.yaml {'.'.join(d[1])}" if d in ran else d[3]): (d[2] if d in ran else d[4]) for d in diffs}
    if ran:
        conc = ran[0][2]
        return Fail("; ".join(shown), file=yf, path=diffs[0][1], observed=observed, expected=expected,
                    severity=Severity.REJECT_POINTS,
                    fix=f"Re-run the point at concurrency {show(conc)} (`target_concurrency: {show(conc)}`) and copy "
                        "the new run's files; config.yaml and result_summary.json are the client's record of the run "
                        "and are never edited.")
    return Fail("; ".join(shown), file=yf, path=diffs[0][1], observed=observed, expected=expected)


def _has_accuracy(point) -> bool:
    return any(point.files.get(k) is not None and point.files[k].exists for k in ("accuracy", "accuracy_legacy"))
