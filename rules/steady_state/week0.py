"""Week-0 predicates of the official's steady-state and warmup rules (endpoints-submission-cli 1.5.3.0).

steady-state-consistency is an ERROR only for `windowable` over fewer than 4 super-passes or with a
Drifting gating metric, and for `insufficient_passes` over 4 or more; window sizes and sample counts
are not compared. warmup-present: point.yaml has a `warmup` block (its bounds are point-config-valid's).
"""
from __future__ import annotations

from checker.core.week0 import Hit

from rules.shared.lax import lax_int

MIN_TREND_N = 4


def _yaml(point):
    lf = point.files.get("point_yaml")
    return lf.data if lf is not None and lf.ok and isinstance(lf.data, dict) else None


def steady_state_consistency(sub, policy) -> list[Hit]:
    hits = []
    for point in sub.points():
        y = _yaml(point)
        block = y.get("steady_state") if y is not None else None
        if not isinstance(block, dict) or block.get("status") is None:
            continue
        window = block.get("window") if isinstance(block.get("window"), dict) else {}
        start, end = lax_int(window.get("super_pass_start")), lax_int(window.get("super_pass_end"))
        spans = end - start + 1 if start is not None and end is not None else None
        state = block.get("state") if isinstance(block.get("state"), dict) else {}
        drifting = [k for k, v in state.items() if isinstance(v, str) and v.startswith("Drifting")]
        status = block["status"]
        if (status == "windowable" and ((spans is not None and spans < MIN_TREND_N) or drifting)) or (
                status == "insufficient_passes" and spans is not None and spans >= MIN_TREND_N):
            hits.append(Hit("steady-state-consistency", point.subject, f"status {status}, {spans} super-passes"))
    return hits


def warmup_present(sub, policy) -> list[Hit]:
    return [Hit("warmup-present", p.subject, "no warmup block") for p in sub.points()
            if _yaml(p) is not None and "warmup" not in _yaml(p)]


PREDICATES = [
    (frozenset({"steady-state-consistency"}), steady_state_consistency),
    (frozenset({"warmup-present"}), warmup_present),
]
