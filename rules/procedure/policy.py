"""The ``run_rules.yaml`` policy schema and helpers the run-procedure rules share.

Helpers read values defensively: a rule gets (value, problem) pairs instead of exceptions, so a
string, NaN or list where a number belongs becomes a finding, never a crash.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from pydantic import BaseModel, ConfigDict


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)


class Durations(_Strict):
    ultra_low_max_concurrency: int
    ultra_low_min_s: float
    above_min_s: float
    agentic_above_min_s: float


class LoadPatterns(_Strict):
    single_turn: list[str]
    agentic: list[str]


class Streaming(_Strict):
    accepted: list[Any]
    auto: list[str] = []


class WarmupPolicy(_Strict):
    max_duration_s: float
    required_fields: list[str]


class SteadyStatePolicy(_Strict):
    statuses: list[str]
    verdicts: list[str]
    accepted_verdicts: list[str]
    drifting_verdicts: list[str]
    no_window_verdicts: list[str]
    metric_states: list[str]
    gating_metric_prefixes: list[str]
    disqualifying_states: list[str]
    min_super_passes: int


class Disclosure(_Strict):
    required_fields: list[str]


class RunRulesPolicy(_Strict):
    """Run requirements per point: durations, load patterns, streaming, warmup, steady state, disclosure."""

    schema_version: int
    durations: Durations
    load_patterns: LoadPatterns
    streaming: Streaming
    warmup: WarmupPolicy
    steady_state: SteadyStatePolicy
    disclosure: Disclosure


NEEDS = "policy:run_rules"


# ---------------------------------------------------------------- value helpers

def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def describe(v: Any) -> str:
    """A short description of an unusable value for a message."""
    from checker.load.models import brief

    if v is None:
        return "null"
    if isinstance(v, float) and not math.isfinite(v):
        return "NaN" if math.isnan(v) else ("infinity" if v > 0 else "-infinity")
    return brief(v)


def number_problem(v: Any, allow_zero: bool = True) -> str | None:
    """Why ``v`` is not a usable non-negative finite number (None when it is)."""
    if not is_number(v):
        return f"is {describe(v)}, not a number"
    if isinstance(v, float) and not math.isfinite(v):
        return f"is {describe(v)}"
    if v < 0:
        return f"is negative ({v})"
    if v == 0 and not allow_zero:
        return "is zero"
    return None


# ---------------------------------------------------------------- point helpers

def raw(point, kind: str, *path: Any, default: Any = None) -> Any:
    lf = point.files.get(kind)
    if lf is None or not lf.ok:
        return default
    return lf.get(*path, default=default)


def usable(lf) -> bool:
    return lf is not None and lf.ok and isinstance(lf.data, dict)


def model_type(point, ctx) -> str | None:
    """"agentic" / "single-turn" from models.yaml for the point's model (model_name, else directory)."""
    try:
        models = ctx.policy.get("models")
    except Exception:
        return None
    y = point.yaml
    mid = models.canonical(y.model_name if y is not None else None) or models.canonical(point.curve.name)
    return models.models[mid].type if mid else None


def is_agentic(point, ctx) -> bool:
    """Agentic when the curve is (all points agentic_inference) or its model is an agentic benchmark."""
    return bool(point.curve.is_agentic) or model_type(point, ctx) == "agentic"


def minimum_duration(point, ctx) -> tuple[float | None, str]:
    """(minimum seconds, why) for this point: R§6.2 by `concurrency <= 32` vs above (policy data)."""
    d = ctx.policy.get("run_rules").durations
    c = point.concurrency
    if not is_int(c) or c <= 0:
        return None, "the point's concurrency is unknown"
    if c <= d.ultra_low_max_concurrency:
        return d.ultra_low_min_s, f"concurrency {c} <= {d.ultra_low_max_concurrency} (Ultra Low)"
    if is_agentic(point, ctx):
        return d.agentic_above_min_s, f"agentic point, concurrency {c} > {d.ultra_low_max_concurrency}"
    what = "dedicated Offline point" if point.is_dedicated_offline else f"concurrency {c}"
    return d.above_min_s, f"{what} > {d.ultra_low_max_concurrency}"


def dataset_pass_size(point, ctx) -> tuple[int | None, str]:
    """(samples in one dataset pass, how it was found) from models.yaml, by point.yaml `dataset`.

    A WG-approved Ultra Low subset (`n_samples_from_dataset`, R§6.5) replaces the size at
    concurrency <= 32 only.
    """
    models = ctx.policy.get("models")
    y = point.yaml
    name = y.dataset if y is not None else None
    if not name:
        return None, "point.yaml declares no `dataset`"
    size = models.dataset_size(name)
    if size is None:
        return None, f"dataset {name!r} is not in the policy's dataset table (models.yaml)"
    sub = y.n_samples_from_dataset
    c = point.concurrency
    ul = ctx.policy.get("run_rules").durations.ultra_low_max_concurrency
    if is_int(sub) and 0 < sub < size and is_int(c) and c <= ul:
        return sub, f"Ultra Low subset n_samples_from_dataset={sub} of {name!r} ({size})"
    return size, f"dataset {name!r} has {size} samples"


def stream_flag(point) -> tuple[Any, str]:
    """The recorded `stream_all_chunks` value and where it came from (evidence only)."""
    v = raw(point, "point_yaml", "runtime_settings", "stream_all_chunks")
    if v is not None:
        return v, "point.yaml runtime_settings.stream_all_chunks"
    v = raw(point, "config", "settings", "client", "stream_all_chunks")
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
