"""The Week-0 prediction: does the official automated check (endpoints-submission-cli 1.5.3.0) reject?

``decide`` runs, for each official rule id that can emit ERROR, a pure predicate over the loaded
submission (rules/<family>/week0.py: the official's own conditions, lax spots included), and, for
the ids week0.yaml lists as ``same_trigger``, takes the FAILs of our same-id rule whatever their
severity. Our severities never enter: a flag-level FAIL of a same-trigger rule is an official ERROR.
"""
from __future__ import annotations

from checker.core.findings import Subject
from checker.core.week0 import Hit, Week0

from rules.structure import week0 as structure_w0
from rules.curve import week0 as curve_w0
from rules.accuracy import week0 as accuracy_w0

#: official rule id -> predicate(submission, table) -> [Hit]; a crash predicate answers for "crash"
PREDICATES = {**structure_w0.PREDICATES, **curve_w0.PREDICATES, **accuracy_w0.PREDICATES}


def decide(sub, policy, fails: list[tuple[str, Subject]] = ()) -> Week0:
    """The official's verdict on one submission. ``fails``: (rule id, subject) of our FAILs in it."""
    table = policy.get("week0")
    crash = structure_w0.crash(sub, table)
    if crash:
        return Week0(hits=crash)  # the official stops with a traceback: no report, exit 1
    hits: list[Hit] = []
    for rule_id, predicate in PREDICATES.items():
        hits.extend(predicate(sub, table))
    modelled = set(PREDICATES) | set(table.never_error)
    same = set(table.same_trigger) - modelled
    seen = set()
    for rule_id, subject in fails:
        if rule_id in same and (rule_id, subject) not in seen:
            seen.add((rule_id, subject))
            hits.append(Hit(rule_id, subject, "our same-trigger rule fails"))
    return Week0(hits=hits)
