"""The tools' results as pydantic models: the SDK derives each tool's output schema from them, and every
structuredContent a tool returns validates against it (tests/mcp)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue

from checker.core.report_model import Edit, Subject  # the JSON report's own models: a fix's text edit, a subject

Level = Literal["error", "flag", "warning", "skipped", "passed"]


class Location(BaseModel):
    file: str = Field(description="the file, as the report names it (relative to the checked PATH's parent)")
    line: int | None = Field(None, description="1-based line, when the value has a position")
    column: int | None = Field(None, description="1-based column")
    path: list[JsonValue] = Field(default_factory=list, description="the data path inside the file (keys, indexes)")


class Finding(BaseModel):
    rule_id: str
    status: Literal["PASS", "FAIL", "SKIP"]
    severity: Literal["reject", "reject-points", "flag", "warn"]
    level: Level = Field(description="error (reject, reject-points), flag, warning (warn) for a FAIL; else skipped/passed")
    family: str
    subject: Subject
    message: str
    location: Location | None = None
    observed: JsonValue = Field(None, description="what the package holds, as written")
    expected: JsonValue = Field(None, description="what the rules expect")
    fix: str | None = Field(None, description="how to fix it, in words")
    fixable: bool = Field(False, description="the fix is certain: edits holds it, and `endpoints-checker check PATH "
                                             "--fix` applies it")
    edits: list[Edit] | None = Field(None, description="the automatic fix as text edits, when fixable")
    reason: str | None = Field(None, description="a SKIP's reason code (missing-input, not-applicable, ...)")
    week0: bool | None = Field(None, description="the Week-0 automated check acts on this finding (when the report "
                                                 "carries the Week-0 prediction)")
    also: list[dict] | None = Field(None, description="the FAILs that follow from this one ({rule_id, subject}): "
                                                      "not listed on their own; level is the highest of them all")


class StatusCounts(BaseModel):
    PASS: int
    FAIL: int
    SKIP: int


class Counts(BaseModel):
    total: int = Field(description="findings in the report (one per rule and subject)")
    by_status: StatusCounts
    fail_by_severity: dict[Literal["reject", "reject-points", "flag", "warn"], int]
    by_level: dict[Level, int] = Field(description="findings per level word")
    fixable: int = Field(description="FAILs that `check --fix` can apply")


Verdict = Literal["accept", "reject-points", "reject"]


class Week0Prediction(BaseModel):
    """What the Week-0 automated check (the official tool) would decide: its own verdict where it is installed
    (source official), else predicted (source model)."""

    tool: str = Field(description="the official tool whose decision this is")
    verdict: Verdict
    points: list[str] = Field(default_factory=list, description="with reject-points: the points it rejects")
    rules: list[str] = Field(default_factory=list, description="the rule ids behind the decision")
    source: Literal["official", "model"] = Field(
        "model", description="official: the installed official checker decided; model: predicted")
    version: str = Field("", description="the official's version (run, or predicted)")


class UnitVerdicts(BaseModel):
    """One submission's (or run folder's) verdicts and counts, as the report holds them."""

    label: str = Field(description="the submission (organisation/id in a cohort) or run folder")
    kind: Literal["submission", "run-folder"]
    verdict: Literal["PASSED", "FAILED"] = Field(description="the --fail-on gate over its findings")
    rules_verdict: Verdict
    week0_reject: bool
    week0: Week0Prediction | None = None
    by_level: dict[Level, int] = Field(description="its findings per level word")


class CheckResult(BaseModel):
    """What one check found: verdicts, counts and the findings at the asked levels."""

    paths: list[str]
    verdict: Literal["PASSED", "FAILED"] = Field(description="the --fail-on gate: FAILED when a FAIL is at or above it")
    fail_on: str
    exit_code: int = Field(description="the command line's exit code for the same check (0, 1, 2)")
    rules_verdict: Verdict = Field(description="what the rules decide: reject (a reject FAIL), reject-points (only "
                                               "reject-points FAILs) or accept")
    week0_reject: bool = Field(description="the Week-0 automated check would reject the submission or some points")
    week0: Week0Prediction | None = Field(
        None, description="the report's Week-0 prediction (summary.week0), when the report carries it")
    policy_edition: str
    policy_version: str
    counts: Counts
    submissions: list[UnitVerdicts] = Field(
        default_factory=list, description="each submission and run folder checked, with its own verdicts")
    levels: list[Level] = Field(description="the levels of the findings listed")
    findings: list[Finding] = Field(description="worst first: errors, flags, warnings, then skipped and passed; "
                                                "max_findings keeps the first")
    findings_not_listed: int = Field(0, description="findings at the asked levels beyond max_findings")
    consequences: int = Field(0, description="FAILs not listed because they follow from a listed one (named in its "
                                             "also); each still counts in counts and for the gate")


class RuleSummary(BaseModel):
    id: str
    title: str
    family: str
    severity: Literal["reject", "reject-points", "flag", "warn"]
    scope: str
    clause: str
    official: bool = Field(description="the official checker has a rule of this id")


class RuleList(BaseModel):
    rules: list[RuleSummary]
    families: list[str] = Field(description="every family name (the values family accepts)")


class RuleExplanation(BaseModel):
    rule: RuleSummary
    policy_files: list[str] = Field(description="the policy files the rule reads")
    text: str = Field(description="`endpoints-checker explain RULE`: what, why, how to fix, where, examples")


class RegionRow(BaseModel):
    region: str
    start: int
    end: int
    empty: bool


class RegionsResult(BaseModel):
    c_max: int
    c_min: int
    regions: list[RegionRow] = Field(description="R§5.5 regions with inclusive concurrency bounds")
    margin_end_exact: int = Field(description="the margin's end in exact arithmetic")
    float_margin: bool = Field(description="the reference's float ceil makes the margin one longer")
    empty_regions: list[str]
    text: str = Field(description="the table as `endpoints-checker regions` prints it")


class DraftResult(BaseModel):
    run_folder: str
    point_yaml: str = Field(description="the point.yaml text `endpoints-checker draft` would write (written nowhere)")
    values: int = Field(description="entries taken from the run")
    fills: int = Field(description="<FILL: ...> placeholders left for the submitter")
