"""A report's verdicts, counts and problems, computed once here: every output formats these and counts nothing.

``Tally`` holds, for the whole report and for each unit (a submission or run folder: the one checked, or each of
a cohort), a ``Verdicts``: the counts per status and level, what the rules decide, what the Week-0 automated
check decides (``summary.week0``'s shape, with its ``source`` when the engine records one) and the ``--fail-on``
gate. Per point it gives both verdicts (``point``); per section of a page, the counts under a subject
(``counts_under``); and the set of (rule, subject) problems. Everything is folded from one count of the
findings by (subject, status, severity, reason, baseline), taken in C, so a 100-submission cohort pays for it once.
"""
from __future__ import annotations

from collections import Counter
from functools import cached_property
from operator import attrgetter
from typing import Any, Iterable

import msgspec

from checker.core.findings import Finding, Severity, Status, Subject
from checker.engine.problems import Problem  # noqa: F401 - a problem line, re-exported with the tally
from checker.core.gate import gates_week0, severity_rank

#: what one finding contributes to the counts, read in C
_KEY = attrgetter("subject", "status", "severity", "reason", "baseline", "week0")
_RULE_KEY = attrgetter("rule_id", "status", "severity", "reason")
#: a rules or Week-0 verdict, least severe first
DECISIONS = ("accept", "reject-points", "reject")


class Counts(msgspec.Struct, frozen=True):
    """Findings per status, FAILs per severity, and the SKIPs a waiver made or --select/--ignore left out."""

    passed: int = 0
    skipped: int = 0
    reject: int = 0
    reject_points: int = 0
    flag: int = 0
    warn: int = 0
    waived: int = 0  # SKIPs a waiver made (counted in skipped)
    deselected: int = 0  # SKIPs of rules --select/--ignore left out (counted in skipped)

    @property
    def failed(self) -> int:
        return self.reject + self.reject_points + self.flag + self.warn

    @property
    def total(self) -> int:
        return self.passed + self.skipped + self.failed

    @property
    def errors(self) -> int:
        """reject and reject-points FAILs: what every human output calls errors."""
        return self.reject + self.reject_points

    @property
    def rules_verdict(self) -> str:
        """What the rules decide: reject (a reject FAIL), reject-points (only reject-points FAILs) or accept."""
        return "reject" if self.reject else "reject-points" if self.reject_points else "accept"

    def by_status(self) -> dict[str, int]:
        return {"PASS": self.passed, "FAIL": self.failed, "SKIP": self.skipped}

    def fail_by_severity(self) -> dict[str, int]:
        return {"reject": self.reject, "reject-points": self.reject_points, "flag": self.flag, "warn": self.warn}

    def levels(self) -> dict[str, int]:
        """The level words of every human output: error, flag, warning, skipped, passed."""
        return {"error": self.errors, "flag": self.flag, "warning": self.warn, "skipped": self.skipped,
                "passed": self.passed}

    def as_dict(self, with_waived: bool = False) -> dict[str, Any]:
        """The JSON report's counts (summary, and each cohort row)."""
        out: dict[str, Any] = {"by_status": self.by_status(), "fail_by_severity": self.fail_by_severity(),
                               "total": self.total}
        if with_waived:
            out["waived"] = self.waived
        return out


_SEVERITY_FIELD = {Severity.REJECT: "reject", Severity.REJECT_POINTS: "reject_points", Severity.FLAG: "flag",
                   Severity.WARN: "warn"}


def _fold(items: Iterable[tuple[tuple, int]]) -> Counts:
    """Counts from (status, severity, reason) -> n."""
    c = dict.fromkeys(Counts.__struct_fields__, 0)
    for (status, severity, reason), n in items:
        if status is Status.PASS:
            c["passed"] += n
        elif status is Status.SKIP:
            c["skipped"] += n
            if reason:
                if reason.startswith("waived"):
                    c["waived"] += n
                elif reason == "deselected":
                    c["deselected"] += n
        else:
            c[_SEVERITY_FIELD[severity]] += n
    return Counts(**c)


class Verdicts(msgspec.Struct, frozen=True):
    """What is decided about one unit (or the whole report): its counts, the rules' verdict, the Week-0 check's
    (``summary.week0``'s shape; None where nothing it checks was checked, or only some rules ran) and the gate."""

    label: str  # the unit's label; "" for the whole report
    kind: str  # "report", "submission" or "run-folder"
    counts: Counts
    week0: dict | None
    failing: int  # FAILs at or above --fail-on (only new ones with --fail-on-new)
    checked: bool = True  # False: the unit's check did not complete (its finding says why)

    @property
    def rules(self) -> str:
        """What the rules decide: reject, reject-points or accept."""
        return self.counts.rules_verdict

    @property
    def gate(self) -> str:
        """The --fail-on verdict: FAILED when a FAIL is at or above it."""
        return "FAILED" if self.failing else "PASSED"

    @property
    def week0_verdict(self) -> str | None:
        return self.week0["verdict"] if self.week0 is not None else None

    @property
    def week0_reject(self) -> bool:
        """Would the Week-0 automated check reject it (or some of its points)?"""
        return self.week0 is not None and self.week0["verdict"] != "accept"

    @property
    def week0_source(self) -> str | None:
        """official (the installed official checker decided) or model (predicted); None without a Week-0 verdict."""
        return self.week0.get("source", "model") if self.week0 is not None else None

    def verdicts_dict(self) -> dict[str, Any]:
        """The verdicts as the machine outputs name them (a cohort row, SARIF, the MCP result)."""
        return {"verdict": self.gate, "week0_reject": self.week0_reject, "rules_verdict": self.rules,
                "week0": self.week0}


class PointVerdict(msgspec.Struct, frozen=True):
    """Both verdicts at one point: reject (the whole submission is rejected), reject-points (this point is) or
    accept."""

    rules: str
    week0: str | None  # None: no Week-0 verdict for its submission


def gate_of(fail_on: str, new_only: bool):
    """The --fail-on predicate over (status, severity, baseline, week0): the one definition of a failing finding.
    A FAIL at or above the gate's severity (only a new one with --fail-on-new) trips it; with ``week0`` in the
    gate, so does every FAIL the Week-0 automated check rejects on (each Week-0 reject has one: a week0-check
    FAIL, or ours that it explains)."""
    threshold, week0 = severity_rank(fail_on), gates_week0(fail_on)

    def failing(status, severity, baseline, rejected=None) -> bool:
        return status is Status.FAIL and ((severity.rank >= threshold and (not new_only or baseline == "new"))
                                          or bool(week0 and rejected))

    return failing


def failing_findings(findings: list[Finding], fail_on: str, new_only: bool) -> list[Finding]:
    failing = gate_of(fail_on, new_only)
    return [f for f in findings if failing(f.status, f.severity, f.baseline, f.week0)]


class Unit(msgspec.Struct, frozen=True):
    """What the engine knows of a unit before counting: its kind, label, Week-0 verdict and whether it was checked."""

    kind: str
    label: str
    week0: dict | None = None
    checked: bool = True


def owns(unit: Unit, s: Subject) -> bool:
    """Is this subject inside the unit? A submission's subjects carry its label; a run folder is a point of no
    model."""
    if unit.kind == "submission":
        return s.submission == unit.label
    return not s.submission and not s.model and s.point == unit.label


class Tally:
    """Verdicts, counts and problems of one report (see the module's docstring). Built by the pipeline once its
    findings are final (``Report.tally``); a page of one unit of a cohort gets that unit's ``of_unit``."""

    def __init__(self, findings: list[Finding], units: list[Unit], fail_on: str = "flag", new_only: bool = False):
        from checker.core.week0 import combine

        self.findings = findings
        self.fail_on, self.new_only = fail_on, new_only
        self._by_key = Counter(map(_KEY, findings))
        failing = gate_of(fail_on, new_only)
        by_unit: dict[str, Counter] = {u.label: Counter() for u in units}
        fail_by_unit: dict[str, int] = dict.fromkeys(by_unit, 0)
        total: Counter = Counter()
        n_failing = 0
        index = {(u.kind == "submission", u.label): u.label for u in units}
        for (subject, status, severity, reason, baseline, week0), n in self._by_key.items():
            key = (status, severity, reason)
            total[key] += n
            bad = n if failing(status, severity, baseline, week0) else 0
            n_failing += bad
            label = index.get((True, subject.submission)) if subject.submission else (
                index.get((False, subject.point)) if not subject.model else None)
            if label is not None:
                by_unit[label][key] += n
                fail_by_unit[label] += bad
        if gates_week0(fail_on):  # a Week-0 reject trips the gate even where its finding was deselected
            for u in units:
                if u.week0 is not None and u.week0["verdict"] != "accept" and not fail_by_unit[u.label]:
                    fail_by_unit[u.label] = 1
                    n_failing += 1
        self.units: dict[str, Verdicts] = {
            u.label: Verdicts(u.label, u.kind, _fold(by_unit[u.label].items()), u.week0, fail_by_unit[u.label],
                              u.checked) for u in units}
        week0 = combine([(u.label, u.week0) for u in units if u.week0 is not None])
        self.report = Verdicts("", "report", _fold(total.items()), week0, n_failing)

    # --- the whole report -------------------------------------------------------------------------------------

    @property
    def counts(self) -> Counts:
        return self.report.counts

    @property
    def week0(self) -> dict | None:
        return self.report.week0

    @property
    def rules(self) -> str:
        return self.report.rules

    @property
    def gate(self) -> str:
        return self.report.gate

    @cached_property
    def problems(self) -> list["Problem"]:
        """The problem lines every human output prints, worst first: one per root cause (its repeats at other
        subjects merged, the FAILs that follow from it named), each FAIL in exactly one (checker.engine.problems)."""
        from checker.engine.problems import problem_lines

        return problem_lines(self.findings)

    @cached_property
    def consequences(self) -> int:
        """FAILs that follow from another (``caused_by``): named on their cause's problem line, not printed."""
        return sum(1 for f in self.findings if f.caused_by is not None and f.status is Status.FAIL)

    @cached_property
    def fixable(self) -> int:
        """FAIL findings that carry an automatic fix (check --fix applies them)."""
        return sum(1 for f in self.findings if f.edits and f.status is Status.FAIL)

    @cached_property
    def by_rule(self) -> dict[str, Counts]:
        """Counts per rule id (the rule catalogue of a page, a cohort's counts_by_rule)."""
        per: dict[str, Counter] = {}
        for (rule_id, status, severity, reason), n in Counter(map(_RULE_KEY, self.findings)).items():
            per.setdefault(rule_id, Counter())[(status, severity, reason)] += n
        return {rid: _fold(c.items()) for rid, c in sorted(per.items())}

    # --- parts -------------------------------------------------------------------------------------------------

    def of_unit(self, label: str) -> "Tally":
        """This tally seen from one unit: its verdicts as the report's (a cohort's page of one submission)."""
        part = Tally.__new__(Tally)
        part.fail_on, part.new_only = self.fail_on, self.new_only
        unit = self.units[label]
        probe = Unit(unit.kind, label)
        part.findings = [f for f in self.findings if owns(probe, f.subject)]
        part._by_key = Counter({k: n for k, n in self._by_key.items() if owns(probe, k[0])})
        part.units = {label: unit}
        part.report = msgspec.structs.replace(unit, label="", kind="report")
        return part

    @cached_property
    def _under(self) -> dict[tuple, Counter]:
        out: dict[tuple, Counter] = {}
        for (s, status, severity, reason, _b, _w), n in self._by_key.items():
            key = (status, severity, reason)
            parts = (s.submission, s.system, s.model, s.point)
            for depth in range(5):
                prefix = parts[:depth]
                if depth and not prefix[-1]:
                    break
                out.setdefault(prefix, Counter())[key] += n
        return out

    def counts_under(self, *prefix: str) -> Counts:
        """Counts of the findings at or under a subject: (submission,), (submission, system), (..., model) or
        (..., point); a run folder's findings are under ("", "", "", its label)."""
        prefix = tuple(prefix)
        if prefix and not prefix[0]:  # a run folder: a point of no submission, system or model
            return _fold(Counter({(st, sv, r): n for (s, st, sv, r, _b, _w), n in self._by_key.items()
                                  if not s.submission and not s.model and s.point == prefix[-1]}).items())
        return _fold(self._under.get(prefix, Counter()).items())

    def point(self, submission: str, system: str, model: str, point: str) -> PointVerdict:
        """Both verdicts at one point of a submission."""
        own = self.counts_under(submission, system, model, point)
        unit = self.units.get(submission)
        whole = unit.rules if unit is not None else "accept"
        rules = "reject" if whole == "reject" or own.reject else "reject-points" if own.reject_points else "accept"
        week0 = None
        if unit is not None and unit.week0 is not None:
            w = unit.week0
            label = "/".join(p for p in (system, model, point) if p)
            week0 = "reject" if w["verdict"] == "reject" else (
                "reject-points" if label in w.get("points", ()) else "accept")
        return PointVerdict(rules, week0)


def units_of_package(pkg, week0_by_submission: dict) -> list[Unit]:
    """The units of a package checked as one: each submission (with its Week-0 verdict) and run folder."""
    names = [s.name for s in getattr(pkg, "submissions", None) or ()]
    predicted = {name: w.as_dict() for name, w in week0_by_submission.items()}
    out = [Unit("submission", name, predicted.pop(name, None)) for name in names]
    out += [Unit("submission", name, w) for name, w in predicted.items()]  # a prediction is never dropped
    out += [Unit("run-folder", rf.name) for rf in getattr(pkg, "run_folders", None) or ()]
    return out


def cross_submission(findings: list[Finding], rules) -> list[Finding]:
    """The findings of the cohort-scope rules (those that compare units): ``cohort.cross_submission_findings``."""
    cohort_scope = {r.id for r in rules if r.scope == "cohort"}
    return [f for f in findings if f.rule_id in cohort_scope]


_STATUS_ORDER = {Status.FAIL: 0, Status.SKIP: 1, Status.PASS: 2}


def _worst(f: Finding) -> tuple:
    return (_STATUS_ORDER[f.status], -f.severity.rank if f.status is Status.FAIL else 0)


def worst_first(findings: Iterable[Finding]) -> list[Finding]:
    """FAILs most severe first, then SKIPs, then PASSes, the report's order within each: every listing that can
    be cut (the text, Markdown, an agent's max_findings) keeps the worst."""
    return sorted(findings, key=_worst)
