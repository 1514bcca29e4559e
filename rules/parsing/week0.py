"""Week-0 predicates of the official's point.yaml and result_summary.json schema checks (1.5.3.0).

The official validates with pydantic in lax mode: a quoted integer or an integral float passes for
an int, a finite float passes for duration_ns, unknown keys are allowed, absent optional fields are
no error. These predicates follow that, plus the validators it runs inside the schema (warmup bounds).
"""
from __future__ import annotations

import math

from checker.core.week0 import Hit

from rules.shared.lax import lax_float, lax_int

SEED_KEYS = ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")
LEGACY_SEEDS = {"scheduler_random_seed": "scheduler_rng_seed", "dataloader_random_seed": "sample_index_rng_seed"}


def point_config_valid(sub, policy) -> list[Hit]:
    """point.yaml is a mapping; concurrency an int; runtime_settings.runtime present, its seeds ints;
    warmup within 0..86400 s, completed <= issued, concurrency 0 only when nothing ran."""
    hits = []
    for point in sub.points():
        lf = point.files.get("point_yaml")
        if lf is None or not lf.exists:
            continue  # measurement-points-present
        why = _point_yaml_problem(lf)
        if why:
            hits.append(Hit("point-config-valid", point.subject, why))
    return hits


def _point_yaml_problem(lf) -> str:
    if lf.error is not None and lf.error.code == "duplicate-key":
        return ""  # PyYAML keeps the last value silently
    if lf.error is not None:
        return f"unreadable: {lf.error.code}"
    d = lf.data
    if not isinstance(d, dict):
        return "not a mapping"
    if lax_int(d.get("concurrency")) is None:
        return "concurrency is not an int"
    rs = d.get("runtime_settings")
    if not isinstance(rs, dict) or not isinstance(rs.get("runtime"), dict):
        return "runtime_settings.runtime missing"
    for key in SEED_KEYS + tuple(LEGACY_SEEDS):
        v = rs["runtime"].get(key)
        if v is not None and lax_int(v) is None:
            return f"runtime.{key} is not an int"
    w = d.get("warmup")
    if isinstance(w, dict):
        dur = lax_float(w.get("duration_s")) if w.get("duration_s") is not None else None
        if dur is not None and not 0 <= dur <= 86400:
            return "warmup.duration_s outside 0..86400"
        issued, done = lax_int(w.get("requests_issued")), lax_int(w.get("requests_completed"))
        if issued is not None and done is not None and done > issued:
            return "warmup completed > issued"
        conc = lax_int(w.get("concurrency"))
        if conc == 0 and any(x for x in (dur, issued, done)):
            return "warmup concurrency 0 with a warmup run"
    return ""


def result_file_valid(sub, policy) -> list[Hit]:
    """result_summary.json parses as an object with n_samples_completed (int) and duration_ns (a number)."""
    hits = []
    for point in sub.points():
        lf = point.files.get("result_summary")
        if lf is None or not lf.exists:
            continue  # result-summary-present
        why = ""
        if lf.error is not None or lf.bom:
            why = "unreadable"
        elif not isinstance(lf.data, dict):
            why = "not an object"
        else:
            d = lf.data
            if lax_int(d.get("n_samples_completed")) is None:
                why = "n_samples_completed missing or not an int"
            elif lax_float(d.get("duration_ns")) is None or not _finite(lax_float(d.get("duration_ns"))):
                why = "duration_ns missing or not a number"
            elif _percentiles_disagree(d):
                why = "two spellings of one percentile disagree"
        if why:
            hits.append(Hit("result-file-valid", point.subject, why))
    return hits


def _finite(x) -> bool:
    return x is not None and math.isfinite(x)


def _percentiles_disagree(d: dict) -> bool:
    for block in ("ttft", "tpot", "latency", "output_sequence_lengths"):
        pct = d.get(block, {}).get("percentiles") if isinstance(d.get(block), dict) else None
        if not isinstance(pct, dict):
            continue
        seen: dict[float, object] = {}
        for k, v in pct.items():
            try:
                key = float(k)
            except (TypeError, ValueError):
                return True
            if not 0 <= key <= 100 or (key in seen and seen[key] != v):
                return True
            seen[key] = v
    return False


def load_pattern(sub, policy) -> list[Hit]:
    """runtime_settings.load_pattern (default concurrency) is concurrency or agentic_inference and the
    concurrency (a lax int) is above 0; a dedicated Offline point is exempt."""
    hits = []
    for point in sub.points():
        lf = point.files.get("point_yaml")
        d = lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else None
        if d is None or d.get("offline") == "dedicated" or _point_yaml_problem(lf):
            continue
        rs = d.get("runtime_settings") if isinstance(d.get("runtime_settings"), dict) else {}
        pattern = rs.get("load_pattern", "concurrency")
        if pattern not in ("concurrency", "agentic_inference") or (lax_int(d.get("concurrency")) or 0) <= 0:
            hits.append(Hit("load-pattern", point.subject, f"load_pattern {pattern!r}"))
    return hits


PREDICATES = [
    (frozenset({"load-pattern"}), load_pattern),
    (frozenset({"point-config-valid"}), point_config_valid),
    (frozenset({"result-file-valid"}), result_file_valid),
]
