"""Week-0 predicates of the official's result-summary rules (endpoints-submission-cli 1.5.3.0).

The per-point metric checks run where point.yaml and result_summary.json both validated, over the
models (lax values; percentile keys "90" and "90.0" are one). tps-utilization compares the raw JSON
numbers of every point whose system_desc.json states one (absent is not compared: no ERROR).
"""
from __future__ import annotations

import math

from rules.shared import official_view as ov

RS = "result_summary.json"


def _pairs(sub, policy):
    """(point, its point.yaml Read, its result_summary Read) where both validated."""
    for point in sub.points():
        cfg, rs = ov.point_config(point, policy), ov.summary(point, policy)
        if cfg.model is not None and rs.model is not None:
            yield point, cfg, rs


def p90_ms(s) -> float | None:
    """tpot's 90th percentile in ms, keyed the way the official normalises percentile keys."""
    for key, v in s.tpot.percentiles.items():
        if float(key) == 90:
            return v / 1e6
    return None


def _stored(rs, key):
    extra = rs.model.model_extra or {}
    return extra.get(key)


def system_tps(s) -> float:
    elapsed = s.duration_ns / 1e9
    return int(s.output_sequence_lengths.total) / elapsed if elapsed > 0 else 0.0


def metric_checks(sub, policy) -> list:
    t = policy.get("week0")
    tol = t.metric_tolerance
    hits = []
    for point, cfg, rs in _pairs(sub, policy):
        s, subj, lf = rs.model, point.subject, rs.lf

        def add(rule, why, path, fix):
            hits.append(ov.hit(rule, subj, f"{RS}: {why}", lf, path, fix))

        if s.duration_ns <= 0:
            add("metric-consistency-duration", f"duration_ns is {ov.spell(s.duration_ns)}; the automated check wants "
                "more than 0", ("duration_ns",), "record the run's duration in nanoseconds")
        if s.n_samples_issued > 0 and s.n_samples_completed + s.n_samples_failed != s.n_samples_issued:
            add("metric-consistency-accounting", f"n_samples_completed {s.n_samples_completed} + n_samples_failed "
                f"{s.n_samples_failed} is not n_samples_issued {s.n_samples_issued}; the automated check wants them "
                "equal", ("n_samples_completed",), "record the counts so that completed + failed = issued")
        if int(s.output_sequence_lengths.total) < 0:
            add("metric-consistency-output-tokens", "output_sequence_lengths.total is below 0",
                ("output_sequence_lengths", "total"), "record the output token total")
        derived = system_tps(s)
        stored = _stored(rs, "system_tps")
        if stored is not None and abs(float(stored) - derived) / max(abs(derived), 1e-9) > tol:
            add("metric-consistency-system-tps", f"system_tps {ov.spell(stored)} differs from output tokens / "
                f"duration ({derived:.6g}) by more than {tol:.0%}", ("system_tps",), f"write system_tps: {derived:.6g}")
        dedicated = cfg.model.offline == "dedicated"
        p90 = p90_ms(s)
        if not dedicated and (p90 is None or not math.isfinite(p90) or p90 <= 0):
            add("metric-consistency-tpot-p90", "tpot.percentiles has no 90th percentile above 0" if p90 is None
                else f"tpot's 90th percentile is {ov.spell(p90 * 1e6)}", ("tpot", "percentiles"),
                "record tpot's 90th percentile (ns) as the client reports it")
        elif not dedicated:
            stored = _stored(rs, "tps_per_user")
            want = 1000.0 / p90
            if stored is not None and abs(float(stored) - want) / max(abs(want), 1e-9) > tol:
                add("metric-consistency-tps-per-user", f"tps_per_user {ov.spell(stored)} differs from 1000 / tpot p90 "
                    f"ms ({want:.6g}) by more than {tol:.0%}", ("tps_per_user",), f"write tps_per_user: {want:.6g}")
        hits += _agentic(s, rs, subj, lf, tol)
        dataset = cfg.model.dataset
        need = t.min_query_count.get(dataset)
        if need is not None and s.n_samples_completed < need:
            add("min-query-count", f"n_samples_completed is {s.n_samples_completed}; the automated check wants "
                f"{need} for dataset {dataset}", ("n_samples_completed",), f"run all {need} samples of {dataset}")
    return hits


def _agentic(s, rs, subj, lf, tol) -> list:
    tokens, seconds = s.output_tokens_per_turn_total, s.e2e_turn_time_seconds_total
    if tokens is None and seconds is None and s.n_samples_failed == 0:
        tokens, seconds = s.output_sequence_lengths.total, s.latency.total / 1e9
    derived = tokens / seconds if tokens is not None and seconds is not None and seconds > 0 else None
    stored = _stored(rs, "e2e_avg_interactivity")
    if stored is None:
        return []
    if derived is None or abs(float(stored) - derived) / max(abs(derived), 1e-9) > tol:
        why = ("e2e_avg_interactivity is stored but the turn totals it derives from are missing" if derived is None
               else f"e2e_avg_interactivity {ov.spell(stored)} differs from tokens / seconds ({derived:.6g})")
        return [ov.hit("agentic-metric-consistency", subj, f"{RS}: {why}", lf, ("e2e_avg_interactivity",),
                       "write e2e_avg_interactivity from the run's turn totals, or leave it out")]
    return []


def _number(v) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def tps_utilization(sub, policy) -> list:
    """tps_utilization, where a point's system_desc.json states one as a number, is its system_tps over
    the curve's highest, within the official's absolute tolerance."""
    tol = policy.get("week0").tps_utilization_tolerance
    hits = []
    for curve in sub.curves():
        entries = []
        for point in curve.points:
            rs, _w = ov.read(point.files.get("result_summary"))
            sd, _w = ov.read(point.files.get("system_desc"))
            if not isinstance(rs, dict) or not isinstance(sd, dict):
                continue
            dur = _number(rs.get("duration_ns"))
            osl = rs.get("output_sequence_lengths")
            total = _number(osl.get("total")) if isinstance(osl, dict) else None
            util = _number(sd.get("tps_utilization"))
            if dur is not None and total is not None and dur > 0 and util is not None:
                entries.append((point, total / (dur / 1e9), util))
        top = max((tps for _p, tps, _u in entries), default=0.0)
        for point, tps, util in entries if top > 0 else []:
            if abs(util - tps / top) > tol:
                hits.append(ov.hit("tps-utilization", point.subject, f"system_desc.json tps_utilization {ov.spell(util)} "
                                   f"is not this point's system_tps over the curve's highest ({tps / top:.4f}, within "
                                   f"{tol})", point.files.get("system_desc"), ("tps_utilization",),
                                   f"write tps_utilization: {tps / top:.4f}"))
    return hits


PREDICATES = [
    (frozenset({"metric-consistency-duration", "metric-consistency-accounting", "metric-consistency-output-tokens",
                "metric-consistency-system-tps", "metric-consistency-tpot-p90", "metric-consistency-tps-per-user",
                "agentic-metric-consistency", "min-query-count"}), metric_checks),
    (frozenset({"tps-utilization"}), tps_utilization),
]
