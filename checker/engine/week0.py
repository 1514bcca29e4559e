"""The Week-0 verdict of each submission, every reject explained by a finding, ``Finding.week0`` on every FAIL.

Who decides: the official checker itself where it is installed (``checker.engine.official``: begun before
our own check of the unit, collected after, so the two run side by side), else the model of it
(rules/week0, never our rules' severities). Then each ERROR is explained: by a FAIL of ours with the same
rule id (or one week0.yaml's ``also_from`` maps to it) at the same, an enclosing or an enclosed subject,
which is marked ``week0: true`` and (from the official) carries its words in ``extra.official``; else by
the engine-fed ``week0-check`` rule, which the engine runs last with the unexplained ERRORs on
``ctx.week0``. A FAIL nothing rejects on is ``week0: false``.
"""
from __future__ import annotations

import os

from checker.core.findings import Finding, Status
from checker.core.week0 import Feed, Hit, Week0

#: official "rule" ids of an official answer without a report: never explained by one of our findings
#: (the user needs the exception the official raised)
_OWN_WORDS = ("crash", "timeout", "memory")
#: the policy overrides the official reads too (its seed_sets_path and approved_drafters_path)
_REGISTRIES = ("seed_sets", "approved_drafters")


class Pending:
    """The official's run of some submission roots, begun before our check of them; ``None`` spec: none."""

    def __init__(self, spec, roots: list[str], overrides: dict | None = None):
        self.spec = spec
        self.tickets: dict[str, int] = {}
        self.child = None
        if spec is None:
            return
        from checker.engine.official.client import child_for

        self.child = child_for(spec)
        for root in roots:
            self.tickets[_key(root)] = self.child.take(root, registries_of(overrides))

    def answer(self, root: str) -> dict | None:
        ticket = self.tickets.pop(_key(root), None)
        return None if ticket is None else self.child.collect(ticket)

    def abandon(self) -> None:
        """Our check stopped before collecting (an exception, the unit's time limit): free the child."""
        for ticket in self.tickets.values():
            self.child.abandon(ticket)
        self.tickets.clear()


def registries_of(overrides: dict | None) -> dict:
    """The policy overrides the official reads too: the seed-set registry and the approved-drafter list."""
    return {k: v for k, v in (overrides or {}).items() if k in _REGISTRIES and v}


def _key(root: str) -> str:
    return os.path.normpath(os.path.abspath(root))


def begin(spec, submissions, overrides: dict | None = None) -> Pending:
    """Send the submissions (nodes with ``abspath``) to the official now; ``Pending`` collects later."""
    return Pending(spec, [s.abspath for s in submissions] if spec is not None else [], overrides)


def decide(pkg, ctx, findings: list[Finding], pending: Pending | None = None,
           modelled: bool = True) -> tuple[dict[str, Week0], dict[str, Week0]]:
    """({submission name: its verdict}, {name: the model's prediction}) for every submission of ``pkg``.

    The official's answer where one was begun (``mode official`` and an official that cannot run: the
    OfficialUnavailable it raises; ``auto``: the model instead); the model where ``modelled`` (every rule
    ran: it reads our FAILs); neither: no verdict for that submission."""
    models = _predict(pkg, ctx, findings) if modelled else {}
    out = dict(models)
    for sub in pkg.submissions:
        answer = pending.answer(sub.abspath) if pending is not None and pending.spec is not None else None
        if answer is None:
            continue
        if "unavailable" in answer:
            if pending.spec.required:
                from checker.engine.official import OfficialUnavailable

                raise OfficialUnavailable(f"--week0 official: {answer['unavailable']}")
            continue
        from checker.engine.official.answers import week0_of

        out[sub.name] = week0_of(answer, sub)
    return out, models


def _predict(pkg, ctx, findings: list[Finding]) -> dict[str, Week0]:
    """{submission name: the model's prediction}; a submission the model cannot read is predicted as the crash it is."""
    from checker.engine.catalogue import week0_decide

    decide_one = week0_decide()
    out = {}
    for sub in pkg.submissions:
        fails = [f for f in findings if f.status is Status.FAIL and f.subject.submission == sub.name]
        try:
            out[sub.name] = decide_one(sub, ctx.policy, fails)
        except Exception as exc:  # noqa: BLE001 - never lose the report for the prediction
            out[sub.name] = Week0(hits=[Hit("week0-model-error", sub.subject, f"{type(exc).__name__}: {exc}"[:200])])
    return out


def _also_from(ctx) -> dict[str, frozenset]:
    """official id -> our rule ids whose FAIL is that ERROR (week0.yaml's also_from), {} without the table."""
    try:
        table = ctx.policy.get("week0")
    except Exception:  # noqa: BLE001 - the table is the model's; the official's verdict does not need it
        return {}
    return {official: frozenset(ids) for official, ids in getattr(table, "also_from", {}).items()}


def explain(findings: list[Finding], verdicts: dict[str, Week0], models: dict[str, Week0], ctx) -> dict[str, Feed]:
    """Mark ``week0`` on every FAIL and return, per submission, what the week0-check rule reads."""
    from checker.core.week0 import overlap

    also = _also_from(ctx)
    by_sub: dict[str, list[Finding]] = {}
    for f in findings:
        if f.status is Status.FAIL:
            by_sub.setdefault(f.subject.submission, []).append(f)
    feeds: dict[str, Feed] = {}
    for f in findings:
        if f.status is Status.FAIL:
            f.week0 = False
    for name, w in verdicts.items():
        official = w.source == "official"
        unexplained: list[Hit] = []
        fails = by_sub.get(name, [])
        for hit in w.hits:
            ours = (hit.rule,) + tuple(also.get(hit.rule, ()))
            hits_ours = [] if official and hit.rule in _OWN_WORDS else \
                [f for f in fails if f.rule_id in ours and overlap(f.subject, hit.subject)]
            if not hits_ours:
                unexplained.append(hit)
            for f in hits_ours:
                f.week0 = True
                if official and hit.why:
                    said = f.extra.setdefault("official", [])
                    if hit.why not in said:
                        said.append(hit.why)
        plain = list(models.get(name, Week0()).hits) if official else []
        feeds[name] = Feed(week0=w, unexplained=unexplained, plain=plain)
    return feeds


def attach(pkg, ctx, findings: list[Finding], rules, select=None, ignore=None, pending: Pending | None = None,
           ) -> tuple[dict[str, Week0], list[Finding]]:
    """After a unit's rules ran: decide, explain, and run the engine-fed rules. Returns ({submission name: its
    Week0}, the engine-fed rules' findings, their FAILs marked ``week0: true``)."""
    from checker.engine.evaluate import engine_fed, run_rules

    fed = [r for r in rules if engine_fed(r)]
    modelled = not (select or ignore)
    verdicts, models = decide(pkg, ctx, findings, pending, modelled)
    ctx.week0 = explain(findings, verdicts, models, ctx) if verdicts or modelled else None
    if not pkg.submissions:
        ctx.week0 = None
    more = run_rules(fed, pkg, ctx, select=select, ignore=ignore, sort=False) if fed else []
    for f in more:
        if f.status is Status.FAIL:
            f.week0 = True
    return verdicts, more
