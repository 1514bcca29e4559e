"""Week-0 predicates of the official's steady-state and warmup checks (endpoints-submission-cli 1.5.3.0).

All three are validators of a point.yaml that validated (rules.shared.official_view), read from the
model. steady-state-valid: `status` and `verdict`, when given, and every per-metric `state` are words
of the official's vocabulary (absent is fine: the reference client's detector writes none of them).
steady-state-consistency: `windowable` over fewer than 4 super-passes or with a Drifting metric, or
`insufficient_passes` over 4 or more. warmup-present: point.yaml has a `warmup` block.
"""
from __future__ import annotations

from rules.shared import official_view as ov


def _models(sub, policy):
    for point in sub.points():
        r = ov.point_config(point, policy)
        if r.model is not None:
            yield point, r


def steady_state_valid(sub, policy) -> list:
    t = policy.get("week0")
    hits = []
    for point, r in _models(sub, policy):
        block = r.model.steady_state
        if block is None:
            continue
        bad = []
        if block.status is not None and block.status not in t.steady_statuses:
            bad.append((("status",), f"status {ov.spell(block.status)} is not one of {', '.join(t.steady_statuses)}"))
        if block.verdict is not None and block.verdict not in t.steady_verdicts:
            bad.append((("verdict",), f"verdict {ov.spell(block.verdict)} is not one of {', '.join(t.steady_verdicts)}"))
        for metric, state in sorted(block.state.items()):
            if state not in t.gating_states:
                bad.append((("state", metric), f"state.{metric} {ov.spell(state)} is not one of "
                                               f"{', '.join(t.gating_states)}"))
        if bad:
            hits.append(ov.hit("steady-state-valid", point.subject, "point.yaml steady_state: " + "; ".join(
                w for _p, w in bad), r.lf, ("steady_state", *bad[0][0]),
                "write the words the automated check knows, or leave the field out"))
    return hits


def steady_state_consistency(sub, policy) -> list:
    floor = policy.get("week0").min_trend_n
    hits = []
    for point, r in _models(sub, policy):
        block = r.model.steady_state
        if block is None or block.status is None:
            continue
        w = block.window
        spans = w.super_pass_end - w.super_pass_start + 1 if None not in (w.super_pass_start, w.super_pass_end) else None
        drifting = sorted(k for k, v in block.state.items() if v.startswith("Drifting"))
        why = ""
        if block.status == "windowable" and spans is not None and spans < floor:
            why = f"status windowable over {spans} super-passes; the automated check wants {floor} or more"
        elif block.status == "windowable" and drifting:
            why = f"status windowable while {', '.join(drifting)} drift"
        elif block.status == "insufficient_passes" and spans is not None and spans >= floor:
            why = f"status insufficient_passes over {spans} super-passes ({floor} or more are enough)"
        if why:
            hits.append(ov.hit("steady-state-consistency", point.subject, "point.yaml steady_state: " + why, r.lf,
                               ("steady_state", "status"), "write the status the detector reported for this window"))
    return hits


def warmup_present(sub, policy) -> list:
    return [ov.hit("warmup-present", point.subject, "point.yaml has no warmup block; the automated check wants one",
                   r.lf, ("warmup",), "add the warmup block (duration_s, requests_issued, requests_completed, "
                   "data_source, concurrency)")
            for point, r in _models(sub, policy) if r.model.warmup is None]


PREDICATES = [
    (frozenset({"steady-state-valid"}), steady_state_valid),
    (frozenset({"steady-state-consistency"}), steady_state_consistency),
    (frozenset({"warmup-present"}), warmup_present),
]
