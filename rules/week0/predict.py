"""The Week-0 prediction: does the official automated check (endpoints-submission-cli 1.5.3.0) reject?

``decide`` runs, for each official rule id that can emit ERROR, a pure predicate over the loaded
submission (rules/<family>/week0.py: the official's own conditions, lax spots included), and, for
the ids week0.yaml lists as ``same_trigger``, takes the FAILs of our same-id rule whatever their
severity. Our severities never enter: a flag-level FAIL of a same-trigger rule is an official ERROR.
"""
from __future__ import annotations

from checker.core.findings import Subject
from checker.core.policy import PolicyUnavailable
from checker.core.week0 import Hit, Week0

from rules.accuracy import week0 as accuracy_w0
from rules.curve import week0 as curve_w0
from rules.metrics import week0 as metrics_w0
from rules.parsing import week0 as parsing_w0
from rules.seeds import week0 as seeds_w0
from rules.steady_state import week0 as steady_state_w0
from rules.structure import week0 as structure_w0
from rules.system_description import week0 as system_w0
from rules.drafters import week0 as drafters_w0
from rules.power import week0 as power_w0
from rules.shared import official_view

#: [(official rule ids modelled whole, predicate(submission, policy) -> [Hit])], every family's
PREDICATES = [*structure_w0.PREDICATES, *parsing_w0.PREDICATES, *steady_state_w0.PREDICATES,
              *curve_w0.PREDICATES, *metrics_w0.PREDICATES, *accuracy_w0.PREDICATES,
              *drafters_w0.PREDICATES, *seeds_w0.PREDICATES, *system_w0.PREDICATES, *power_w0.PREDICATES]


def decide(sub, policy, fails: list = ()) -> Week0:
    """The official's verdict on one submission. ``fails``: our FAIL findings in it (for same_trigger)."""
    try:
        return _decide(sub, policy, fails)
    finally:
        official_view.forget(sub)


def _decide(sub, policy, fails) -> Week0:
    table = policy.get("week0")
    crash = structure_w0.crash(sub, policy)
    if crash:
        return Week0(hits=crash)  # the official stops with a traceback: no report, exit 1
    hits: list[Hit] = []
    modelled = set(table.never_error)
    for models, predicate in PREDICATES:
        try:
            hits.extend(predicate(sub, policy))
        except PolicyUnavailable:
            pass  # a registry it cannot read: the official warns (seed-set-registry, ...) and skips those rules
        modelled |= models
    same = set(table.same_trigger) - modelled
    also = {ours: official for official, ids in table.also_from.items() for ours in ids}
    seen = set()
    for f in fails:
        official = f.rule_id if f.rule_id in same else also.get(f.rule_id)
        if official is None or (f.severity.value == "warn" and official not in table.warn_is_error) \
                or (official, f.subject) in seen:
            continue  # a warn-level outcome of a same-trigger rule is the official's WARNING
        refine = REFINE.get(official)
        if refine is not None and not refine(f, sub, policy):
            continue
        seen.add((official, f.subject))
        where = f.subject
        if official == "crash":
            where = sub.subject
        elif official in table.curve_wide:
            where = Subject(where.submission, where.system, where.model)
        loc = f.location
        hits.append(Hit(official, where, f.message, file=loc.file if loc is not None else "",
                        path=tuple(loc.path) if loc is not None else (), fix=f.fix or ""))
    return Week0(hits=sorted(set(hits), key=lambda h: (h.rule, h.subject)))


#: official id -> test of our same-trigger FAIL: does the official reject there too?
REFINE = {**accuracy_w0.REFINE, **structure_w0.REFINE, **system_w0.REFINE, **power_w0.REFINE}
