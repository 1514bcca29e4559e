"""The result model every renderer reads: findings, catalogue, versions, and their tally (checker.engine.tally:
verdicts, counts and problems, computed once)."""
from __future__ import annotations

import datetime as _dt
from typing import Any

import msgspec

from checker.core.version import __version__
from checker.core.findings import Finding
from checker.core.rule import Rule

SCHEMA_VERSION = "1.0"
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
    #: --docs-url: rule links point under this copy of docs/ (checker.core.rule_pages; "": the environment's,
    #: else the installed pages)
    docs_url: str = ""

    #: the verdicts, counts and problems (checker.engine.tally), computed once the findings are final: by the
    #: pipeline, else on first use
    _tally: Any = None

    @property
    def tally(self):
        """What every output formats: verdicts (the report's, each unit's, each point's), counts and problems."""
        if self._tally is None:
            from checker.engine.tally import Tally, units_of_package

            self._tally = Tally(self.findings, units_of_package(self.package, self.week0_by_submission),
                                self.fail_on, self.gate_new_only)
        return self._tally

    def counts(self) -> dict[str, Any]:
        return self.tally.counts.as_dict(with_waived=self.count_waived)

    def failing(self) -> list[Finding]:
        """The FAILs the gate trips on: at or above its severity (new ones only with --fail-on-new) and, with
        ``week0`` in it, every FAIL the Week-0 automated check rejects on (checker.engine.tally.gate_of)."""
        from checker.engine.tally import failing_findings

        return failing_findings(self.findings, self.fail_on, self.gate_new_only)

    @property
    def week0(self) -> dict | None:
        """summary.week0: what the Week-0 automated check (the official tool) decides; None without a submission."""
        return self.tally.week0

    @property
    def week0_reject(self) -> bool:
        """Would the Week-0 automated check reject it (or some of its points)?"""
        return self.tally.report.week0_reject

    @property
    def rules_verdict(self) -> str:
        """What our rules decide: reject, reject-points or accept."""
        return self.tally.rules

    @property
    def verdict(self) -> str:
        return self.tally.gate

    def exit_code(self) -> int:
        if self.input_error or self.output_problems:
            return 2
        if (self.sections.get("fix") or {}).get("not_fixed"):
            return 1  # check --fix could not write a file: never a silent success
        return 1 if self.tally.report.failing else 0

    def fixable(self) -> int:
        """FAIL findings that carry an automatic fix (check --fix applies them)."""
        return self.tally.fixable

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
