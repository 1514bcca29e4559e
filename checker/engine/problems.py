"""The problem lines of a report, computed once (``Tally.problems``): every human output prints these.

One line per root cause: a FAIL that follows from another (``caused_by``, checker.engine.causes) is named on its
cause's line, not printed; the same problem repeated at other subjects (the same rule, severity, baseline state,
and message, evidence and fix once the subject's own names are taken out) reads once, "same at ...", across points,
curves and the submissions of a cohort, and so does the same finding at the same place (a run folder's file checked
as the run folder and as the point of its bundle). A line's level is the highest of its group. Every FAIL is in exactly one
line (a consequence whose cause is not in the findings at hand reads as a line of its own).
"""
from __future__ import annotations

import re
from operator import attrgetter
from typing import Iterable

import msgspec

from checker.core.findings import Finding, Severity, Status


class Problem(msgspec.Struct):
    """One problem line: the cause's FAIL (``lead``), its repeats at other subjects, the FAILs that follow."""

    findings: list  # ``lead`` first, then its repeats (report order)
    consequences: list = msgspec.field(default_factory=list)  # the FAILs that follow from any of them
    severity: Severity = Severity.WARN  # the highest of the group

    @property
    def lead(self) -> Finding:
        return self.findings[0]

    @property
    def repeats(self) -> list:
        return self.findings[1:]

    @property
    def also(self) -> list[str]:
        """The rule ids of the consequences, each once, in report order."""
        return list(dict.fromkeys(f.rule_id for f in self.consequences))

    @property
    def all(self) -> list:
        """Every FAIL of the line: the cause, its repeats, their consequences."""
        return self.findings + self.consequences


def _normalise(text: str, names: tuple) -> str:
    for name in names:
        if name:
            text = re.sub(rf"(?<![\w-]){re.escape(name)}(?![\w-])", "\0", text)
    return text


def repeat_key(f: Finding) -> tuple:
    """What a repeat shares: rule, severity, baseline state, the subject's kind and entry, and its message,
    evidence and fix with the subject's names (submission, system, model, point, and "concurrency N" at rN) taken out."""
    s = f.subject
    names = tuple(sorted({s.point, s.model, s.system, s.submission} - {""}, key=len, reverse=True))
    ev = "\x1f".join(_normalise(str(x), names) for x in (f.observed, f.expected, f.fix, f.message))
    if s.point[:1] == "r" and s.point[1:].isdigit():  # the concurrency the point is named for, as words say it
        ev = re.sub(rf"\bconcurrency {s.point[1:]}\b", "concurrency \0", ev)
    return (f.rule_id, f.severity, f.baseline, s.kind, bool(s.model), s.entry, ev)


def problem_lines(findings: list[Finding]) -> list[Problem]:
    """The report's problem lines, worst first (a line's level is its group's highest), report order within."""
    fails = [f for f in findings if f.status is Status.FAIL]
    causes = {(f.rule_id, f.subject.label()): f for f in fails if f.caused_by is None}
    follows: dict[int, list[Finding]] = {}
    leads = []
    for f in fails:
        cause = causes.get((f.caused_by["rule_id"], f.caused_by["subject"])) if f.caused_by is not None else None
        if cause is None:
            leads.append(f)
        else:
            follows.setdefault(id(cause), []).append(f)
    groups: dict[tuple, Problem] = {}
    placed: dict[tuple, Problem] = {}  # the same rule and words at the same place (a run folder and its point)
    for f in leads:
        key = repeat_key(f)
        where = (f.rule_id, f.location.file, f.location.line, f.location.column, f.message) \
            if f.location is not None and f.location.file else None
        p = groups.get(key) or (placed.get(where) if where is not None else None)
        if p is None:
            groups[key] = p = Problem([f])
        else:
            p.findings.append(f)
        if where is not None:
            placed.setdefault(where, p)
        p.consequences += follows.get(id(f), ())
    out = list(groups.values())
    for p in out:
        p.severity = max((f.severity for f in p.all), key=attrgetter("rank"))
    order = {id(p): i for i, p in enumerate(out)}
    return sorted(out, key=lambda p: (-p.severity.rank, order[id(p)]))
