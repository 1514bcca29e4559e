"""Attach the Week-0 prediction: one per submission, and ``Finding.week0`` on every reject-level FAIL.

The prediction models the official tool's own decision (rules/week0.py), never our rules'
severities: a reject-level finding is ``week0: true`` only where the official rejects on the same
rule id at the same (or an enclosing or enclosed) subject; a rule with no official counterpart is false.
"""
from __future__ import annotations

from checker.core.findings import Finding, Severity, Status
from checker.core.week0 import Hit, Week0

REJECTING = (Severity.REJECT, Severity.REJECT_POINTS)


def predict(pkg, ctx, findings: list[Finding]) -> dict[str, Week0]:
    """{submission name: its prediction}; a submission the model cannot read is predicted as the crash it is."""
    from checker.engine.catalogue import week0_decide

    decide = week0_decide()
    out = {}
    for sub in pkg.submissions:
        fails = [f for f in findings if f.status is Status.FAIL and f.subject.submission == sub.name]
        try:
            out[sub.name] = decide(sub, ctx.policy, fails)
        except Exception as exc:  # noqa: BLE001 - never lose the report for the prediction
            out[sub.name] = Week0(hits=[Hit("week0-model-error", sub.subject, f"{type(exc).__name__}: {exc}"[:200])])
    return out


def mark(findings: list[Finding], predictions: dict[str, Week0]) -> None:
    """Set ``week0`` on each reject-level FAIL from its submission's prediction (False without one)."""
    for f in findings:
        if f.status is Status.FAIL and f.severity in REJECTING:
            w = predictions.get(f.subject.submission)
            f.week0 = bool(w is not None and w.rejects(f.rule_id, f.subject))


def attach(pkg, ctx, findings: list[Finding]) -> dict[str, Week0]:
    """Predict and mark in one step (what a unit's evaluation calls after its rules ran)."""
    predictions = predict(pkg, ctx, findings)
    mark(findings, predictions)
    return predictions
