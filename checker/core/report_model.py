"""The JSON report as pydantic models: what ``checker.check`` returns and what schemas/report.schema.json is
generated from (``make schemas``).

The report is built by ``checker.engine.report.Report.to_dict``; ``ReportModel.model_validate`` of that
dict is the typed view a library user gets. Every model keeps keys it does not declare (a newer 1.x
report adds fields), so a field added to the report is added here as one annotated line.
"""
from __future__ import annotations

from typing import Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

Severity = Literal["reject", "reject-points", "flag", "warn"]
RULE_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"
PathItem = Union[str, int, float, bool, None]


class _Part(BaseModel):
    """A part of the report: keys it does not declare are kept (newer 1.x reports may add some)."""

    model_config = ConfigDict(extra="allow", defer_build=True)


class Tool(_Part):
    """The tool that wrote the report."""

    name: Literal["endpoints-checker"] = Field(description="Always endpoints-checker.")
    version: str = Field(description="The tool's version.")


class PolicyRef(_Part):
    """The policy edition the rules read."""

    edition: str = Field(description="The edition directory, e.g. v1.0.")
    version: str = Field(description="The edition's version as its index.yaml states it.")
    overrides: dict[str, str] = Field({}, description="Policy files replaced for this run: name -> file.")


class Summary(_Part):
    """Counts, the verdict and the exit code of the run."""

    by_status: dict[str, int] = Field(description="Findings per status: PASS, FAIL, SKIP.")
    fail_by_severity: dict[str, int] = Field(description="FAIL findings per severity.")
    total: int = Field(ge=0, description="All findings.")
    verdict: Literal["PASSED", "FAILED"] = Field(description="FAILED when a finding is at or above --fail-on.")
    week0_reject: bool = Field(description="Whether the Week-0 automated check would reject the submission.")
    exit_code: Literal[0, 1, 2] = Field(description="The process exit code: 0 pass, 1 fail, 2 usage or output error.")
    output_problems: Optional[list[str]] = Field(None, description=(
        "Outputs of this run that could not be written (a renderer that failed, a target that refused the "
        "bytes); each makes exit_code 2. Absent when every output was written."))
    waived: Optional[int] = Field(None, ge=0, description=(
        "With --waivers: FAILs turned into SKIP by a waiver (also counted in by_status.SKIP)."))


class RuleEntry(_Part):
    """One rule of the catalogue the run evaluated."""

    id: str = Field(pattern=RULE_ID, description="The rule id (the official kebab-case id where one exists).")
    title: str = Field(min_length=1, description="What the rule checks, in a line.")
    family: str = Field(min_length=1, description="The rule family (its package under rules/).")
    severity: Severity = Field(description="What a FAIL of this rule means.")
    scope: Literal["package", "submission", "system", "curve", "point", "run-folder", "cohort", "bundle",
                   "plan"] = Field(description="What one finding of the rule is about.")
    clause: str = Field(description="The clause of the rules the check cites.")
    official: bool = Field(description="Whether the official checker runs this rule too.")


class Subject(BaseModel):
    """What a finding is about; empty strings for the levels that do not apply."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    submission: str = Field(description="The submission (organisation/id), or the run folder.")
    system: str = Field(description="The system directory under results/.")
    model: str = Field(description="The benchmark model directory.")
    point: str = Field(description="The point directory (r64, ...).")
    entry: str = Field(description="A finer subject: a field, an accuracy entry, a file.")


class Location(_Part):
    """Where a finding points: a file, its line and column, and the data path inside it."""

    file: str = Field(description="The file, relative to the path checked.")
    line: Optional[int] = Field(ge=1, description="1-based line, or null for a whole-file finding.")
    column: Optional[int] = Field(ge=1, description="1-based column in characters, or null.")
    path: list[PathItem] = Field(description="Keys and list indexes from the top of the file's data.")


class Evidence(_Part):
    """What the check found and what the rules expect, as written."""

    observed: Any = Field(description="The value(s) found.")
    expected: Any = Field(description="The value(s) the rules expect.")


class Position(_Part):
    """A place in a file's text."""

    line: int = Field(ge=1, description="1-based line.")
    column: int = Field(ge=1, description="In characters, after a byte-order mark.")
    offset: int = Field(ge=0, description="Characters from the start of the file as decoded (a byte-order mark "
                                          "is character 0).")


class Edit(_Part):
    """One text edit of an automatic fix."""

    file: str = Field(description="The file edited.")
    path: list[PathItem] = Field(description="The data path the edit changes.")
    start: Position = Field(description="Where the replaced text starts.")
    end: Position = Field(description="Exclusive; equal to start for an insertion.")
    old: str = Field(description="The exact text between start and end now.")
    new: str = Field(description="The text written instead.")
    file_sha256: str = Field(pattern=r"^[0-9a-f]{64}$", description=(
        "Of the file as the check read it: apply only to a file that still has it."))


class Finding(_Part):
    """One evaluation of one rule on one subject: PASS, FAIL or SKIP."""

    model_config = ConfigDict(json_schema_extra={"allOf": [
        {"if": {"properties": {"status": {"const": "SKIP"}}}, "then": {"required": ["reason"]}},
        {"if": {"properties": {"status": {"const": "FAIL"}}}, "then": {"required": ["fix"]}}]})

    rule_id: str = Field(pattern=RULE_ID, description="The rule evaluated.")
    status: Literal["PASS", "FAIL", "SKIP"] = Field(description="The outcome.")
    severity: Severity = Field(description="The rule's severity (what a FAIL means).")
    family: str = Field(description="The rule's family.")
    subject: Subject = Field(description="What the finding is about.")
    message: str = Field(min_length=1, description="What was found, in a sentence.")
    location: Optional[Location] = Field(None, description="Where the finding points, when it has a place.")
    evidence: Optional[Evidence] = Field(None, description="Observed and expected values of a FAIL.")
    fix: Optional[str] = Field(None, description="How to fix a FAIL.")
    reason: Optional[str] = Field(None, description="Why a SKIP could not evaluate.")
    extra: Optional[dict[str, Any]] = Field(None, description="Rule-specific data (metrics, counts).")
    baseline: Optional[Literal["new", "unchanged"]] = Field(None, description=(
        "With --baseline: whether this FAIL was in the baseline report."))
    edits: Optional[list[Edit]] = Field(None, min_length=1, description=(
        "The automatic fix (check --fix applies it): text edits whose right value is certain, in hand-written "
        "files only."))


class ReportModel(_Part):
    """The JSON report of one endpoints-checker run (schema_version 1.x). Findings are sorted by submission,
    system, model, point, entry and rule; two runs on the same input differ only in generated_at."""

    schema_version: str = Field(pattern=r"^1\.[0-9]+$", description="The report format, 1.x.")
    tool: Tool = Field(description="The tool that wrote the report.")
    policy: PolicyRef = Field(description="The policy edition the rules read.")
    generated_at: str = Field(json_schema_extra={"format": "date-time"}, description="When the report was written "
                                                                                   "(UTC, ISO 8601).")
    paths: list[str] = Field(description="The paths checked, as given.")
    fail_on: Literal["reject", "flag", "warn", "never"] = Field(description="The --fail-on gate.")
    summary: Summary = Field(description="Counts, the verdict and the exit code.")
    rules: list[RuleEntry] = Field(description="The rules evaluated.")
    findings: list[Finding] = Field(description="Every finding, sorted by subject and rule.")
    cohort: Optional[dict[str, Any]] = Field(None, description=(
        "Cohort mode (two or more submissions or run folders): one row per unit, verdicts, counts by rule and "
        "severity, and the cross-submission findings."))
    waivers: Optional[dict[str, Any]] = Field(None, description=(
        "The --waivers file as applied: each entry, whether it expired, and how many findings it waived."))
    baseline: Optional[dict[str, Any]] = Field(None, description=(
        "--baseline: counts of new, unchanged and resolved FAILs and the resolved ones."))
    fix: Optional[dict[str, Any]] = Field(None, description=(
        "check --fix (what was written) or --diff (what would be): one entry per file."))
    bundle: Optional[dict[str, Any]] = Field(None, description=(
        "Run folders checked as the bundle they become: where each run lands, and where --write-bundle wrote "
        "the tree."))

    @property
    def failed(self) -> list[Finding]:
        """The FAIL findings."""
        return [f for f in self.findings if f.status == "FAIL"]
