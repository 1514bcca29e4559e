"""What a run folder proves about its point, as the entries of a point.yaml (R§8.3).

Each value comes from a file the client wrote (config.yaml, performance/result_summary.json,
events.jsonl), from the submitter's system_desc.json beside it, or from the policy (the model's
dataset, the seed set the seeds belong to, the R§5.5 regions); its comment says which. What only a
person can disclose (links, precision, model equivalence, notes, the cohort) is a marked placeholder
(``checker.core.placeholders``): a quoted string where the field is a string, a commented line where
it is not, so the file always reads as valid YAML and the check reports each one.
"""
from __future__ import annotations

import os

from checker.core.placeholders import placeholder
from checker.core.values import is_int, loaded_mapping, value_at
from checker.domain.regions import RegionInputError, ULTRA_LOW_MAX, compute_regions
from checker.draft.entries import Context, Entry, block, comment, commented, fill, value
from checker.draft.steady import from_detector, from_passes
from checker.load.models.client_config import config_load_pattern, loaded_config

#: fields copied from a --template point.yaml when it fills them (what only a person can disclose)
PERSONAL = (("dataset_name",), ("dataset_link",), ("model_precision",), ("link_to_model",),
            ("link_to_model_transformation",), ("model_notes",), ("target_cohort",), ("division",),
            ("warmup", "initialization_steps"), ("shared_src",), ("shared_docs",))


def _data(rf, kind: str) -> dict:
    return loaded_mapping(rf.files.get(kind)) or {}


def concurrency_of(rf) -> int | None:
    """The fixed concurrency the run used (config.yaml), None for any other load pattern or an accuracy-only run."""
    lp = config_load_pattern(rf.files.get("config"))
    if lp is None or lp.type not in ("concurrency", "agentic_inference"):
        return None
    c = lp.target_concurrency
    return c if c is not None and c > 0 and not accuracy_only(rf) else None


def accuracy_only(rf) -> bool:
    summary = _data(rf, "result_summary")
    issued = summary.get("n_samples_issued")
    acc = rf.files.get("accuracy")
    return (not is_int(issued) or issued == 0) and acc is not None and acc.exists


def draft_entries(rf, audit, ctx: Context) -> list[Entry]:
    """The point.yaml entries for run folder ``rf`` (its events audit ``audit``, or None)."""
    cfg = _data(rf, "config")
    summary = _data(rf, "result_summary")
    sysdesc = _data(rf, "system_desc")
    settings = cfg.get("settings") if isinstance(cfg.get("settings"), dict) else {}
    lp = settings.get("load_pattern") if isinstance(settings.get("load_pattern"), dict) else {}
    pattern = lp.get("type")
    models = ctx.policy.get("models")
    model = _model(cfg, models)
    info = models.models[model] if model else None
    agentic = info is not None and info.type == "agentic"
    offline = pattern == "max_throughput"
    size = ctx.dataset_size or (info.performance_dataset.size if info is not None else None)
    c = concurrency_of(rf)
    out: list[Entry] = []

    if accuracy_only(rf):
        out.append(commented("concurrency", "the concurrency of the performance point this accuracy run belongs to "
                                            "(--accuracy-only runs single-stream, so config.yaml says 1)"))
    elif c is not None:
        out.append(value("concurrency", c, "config.yaml settings.load_pattern.target_concurrency"))
    elif offline and size:
        out.append(value("concurrency", size, "the dedicated Offline run: the performance dataset's size (R§8.1)"))
    else:
        out.append(commented("concurrency", f"load pattern {pattern!r} has no fixed concurrency: a Pareto point "
                                            "runs at one (R§6.1); re-run the point with the concurrency pattern"))
    c_max = sysdesc.get("max_supported_concurrency") if is_int(sysdesc.get("max_supported_concurrency")) else ctx.c_max
    out.append(_region(c, c_max, sysdesc, ctx, offline))
    if not agentic:
        out.append(value("offline", "dedicated", "load pattern max_throughput") if offline else
                   value("offline", "none", "or elected: the C_max point you elect as the Offline result (R§5.7)"))
    out += _dataset(info, rf)
    div = sysdesc.get("division")
    out.append(value("division", div, "system_desc.json") if isinstance(div, str) and div else
               fill("division", "Standardized, Serviced or RDI (as in system_desc.json)"))
    if is_int(c_max):
        out.append(value("max_supported_concurrency", c_max,
                         "system_desc.json" if is_int(sysdesc.get("max_supported_concurrency")) else "--max-concurrency"))
    else:
        out.append(commented("max_supported_concurrency", "C_max, an integer above 32 (as in system_desc.json)"))
    served = value_at(cfg, ("model_params", "name"))
    out.append(value("model_name", model, f"config.yaml serves {served!r}") if model else
               fill("model_name", f"the benchmark's canonical model id (one of {', '.join(sorted(models.models))}); "
                                  f"the run served {served!r}"))
    out += [fill("model_precision", "the lowest numeric format of the weights, e.g. FP8"),
            fill("link_to_model", "an http(s) link to the submitted model"),
            fill("link_to_model_transformation", "a link to how the weights were quantized or otherwise transformed "
                                                 "(delete the line if they were not)"),
            fill("model_notes", "free-form notes on the model (delete the line if you have none)")]
    out += _seed_set(cfg, ctx)
    out.append(fill("target_cohort", "the cohort you submit into, YYYY-MM-C0 or YYYY-MM-C1"))
    out.append(comment("shared_src and shared_docs are left out: `submissions create` injects them"))
    typed = loaded_config(rf.files.get("config"))
    out.append(_runtime(typed.settings if typed is not None else None, pattern, ctx))
    out.append(_warmup(settings, audit, c, rf))
    out.append(_equivalence(cfg))
    if not agentic and not offline:
        detector = rf.files.get("steady_state_json")
        drafted = from_detector(detector.model, summary, audit, c, ctx) if (
            detector is not None and detector.ok and detector.model is not None and detector.model.steady_state) else None
        out += [drafted] if drafted is not None else from_passes(summary, audit, size, ctx)
    return _apply_template(out, ctx.template)


def _model(cfg: dict, models) -> str | None:
    """The benchmark model the run served, when its names spell exactly one (model_params.name, submission_ref)."""
    for name in (value_at(cfg, ("model_params", "name")), value_at(cfg, ("submission_ref", "model"))):
        ids = models.identify(name) if isinstance(name, str) else []
        if len(ids) == 1:
            return ids[0]
    return None


def _region(c, c_max, sysdesc, ctx: Context, offline: bool) -> Entry:
    if offline:
        return comment("region: none for the dedicated Offline run (R§5.7.2)")
    override = sysdesc.get("c_min_override")
    c_min = override if is_int(override) else (min(ctx.c_min, ULTRA_LOW_MAX) if ctx.c_min else None)
    why = "low_latency, low_concurrency, med_concurrency, high_concurrency or submitters_choice"
    if c is None or not is_int(c_max) or c_min is None:
        need = "C_max (system_desc.json or --max-concurrency)" if not is_int(c_max) else "the point's concurrency"
        return fill("region", f"{why} (computing it needs {need})")
    try:
        name = compute_regions(c_max, c_min).region_of(c)
    except (RegionInputError, OverflowError, ValueError):
        name = None
    if name is None:
        return fill("region", f"{why} (concurrency {c} is outside every region of C_max {c_max})")
    basis = "c_min_override" if is_int(override) else "the lowest concurrency drafted with it"
    return value("region", name, f"R§5.5 with C_max {c_max}, C_min {c_min} ({basis}); check --fix corrects it on "
                                 "the assembled curve")


def _dataset(info, rf) -> list[Entry]:
    kind = "Accuracy" if accuracy_only(rf) else "Performance"
    acc = rf.files.get("accuracy")
    note = "accuracy/ only" if kind == "Accuracy" else (
        "performance/result_summary.json (accuracy/ rides along)" if acc is not None and acc.exists else
        "performance/result_summary.json")
    out = [value("dataset", info.performance_dataset.name, "the model's performance dataset (models.yaml)") if info
           else fill("dataset", "the benchmark dataset id, e.g. cnn_dailymail")]
    out.append(fill("dataset_name", "the dataset's display name, e.g. CNN/DailyMail 3.0.0 validation"))
    out.append(value("dataset_type", kind, note))
    out.append(fill("dataset_link", "an http(s) link to the dataset"))
    return out


def _seed_set(cfg: dict, ctx: Context) -> list[Entry]:
    sched = value_at(cfg, ("settings", "runtime", "scheduler_random_seed"))
    loader = value_at(cfg, ("settings", "runtime", "dataloader_random_seed"))
    found = _set_of(sched, loader, ctx)
    if found is not None:
        return [value("seed_set", found.id, "config.yaml's seeds are this set's")]
    return [fill("seed_set", f"the id of the seed set your submission binds (e.g. A); the run's seeds ({sched}, "
                             f"{loader}) are no published set's, so the point needs a re-run with that set's seeds "
                             "(R§2.1.1)")]


def _set_of(sched, loader, ctx: Context):
    if not (is_int(sched) and is_int(loader)) or not ctx.policy.available("seed_sets"):
        return None
    hits = [e for e in ctx.policy.get("seed_sets").entries
            if e.scheduler_rng_seed == sched and e.sample_index_rng_seed == loader]
    return hits[0] if len(hits) == 1 else None


def _runtime(settings, pattern, ctx: Context) -> Entry:
    """runtime_settings from config.yaml's typed settings (``ClientConfig``; a wrong-typed value reads as absent)."""
    rt, client, warm = (getattr(settings, k, None) for k in ("runtime", "client", "warmup"))
    kids = [value("load_pattern", pattern, "config.yaml settings.load_pattern.type") if isinstance(pattern, str)
            else fill("load_pattern", "the load pattern the run used")]
    if client is not None and client.stream_all_chunks is not None:
        kids.append(value("stream_all_chunks", client.stream_all_chunks, "settings.client.stream_all_chunks"))
    if rt is not None and rt.min_duration_ms is not None:
        kids.append(value("min_duration_ms", rt.min_duration_ms, "settings.runtime.min_duration_ms"))
    seeds = []
    for key, name in (("scheduler_rng_seed", "scheduler_random_seed"), ("sample_index_rng_seed", "dataloader_random_seed")):
        if getattr(rt, name, None) is not None:
            seeds.append(value(key, getattr(rt, name), f"settings.runtime.{name}"))
        else:
            seeds.append(commented(key, f"the seed the run used (config.yaml records no {name})"))
    found = _set_of(getattr(rt, "scheduler_random_seed", None), getattr(rt, "dataloader_random_seed", None), ctx)
    if found is not None:
        seeds.append(value("model_seed", found.model_seed, f"set {found.id}'s: the server applies it, no run file "
                                                            "records it"))
    else:
        seeds.append(commented("model_seed", "the model seed the server used (no run file records it)"))
    kids.append(block("runtime", seeds))
    if warm is not None and warm.salt is not None:
        kids.append(block("warmup", [value("salt", warm.salt, "settings.warmup.salt")]))
    return block("runtime_settings", kids)


def _warmup(settings: dict, audit, c, rf) -> Entry:
    warm = settings.get("warmup") if isinstance(settings.get("warmup"), dict) else {}
    events = os.path.isfile(os.path.join(rf.abspath, "events.jsonl"))
    steps = Entry("initialization_steps", [placeholder("each start-up step (engine load, CUDA graph capture, ...) "
                                                       "and that it finished before the run")], "", "fill")
    ran = audit.warmup_issued if audit is not None and audit.error is None else None
    if warm.get("enabled") is not True or ran == 0:
        why = "settings.warmup.enabled is false" if warm.get("enabled") is not True else "events.jsonl: none issued"
        kids = [value("duration_s", 0.0, why), value("requests_issued", 0), value("requests_completed", 0),
                value("data_source", "none (no warmup ran)"), value("concurrency", 0), steps]
        if events:
            kids.append(value("logs_retained", True, "events.jsonl is kept in the run folder"))
        return block("warmup", kids)
    kids = []
    if audit is not None and audit.error is None and audit.warmup_span_ns is not None:
        kids.append(value("duration_s", round(audit.warmup_span_ns / 1e9, 3), "events.jsonl: first warmup request "
                                                                              "to the start of tracking"))
    else:
        kids.append(commented("duration_s", "seconds from the first warmup request to the start of the run"))
    if ran is not None:
        kids.append(value("requests_issued", ran, "events.jsonl"))
        kids.append(value("requests_completed", audit.warmup_answered, "events.jsonl: warmup requests answered"))
    else:
        n = warm.get("n_requests")
        kids.append(value("requests_issued", n, "settings.warmup.n_requests") if is_int(n) else
                    commented("requests_issued", "warmup requests issued"))
        kids.append(commented("requests_completed", "warmup requests completed"))
    path = None
    datasets = value_at(_data(rf, "config"), ("datasets",))
    if isinstance(datasets, list):
        perf = [d for d in datasets if isinstance(d, dict) and d.get("type") == "performance"]
        path = perf[0].get("name") or perf[0].get("path") if perf else None
    salt = warm.get("salt")
    source = f"the performance dataset ({path})" if path else "the performance dataset"
    kids.append(value("data_source", f"{source}, prompts {'salted' if salt else 'not salted'} (the client warms up on "
                                     "the performance dataset)", "config.yaml settings.warmup"))
    kids.append(value("concurrency", c, "the run's load pattern (the client warms up with it)") if c is not None
                else commented("concurrency", "the warmup's concurrency"))
    kids.append(steps)
    if events:
        kids.append(value("logs_retained", True, "events.jsonl, warmup included, is kept in the run folder"))
    else:
        kids.append(commented("logs_retained", "true when the warmup logs are kept (this folder has no events.jsonl)"))
    kids.append(fill("link_logs", "a link to the retained warmup logs (delete the line if you give none)"))
    return block("warmup", kids)


#: client model_params -> model_equivalence.sampling key (what ran, compared with the benchmark's fixed values)
SAMPLING = (("temperature", "temperature"), ("top_k", "top_k"), ("top_p", "top_p"),
            ("repetition_penalty", "repetition_penalty"), ("max_new_tokens", "max_output_tokens"))


def _equivalence(cfg: dict) -> Entry:
    mp = cfg.get("model_params") if isinstance(cfg.get("model_params"), dict) else {}
    sampling = [value(out, mp[key], f"model_params.{key}") for key, out in SAMPLING
                if isinstance(mp.get(key), (int, float)) and not isinstance(mp.get(key), bool)]
    kids = [block("checkpoint", [fill("source", "canonical (the reference weights as published) or derived"),
                                 fill("checksum", "sha256: and the 64 hex digits of the served weights")]),
            block("kv_cache", [fill("precision", "the KV cache's precision: BF16 or FP16, or a reduced one with its "
                                                 "quantization_method"),
                               fill("compression", "none, or the compression method with a disclosure_url")]),
            comment("quantization (a derived checkpoint), techniques, chat_template_flags: see "
                    "schemas/point.schema.json")]
    if sampling:
        kids.append(block("sampling", sampling, "what the client sent (config.yaml)"))
    return block("model_equivalence", kids)


def _apply_template(entries: list[Entry], template: dict | None) -> list[Entry]:
    """Fill the placeholders a filled point.yaml (--template) answers, for the fields only a person discloses."""
    if not template:
        return entries
    from checker.core.placeholders import MARK

    def walk(items, prefix):
        out = []
        for e in items:
            path = prefix + (e.key,)
            got = value_at(template, path)
            if e.kind == "block" and e.key == "model_equivalence" and isinstance(got, dict):
                kept = [k for k in e.children if k.key == "sampling"]
                copied = [_from_template(k, v) for k, v in got.items() if k != "sampling"]
                out.append(block(e.key, copied + kept, "from the template"))
            elif e.kind == "block":
                out.append(block(e.key, walk(e.children, path), e.note))
            elif path in PERSONAL and got is not None and MARK not in str(got):
                out.append(value(e.key, got, "from the template"))
            else:
                out.append(e)
        return out
    return walk(entries, ())


def _from_template(key, v) -> Entry:
    if isinstance(v, dict):
        return block(key, [_from_template(k, x) for k, x in v.items()])
    return value(key, v)
