"""Week-0 refinement of the official's accuracy gate (endpoints-submission-cli 1.5.3.0).

The official gates each metric the results carry as a number: a missing metric, a value it cannot
convert (null, a word) and NaN (its floor comparisons are False) all pass. So our accuracy-gate FAIL
is an official ERROR only where some finite metric value misses its target (accuracy.yaml's bounds).
"""
from __future__ import annotations

import math

from checker.core.week0 import Hit
from checker.core.values import loaded_mapping
from rules.shared import official_schema, official_view as ov


def gate_fails(finding, sub, policy) -> bool:
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


def swebench_fraction(sub, policy) -> list[Hit]:
    """agentic-accuracy-swebench, in part: an agentic curve's SWE-bench score must be a fraction in [0, 1]."""
    names = set(policy.get("accuracy").swebench_datasets)
    hits = []
    for curve in sub.curves():
        if not any(_load_pattern(p) == "agentic_inference" for p in curve.points):
            continue
        for point in curve.points:
            lf = loaded_mapping(point.files.get("accuracy"))
            entries = lf.data.get("accuracy_scores") if lf is not None else None
            for i, e in enumerate(entries if isinstance(entries, list) else []):
                score = e.get("score") if isinstance(e, dict) else None
                if isinstance(e, dict) and e.get("dataset_name") in names and isinstance(score, (int, float)) \
                        and not isinstance(score, bool) and not 0 <= score <= 1:
                    hits.append(ov.hit("agentic-accuracy-swebench", curve.subject, f"accuracy_results.json: "
                                       f"{e['dataset_name']} score {ov.spell(score)} is not a fraction from 0 to 1; the "
                                       "automated check never reads a percentage", lf, ("accuracy_scores", i, "score"),
                                       f"write the score as a fraction: {score / 100 if score > 1 else score}"))
                    return hits
    return hits


def _load_pattern(point):
    lf = loaded_mapping(point.files.get("point_yaml"))
    d = lf.data if lf is not None else {}
    rs = d.get("runtime_settings") if isinstance(d.get("runtime_settings"), dict) else {}
    return rs.get("load_pattern")


def accuracy_valid(sub, policy) -> list:
    """accuracy-valid: a point's accuracy_results.json (else the accuracy_scores of its results.json, when
    non-empty) is readable and validates as the official's AccuracyResult (the client's list is read as a
    mapping by dataset_name: each entry named once, with a score)."""
    hits = []
    for point in sub.points():
        r = ov.accuracy(point, policy)
        if r.present:
            hits += ov.file_hits("accuracy-valid", point.subject, r, "accuracy_results.json")
            continue
        legacy = point.files.get("accuracy_legacy")
        data, why = ov.read(legacy)
        scores = data.get("accuracy_scores") if isinstance(data, dict) and not why else None
        if scores is None or scores == {} or scores == []:
            continue
        model, problems = official_schema.validated(policy.get("week0_schemas"), "accuracy", {"accuracy_scores": scores})
        hits += [ov.hit(rule, point.subject, f"results.json: {w}", legacy, path, fix) for rule, path, w, fix in problems]
    return hits


PREDICATES: list = [(frozenset(), swebench_fraction), (frozenset({"accuracy-valid"}), accuracy_valid)]
#: official id -> does our same-trigger FAIL stand as the official's ERROR?
REFINE = {"accuracy-gate": gate_fails}
