"""The ``run_rules.yaml`` policy schema and helpers the run-procedure rules share.

Helpers read values defensively: a rule gets (value, problem) pairs instead of exceptions, so a
string, NaN or list where a number belongs becomes a finding, never a crash.
"""
from __future__ import annotations

from pydantic import Field

import math
from typing import Any, Optional


from checker.core.values import file_value, is_int, loaded_mapping, show
from checker.domain.benchmark import is_agentic
from rules.shared.strict import StrictModel as _Strict


class Durations(_Strict):
    """Minimum steady-state duration by concurrency (R§6.2)."""

    ultra_low_max_concurrency: int = Field(description="the ultra_low band's highest concurrency")
    ultra_low_min_s: float = Field(description="minimum seconds at or below it")
    above_min_s: float = Field(description="minimum seconds above it (margin and dedicated Offline points included)")
    agentic_above_min_s: float = Field(description="minimum seconds for agentic points above it")


class LoadPatterns(_Strict):
    """The load patterns a point may run (R§6.1)."""

    single_turn: list[str] = Field(description="patterns of a single-turn point (a dedicated Offline run is exempt)")
    agentic: list[str] = Field(description="patterns of an agentic point")


class Streaming(_Strict):
    """What the client's streaming setting must resolve to (R§6.5)."""

    accepted: list[Any] = Field(description="values that mean streaming on")
    auto: list[str] = Field([], description="unresolved values the client turns into on for online runs")


class WarmupPolicy(_Strict):
    """Warmup requirements (R§6.3)."""

    max_duration_s: float = Field(description="longest warmup allowed per point, seconds")
    required_fields: list[str] = Field(description="point.yaml warmup fields that must be declared (R§6.3.3)")


class SteadyStatePolicy(_Strict):
    """The steady-state vocabulary and thresholds (R§4.4)."""

    statuses: list[str] = Field(description="values steady_state.status may take")
    verdicts: list[str] = Field(description="values steady_state.verdict may take")
    accepted_verdicts: list[str] = Field(description="verdicts a reported point may carry")
    drifting_verdicts: list[str] = Field(description="verdicts that mean the metrics drift")
    no_window_verdicts: list[str] = Field(description="verdicts that mean no window was found")
    metric_states: list[str] = Field(description="values a per-metric state may take")
    gating_metric_prefixes: list[str] = Field(
        description="state keys starting so are gating metrics (TPOT P50 and P90)")
    disqualifying_states: list[str] = Field(description="gating-metric states that disqualify the point")
    min_super_passes: int = Field(description="fewest super-passes a window may span")


class Disclosure(_Strict):
    """What point.yaml must disclose (R§8.3)."""

    required_fields: list[str] = Field(description="fields point-disclosure-complete requires present and non-empty")


class RunRulesPolicy(_Strict):
    """Run requirements per point: durations, load patterns, streaming, warmup, steady state, disclosure."""

    schema_version: int = Field(description="version of this file's layout")
    durations: Durations = Field(description="minimum durations (R§6.2)")
    load_patterns: LoadPatterns = Field(description="allowed load patterns (R§6.1)")
    streaming: Streaming = Field(description="streaming requirement (R§6.5)")
    warmup: WarmupPolicy = Field(description="warmup requirements (R§6.3)")
    steady_state: SteadyStatePolicy = Field(description="steady-state vocabulary and thresholds (R§4.4)")
    disclosure: Disclosure = Field(description="point.yaml disclosure requirements (R§8.3)")


NEEDS = "policy:run_rules"


# ---------------------------------------------------------------- value helpers


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def number_problem(v: Any, allow_zero: bool = True) -> str | None:
    """Why ``v`` is not a usable non-negative finite number (None when it is)."""
    if not is_number(v):
        return f"is {show(v)}, not a number"
    if isinstance(v, float) and not math.isfinite(v):
        return f"is {show(v)}"
    if v < 0:
        return f"is negative ({v})"
    if v == 0 and not allow_zero:
        return "is zero"
    return None


# ---------------------------------------------------------------- point helpers

def usable(lf) -> bool:
    return loaded_mapping(lf) is not None


def model_type(point, ctx) -> str | None:
    """"agentic" / "single-turn" from models.yaml for the point's model (model_name, else directory)."""
    try:
        models = ctx.policy.get("models")
    except Exception:
        return None
    mid = point_model(point, ctx)
    return models.models[mid].type if mid else None


def minimum_duration(point, ctx) -> tuple[float | None, str]:
    """(minimum seconds, why) for this point: R§6.2 by `concurrency <= 32` vs above (policy data)."""
    d = ctx.policy.get("run_rules").durations
    c = point.concurrency
    if not is_int(c) or c <= 0:
        return None, "the point's concurrency is unknown"
    if c <= d.ultra_low_max_concurrency:
        return d.ultra_low_min_s, f"concurrency {c} <= {d.ultra_low_max_concurrency} (ultra_low)"
    if is_agentic(point.curve, ctx.policy.get("models")):
        return d.agentic_above_min_s, f"agentic point, concurrency {c} > {d.ultra_low_max_concurrency}"
    what = "dedicated Offline point" if point.is_dedicated_offline else f"concurrency {c}"
    return d.above_min_s, f"{what} > {d.ultra_low_max_concurrency}"


def point_model(point, ctx) -> str | None:
    """Canonical benchmark model of a point: point.yaml model_name, else the curve directory."""
    models = ctx.policy.get("models")
    y = point.yaml
    return models.canonical(y.model_name if y is not None else None) or models.canonical(point.curve.name)


def declares_models_dataset(ctx, mid: str, name) -> bool:
    """True when ``name`` spells the benchmark model's performance or accuracy dataset."""
    m = ctx.policy.get("models").models[mid]
    key = canonical_dataset(ctx, name)
    for d in (m.performance_dataset, m.accuracy_dataset):
        if d is not None and (name == d.name or name in d.aliases or key == d.name):
            return True
    return False


def dataset_pass_size(point, ctx) -> tuple[int | None, str]:
    """(samples in one dataset pass, how it was found) from models.yaml.

    The benchmark model fixes its dataset (RULES.md §11): when the point's model is known its
    performance dataset's size is used, whatever point.yaml `dataset` says (a dataset that is not
    the model's is dataset-matches-model's FAIL), so an unknown name never makes the count rules
    fail open. Only when the model is unknown is the declared `dataset` looked up. A WG-approved
    ultra_low subset (`n_samples_from_dataset`, R§6.5) replaces the size at concurrency <= 32 only.
    """
    models = ctx.policy.get("models")
    y = point.yaml
    name = y.dataset if y is not None else None
    mid = point_model(point, ctx)
    if mid is not None:
        d = models.models[mid].performance_dataset
        size, label = d.size, f"{mid}'s dataset {d.name!r}"
        if name and not declares_models_dataset(ctx, mid, name):
            label += f" (point.yaml declares {show(name)}: see dataset-matches-model)"
    else:
        if not name:
            return None, "the benchmark model is unknown and point.yaml declares no `dataset`"
        size = models.dataset_size(name)
        if size is None:
            return None, (f"the benchmark model is unknown and dataset {name!r} is not in the policy's dataset "
                          "table (models.yaml)")
        label = f"dataset {name!r}"
    sub = y.n_samples_from_dataset if y is not None else None
    c = point.concurrency
    ul = ctx.policy.get("run_rules").durations.ultra_low_max_concurrency
    if is_int(sub) and 0 < sub < size and is_int(c) and c <= ul:
        return sub, f"ultra_low subset n_samples_from_dataset={sub} of {label} ({size})"
    return size, f"{label} has {size} samples"


def stream_flag(point) -> tuple[Any, str]:
    """The recorded `stream_all_chunks` value and where it came from (evidence only)."""
    v = file_value(point, "point_yaml", "runtime_settings", "stream_all_chunks")
    if v is not None:
        return v, "point.yaml runtime_settings.stream_all_chunks"
    v = file_value(point, "config", "settings", "client", "stream_all_chunks")
    if v is not None:
        return v, "config.yaml settings.client.stream_all_chunks"
    return None, "not recorded"


def canonical_dataset(ctx, name: Optional[str]) -> Optional[str]:
    """The models.yaml dataset key for a dataset name or alias (None when unknown)."""
    if not name:
        return None
    models = ctx.policy.get("models")
    for key, d in models.datasets.items():
        if name == key or name == d.name or name in d.aliases:
            return key
    return None
