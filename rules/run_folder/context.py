"""Shared facts for the run-folder rules: the policy model, the optional context, the run's kind.

Context comes from, in order: command-line options (``--point``, ``--max-concurrency``,
``--seed-set``, ``--dataset-size``), files beside the folder (point.yaml, system_desc.json), then
policy data. Each helper returns ``(value, where)`` or ``(None, why-not)`` so a SKIP can name the
flag that would enable the check.
"""
from __future__ import annotations

from pydantic import Field

import math
from typing import Optional

from checker.load.models.client_config import config_model_name
from checker.core.values import is_int, loaded_mapping
from rules.shared.strict import StrictModel as _Strict


class MinDuration(_Strict):
    """Minimum run duration by region, in seconds (R§6.2)."""

    ultra_low: int = Field(description="points at or below ultra_low_max_concurrency")
    other: int = Field(description="every other point")


class Tolerances(_Strict):
    """How closely events.jsonl, result_summary.json and metrics/final_snapshot.json must agree."""

    count: int = Field(description="sample counts: allowed difference")
    duration_ns: int = Field(description="run duration: allowed difference, nanoseconds")
    latency_rel: float = Field(description="latency percentiles: allowed relative difference")
    latency_abs_ns: int = Field(description="latency percentiles: allowed absolute difference, nanoseconds")
    timestamp_backstep_ns: int = Field(
        description="largest step back in time between consecutive events before the log counts as reordered")


class RunFolderPolicy(_Strict):
    """Run-folder thresholds (R§6), agreement tolerances and the published seed sets."""

    schema_version: int = Field(description="version of this file's layout")
    #: what `runs create` needs of the client's files (performance/result_summary.json is added by the rule)
    required_files: list[str] = Field(
        description="client files `runs create` needs (performance/result_summary.json is required separately)")
    #: what the audits read; a missing one is a warning naming what could not be audited
    audit_files: list[str] = Field(
        description="files the audits read; a missing one is a warning naming what could not be audited")
    external_scorers: list[str] = Field(
        description="accuracy scorers that evaluate outside the client: their datasets need no accuracy_results.json")
    min_duration_s: MinDuration = Field(description="minimum run duration by region (R§6.2)")
    ultra_low_max_concurrency: int = Field(description="the ultra_low band's highest concurrency")
    warmup_max_s: int = Field(description="longest warmup allowed per point, seconds (R§6.3)")
    tolerances: Tolerances = Field(description="agreement tolerances between the client's files")
    secret_key_patterns: list[str] = Field(
        description="regular expressions of config.yaml keys holding credentials: their value must be \"<redacted>\"")
    #: pre-flight: plan min_duration_ms at least this fraction above the region minimum (the minimum is
    #: judged on the steady-state window, which excludes ramp-up and drain)
    duration_margin: float = Field(
        0.1, description="pre-flight: plan min_duration_ms at least this fraction above the region minimum")


from rules.shared.run_checks import FIXED_PATTERNS, SEED_KEYS  # noqa: E402,F401  (the shared run-constraint kernels)



def is_num(v) -> bool:
    return (isinstance(v, (int, float)) and not isinstance(v, bool)) and math.isfinite(v)


def summary(rf):
    return loaded_mapping(rf.files.get("result_summary"))


def config(rf):
    return loaded_mapping(rf.files.get("config"))


def point(rf):
    """The typed point.yaml (beside the folder or --point), or None."""
    lf = rf.files.get("point_yaml")
    return lf.model if lf is not None and lf.ok else None


def run_kind(rf) -> str:
    """performance | accuracy-only | unknown (RUN-FOLDER.md §7.1: an empty summary is not a perf run)."""
    s = summary(rf)
    acc = rf.files.get("accuracy")
    if s is not None:
        issued = s.data.get("n_samples_issued")
        if is_int(issued) and issued > 0:
            return "performance"
        if issued == 0 and s.data.get("duration_ns") is None:
            return "accuracy-only" if acc is not None and acc.exists else "empty"
    audit = rf.events_audit
    if audit is not None and audit.error is None:
        if audit.has_tracking:
            return "performance"
        if audit.post_issued:
            return "accuracy-only"
    return "unknown"


def load_pattern(rf) -> tuple[Optional[str], Optional[int]]:
    """(type, target_concurrency) as config.yaml records them, else as run_config does."""
    c = config(rf)
    if c is not None and isinstance(c.get("settings", "load_pattern"), dict):
        return c.get("settings", "load_pattern", "type"), c.get("settings", "load_pattern", "target_concurrency")
    s = summary(rf)
    if s is not None and isinstance(s.get("run_config", "load_pattern"), dict):
        return s.get("run_config", "load_pattern", "type"), s.get("run_config", "load_pattern", "target_concurrency")
    return None, None


def declared_offline(rf) -> bool:
    p = point(rf)
    return p is not None and p.offline == "dedicated"


def c_max(rf, ctx) -> tuple[Optional[int], str]:
    v = ctx.opt("max_concurrency")
    if is_int(v):
        return v, "--max-concurrency"
    lf = rf.files.get("system_desc")
    if lf is not None and lf.model is not None and is_int(lf.model.max_supported_concurrency):
        return lf.model.max_supported_concurrency, lf.rel
    return None, "no C_max: give --max-concurrency or put system_desc.json beside the folder"


def region_minimum(rf, ctx, concurrency: int, pol) -> tuple[str, int]:
    """(region label, minimum seconds) for a fixed-concurrency run (R§6.2).

    The minimum only depends on ultra_low (<= 32, as RULES.md's digest reads R§6.2) or not; above
    32, C_max (and C_min: system_desc.json's c_min_override, else 1, since one run folder cannot
    show the curve's lowest point) only name the region in the message.
    """
    if concurrency <= pol.ultra_low_max_concurrency:
        return f"ultra_low (concurrency {concurrency} <= {pol.ultra_low_max_concurrency})", pol.min_duration_s.ultra_low
    cmax, _ = c_max(rf, ctx)
    name = None
    if cmax is not None and cmax > pol.ultra_low_max_concurrency:
        from checker.domain.regions import RegionInputError, compute_regions

        lf = rf.files.get("system_desc")
        cmin = lf.model.c_min_override if lf is not None and lf.model is not None else None
        note = "" if is_int(cmin) else ", C_min assumed 1"
        try:
            regions = compute_regions(cmax, cmin if is_int(cmin) else 1)
            name = f"{regions.region_of(concurrency) or 'out of range (above the margin)'} of C_max {cmax}{note}"
        except RegionInputError:
            name = None
    return (name or "low_concurrency, med_concurrency or high_concurrency (give --max-concurrency to name the "
                    "region)"), pol.min_duration_s.other


def dataset_size(rf, ctx) -> tuple[Optional[int], str]:
    """Performance dataset size: --dataset-size, then policy data by dataset or model name."""
    v = ctx.opt("dataset_size")
    if is_int(v):
        return v, "--dataset-size"
    if ctx.policy.available("models"):
        # the benchmark model fixes its dataset: a known model decides the size, whatever `dataset` says
        models = ctx.policy.get("models")
        p = point(rf)
        names = [p.model_name if p is not None else None, config_model_name(rf.files.get("config"))]
        for name in (n if isinstance(n, str) else None for n in names):  # a list or mapping names no model
            mid = models.canonical(name) or next((k for k, m in models.models.items() if name and m.hf_id == name), None)
            if mid:
                d = models.models[mid].performance_dataset
                return d.size, f"policy models.yaml (model {mid}, dataset {d.name!r})"
        if p is not None:
            size = models.dataset_size(p.dataset)
            if size:
                return size, f"policy models.yaml (dataset {p.dataset!r})"
    return None, "dataset size unknown: give --dataset-size, or a point.yaml naming the model or the dataset"


def idx_map(rf):
    """The sample_idx_map.json summary (checker.load.sample_map.IdxMap) when it was read cleanly, else None."""
    m = rf.idx_map
    return m if m is not None and m.error is None else None


def idx_map_lower_bound(rf) -> Optional[int]:
    """Rows the performance dataset has at least (largest index in sample_idx_map + 1)."""
    m = idx_map(rf)
    top = m.max_index("performance") if m is not None else None
    return top + 1 if top is not None else None


def seed_set(rf, ctx) -> tuple[Optional[str], str]:
    v = ctx.opt("seed_set")
    if v:
        return str(v), "--seed-set"
    p = point(rf)
    if p is not None and p.seed_set:
        return p.seed_set, "point.yaml seed_set"
    return None, "no bound seed set: give --seed-set ID or a point.yaml with seed_set"


def within(observed, expected, rel: float, abs_: float) -> bool:
    if not is_num(observed) or not is_num(expected):
        return False
    return abs(observed - expected) <= max(abs_, rel * abs(expected))
