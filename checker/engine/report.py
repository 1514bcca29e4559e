"""The result model every renderer reads: findings, counts, verdict, catalogue, versions."""
from __future__ import annotations

import datetime as _dt
from operator import attrgetter
from typing import Any

import msgspec

from checker.core.version import __version__
from checker.core.findings import SEVERITY_ORDER, Finding, Severity, Status, rules_verdict
from checker.core.gate import gates_week0, severity_rank
from checker.core.rule import Rule

SCHEMA_VERSION = "1.0"
#: (status, severity) of a finding, read in C: the counts go over every finding of a cohort (267,000)
_STATUS_SEVERITY = attrgetter("status", "severity")
TOOL_NAME = "endpoints-checker"


class Report(msgspec.Struct):
    findings: list[Finding]
    rules: list[Rule]
    paths: list[str]
    policy_edition: str
    policy_version: str
    fail_on: str = "flag"
    generated_at: str = msgspec.field(default_factory=lambda: _dt.datetime.now(_dt.timezone.utc).replace(microsecond=0).isoformat())
    package: Any = None  # the checked Package, for renderers that draw curves
    input_error: bool = False  # PATH missing or nothing checkable: exit 2
    policy_overrides: dict = msgspec.field(default_factory=dict)
    sections: dict = msgspec.field(default_factory=dict)  # optional top-level parts: cohort, waivers, baseline
    count_waived: bool = False  # --waivers given: summary counts waived findings separately
    gate_new_only: bool = False  # --fail-on-new: only FAILs new since --baseline fail the run
    #: id(first finding) -> (consecutive findings, their JSON text from a worker: core.json_text.findings_block);
    #: the JSON report splices the text in where those very findings follow each other
    json_blocks: dict = msgspec.field(default_factory=dict)
    context: Any = None  # the runner Context (package, policy, options): renderers compute per-point metrics
    #: what could not be written (checker.cli.output): each makes the exit code 2, and every report written
    #: after it says so (summary.exit_code, summary.output_problems)
    output_problems: list = msgspec.field(default_factory=list)
    #: the Week-0 prediction per submission (checker.core.week0.Week0 by submission name; cohort units
    #: carry theirs in sections["cohort"]), set by the pipeline
    week0_by_submission: dict = msgspec.field(default_factory=dict)

    def counts(self) -> dict[str, Any]:
        by_status = {s.value: 0 for s in Status}
        by_severity = {s: 0 for s in SEVERITY_ORDER}
        from collections import Counter

        for (status, severity), n in Counter(map(_STATUS_SEVERITY, self.findings)).items():
            by_status[status.value] += n
            if status is Status.FAIL:
                by_severity[severity.value] += n
        out = {"by_status": by_status, "fail_by_severity": by_severity, "total": len(self.findings)}
        if self.count_waived:
            out["waived"] = sum(1 for f in self.findings if (f.reason or "").startswith("waived"))
        return out

    def failing(self) -> list[Finding]:
        """The FAILs the gate trips on: at or above its severity (new ones only with --fail-on-new) and, with
        ``week0`` in it, every FAIL the Week-0 automated check rejects on."""
        threshold, week0 = severity_rank(self.fail_on), gates_week0(self.fail_on)
        return [f for f in self.findings if f.status is Status.FAIL
                and ((f.severity.rank >= threshold and (not self.gate_new_only or f.baseline == "new"))
                     or (week0 and f.week0))]

    @property
    def week0(self) -> dict | None:
        """summary.week0: what the Week-0 automated check (the official tool) decides; None without a submission."""
        from checker.core.week0 import combine

        cohort = self.sections.get("cohort")
        if cohort:
            return combine([(r["label"], r["week0"]) for r in cohort["submissions"] if r.get("week0")])
        return combine([(name, w.as_dict()) for name, w in self.week0_by_submission.items()])

    @property
    def week0_reject(self) -> bool:
        """Would the Week-0 automated check reject it (or some of its points)? From summary.week0."""
        w = self.week0
        return w is not None and w["verdict"] != "accept"

    @property
    def rules_verdict(self) -> str:
        """What our rules decide (core.findings.rules_verdict of this report's findings)."""
        return rules_verdict(self.findings)

    @property
    def verdict(self) -> str:
        """FAILED when the gate trips: a failing finding, or (``week0`` in it) a Week-0 reject."""
        return "FAILED" if self.failing() or (gates_week0(self.fail_on) and self.week0_reject) else "PASSED"

    def exit_code(self) -> int:
        if self.input_error or self.output_problems:
            return 2
        if (self.sections.get("fix") or {}).get("not_fixed"):
            return 1  # check --fix could not write a file: never a silent success
        return 1 if self.verdict == "FAILED" else 0

    def fixable(self) -> int:
        """FAIL findings that carry an automatic fix (check --fix applies them)."""
        return sum(1 for f in self.findings if f.edits and f.status is Status.FAIL)

    def to_dict(self, with_findings: bool = True) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "tool": {"name": TOOL_NAME, "version": __version__},
            "policy": {"edition": self.policy_edition, "version": self.policy_version,
                       "overrides": dict(sorted(self.policy_overrides.items()))},
            "generated_at": self.generated_at,
            "paths": list(self.paths),
            "fail_on": self.fail_on,
            "summary": {
                **self.counts(),
                "verdict": self.verdict,
                "rules_verdict": self.rules_verdict,
                "week0": self.week0,
                "week0_reject": self.week0_reject,
                "exit_code": self.exit_code(),
                **({"output_problems": list(self.output_problems)} if self.output_problems else {}),
            },
            "rules": [r.catalogue_entry() for r in sorted(self.rules, key=lambda r: r.id)],
            "findings": [f.as_dict() for f in self.findings] if with_findings else [],
            **{k: v for k, v in sorted(self.sections.items())},
        }
