"""The Week-0 automated check, explained: one finding for each of its ERRORs that no other finding explains.

Engine-fed (``needs=("engine:week0",)``): the engine decides the Week-0 verdict of the submission (the
official checker itself where it is installed, else the model in predict.py), marks every FAIL of ours that
the check rejects on, and hands this rule, on ``ctx.week0``, the ERRORs that none of them explains. So a
Week-0 reject never stands in the report without a line saying why, where and how to fix it.
"""
from __future__ import annotations

from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import value_at

#: the official "rule" of an answer with no report: what the automated check did instead
_NO_REPORT = {"crash": "crashes", "timeout": "hangs", "memory": "runs out of memory"}


@rule(id="week0-check", title="The Week-0 automated check accepts the submission", clause="S§6.1",
      severity="flag", scope="submission", needs=("engine:week0",),
      consequence_of=("unknown-key", "run-folder-complete", "samples-dropped"))
def week0_check(sub, ctx):
    """An ERROR of the Week-0 automated check (the official tool) that no other finding explains.

    What it checks: every ERROR the automated check reports for the submission (the official
    checker's own, where it is installed; else what the model of it predicts, labelled predicted)
    is explained by a FAIL of ours with the same rule id at the same point or above; each one that
    is not becomes a FAIL here, at the file it names, in its words, with a fix. Its crash, hang or
    memory blow-up on the package is one FAIL at the submission, naming the exception.
    Why: any automated-check failure by the end of Week 0 rejects the submission (S§6.1), whether
    or not the rules ask for the same thing, so a submitter must see each one and its fix.
    How to fix: Change the file the finding names as its message says, then check again.
    """
    feed = ctx.week0.get(sub.name)
    if feed is None:
        return Skip("the Week-0 verdict of this submission was not computed (--select/--ignore checked only some "
                    "rules)", reason="not-computed")
    w = feed.week0
    official = w.source == "official"
    who = f"the Week-0 automated check ({w.tool})" if official else "the Week-0 automated check (predicted)"
    if not feed.unexplained:
        if w.verdict == "accept":
            return Pass(f"{who} accepts it")
        return Pass(f"{who} rejects it; every ERROR it reports is explained by another finding")
    files = {lf.rel: lf for _s, lf in sub.all_files()}
    groups: dict[tuple, list] = {}
    for hit in feed.unexplained:
        groups.setdefault((hit.rule, hit.subject), []).append(hit)
    outs = []
    for (official_rule, subject), hits in groups.items():
        first = hits[0]
        plain = next((h for h in feed.plain if h.rule == official_rule and h.subject == subject and h.why
                      and not h.why.startswith("our ")), None)
        said = list(dict.fromkeys(h.why for h in hits if h.why))
        if official_rule in _NO_REPORT and official:
            message = f"{who} {_NO_REPORT[official_rule]} on this package instead of reporting: {first.why}"
        else:
            verb = "rejects" if official else "would reject"
            words = plain.why if plain is not None else "; ".join(said) or "no reason given"
            message = f"{who} {verb} this ({official_rule}): {words}"
        lf = files.get(first.file) if first.file else None
        if lf is None and plain is not None and plain.file:
            lf = files.get(plain.file)
        path = first.path or (plain.path if plain is not None else ())
        fix = first.fix or (plain.fix if plain is not None else "") or _fix(official_rule, first, lf)
        extra = {"official_rule": official_rule, "source": w.source}
        if official:
            extra["official"] = said
        observed = _scalar_at(lf, path)
        wants = _wants(plain.why if plain is not None else first.why) if observed is not None else None
        outs.append(Fail(message, file=lf if lf is not None else (first.file or None), path=tuple(path),
                         observed=observed if wants else None, expected=wants, fix=fix, subject=subject,
                         entry=official_rule, extra=extra))
    return outs


def _wants(why: str) -> str | None:
    """What the check wants, where the words say it (``...; the automated check wants X``)."""
    _held, sep, wants = why.partition("the automated check wants ")
    return wants.strip() or None if sep else None


def _fix(official_rule: str, hit, lf) -> str:
    where = lf.rel if lf is not None else (hit.file or "the file it names")
    return (f"Change {where} so that the automated check's {official_rule} accepts it (its message says what it "
            "wants), then check again.")


def _scalar_at(lf, path) -> object:
    """The scalar the file holds at ``path`` (None where it holds none: nothing to show)."""
    v = value_at(getattr(lf, "data", None), tuple(path)) if lf is not None and path else None
    return v if isinstance(v, (str, int, float, bool)) else None
