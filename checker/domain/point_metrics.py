"""Per-point metrics shown in reports (tables, charts): a small registry families extend.

Each entry is (key, label, unit, function(point, ctx) -> value or None). The curve family adds the
computed region, the power family provisioned kW and TPS/kW, the accuracy family the score.
Renderers iterate ``POINT_METRICS``; a function that raises shows as empty, never breaks a report.
"""
from __future__ import annotations

from typing import Any, Callable

POINT_METRICS: list[tuple[str, str, str, Callable[[Any, Any], Any]]] = []


def point_metric(key: str, label: str, unit: str = ""):
    def deco(func):
        if any(k == key for k, *_ in POINT_METRICS):
            raise ValueError(f"point metric {key!r} registered twice")
        POINT_METRICS.append((key, label, unit, func))
        return func

    return deco


def metrics_for(point, ctx) -> dict[str, Any]:
    out = {}
    for key, _label, _unit, func in POINT_METRICS:
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
