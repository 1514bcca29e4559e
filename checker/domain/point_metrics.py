"""Per-point metrics shown in reports (tables, charts): the built-in ones, and the decorator families use.

Each entry is (key, label, unit, function(point, ctx) -> value or None). ``@point_metric`` only marks
a function; the engine's catalogue collects the built-ins here, then each family's (the curve family
adds the computed region, power the provisioned kW and TPS/kW, accuracy the score) in family order.
Renderers take that list; a function that raises shows as empty, never breaks a report.
"""
from __future__ import annotations

from typing import Any, Callable

Metric = tuple[str, str, str, Callable[[Any, Any], Any]]


def point_metric(key: str, label: str, unit: str = ""):
    """Mark a function(point, ctx) as a per-point metric shown in reports."""
    def deco(func):
        func.__point_metric__ = (key, label, unit)
        return func

    return deco


def collect(namespace: dict) -> list[Metric]:
    """The metrics marked in a module namespace, in definition order."""
    return [(*obj.__point_metric__, obj) for obj in list(namespace.values())
            if callable(obj) and hasattr(obj, "__point_metric__")
            and getattr(obj, "__module__", None) == namespace.get("__name__")]


def metrics_for(point, ctx, metrics: list[Metric] | None = None) -> dict[str, Any]:
    """Every metric's value for one point (None where it cannot be computed)."""
    out = {}
    for key, _label, _unit, func in (BUILTIN_METRICS if metrics is None else metrics):
        try:
            out[key] = func(point, ctx)
        except Exception:
            out[key] = None
    return out


def _summary(point):
    return point.summary


@point_metric("concurrency", "Concurrency")
def _concurrency(point, ctx):
    return point.concurrency


@point_metric("region_declared", "Region (declared)")
def _region_declared(point, ctx):
    return point.yaml.region if point.yaml is not None else None


@point_metric("offline", "Offline")
def _offline(point, ctx):
    return point.offline


@point_metric("duration_s", "Duration", "s")
def _duration(point, ctx):
    s = _summary(point)
    return s.duration_s if s is not None else None


@point_metric("samples", "Samples completed")
def _samples(point, ctx):
    s = _summary(point)
    return s.n_samples_completed if s is not None else None


@point_metric("system_tps", "System TPS", "tok/s")
def _system_tps(point, ctx):
    s = _summary(point)
    return s.derived_system_tps if s is not None else None


@point_metric("tps_per_user", "TPS/user", "tok/s")
def _tps_per_user(point, ctx):
    s = _summary(point)
    return s.derived_tps_per_user if s is not None else None


@point_metric("ttft_p90_ms", "TTFT p90", "ms")
def _ttft(point, ctx):
    s = _summary(point)
    return s.ttft_p90_ms if s is not None else None


#: the metrics every report shows, before the families' own
BUILTIN_METRICS: list[Metric] = collect(globals())
