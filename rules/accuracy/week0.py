"""Week-0 refinement of the official's accuracy gate (endpoints-submission-cli 1.5.3.0).

The official gates each metric the results carry as a number: a missing metric, a value it cannot
convert (null, a word) and NaN (its floor comparisons are False) all pass. So our accuracy-gate FAIL
is an official ERROR only where some finite metric value misses its target (accuracy.yaml's bounds).
"""
from __future__ import annotations

import math


def gate_fails(finding, policy) -> bool:
    observed = finding.observed if isinstance(finding.observed, dict) else {}
    model = finding.subject.model
    targets = next((t for name, t in policy.get("accuracy").models.items() if name in model), None)
    if targets is None:
        return False
    for metric, value in observed.items():
        t = targets.metrics.get(metric)
        if t is None or isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            continue
        low = t.min if t.min is not None else (t.reference * t.min_ratio if t.min_ratio is not None else None)
        high = t.max if t.max is not None else (t.reference * t.max_ratio if t.max_ratio is not None else None)
        if (low is not None and value < low) or (high is not None and value > high):
            return True
    return False


PREDICATES: list = []
#: official id -> does our same-trigger FAIL stand as the official's ERROR?
REFINE = {"accuracy-gate": gate_fails}
