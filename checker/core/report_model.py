"""The JSON report as pydantic models: what ``checker.check`` returns and what schemas/report.schema.json is
generated from (``make schemas``).

The report is built by ``checker.engine.report.Report.to_dict``; ``ReportModel.model_validate`` of that
dict is the typed view a library user gets. Every model keeps keys it does not declare (a newer 1.x
report adds fields), so a field added to the report is added here as one annotated line.
"""
from __future__ import annotations

from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field

from checker.core.gate import fail_on_pattern

Severity = Literal["reject", "reject-points", "flag", "warn"]
RULE_ID = r"^[a-z0-9]+(-[a-z0-9]+)*$"
PathItem = Union[str, int, float, bool, None]
N = Annotated[int, Field(ge=0)]
Decision = Literal["accept", "reject", "reject-points"]


def _absent_when_none(schema: dict) -> None:
    """The schema of a field the report leaves out rather than writing null: the value's schema alone."""
    members = [m for m in schema.pop("anyOf", []) if m != {"type": "null"}]
    if len(members) == 1:
        schema.update(members[0])
    elif members:
        schema["anyOf"] = members
    schema.pop("default", None)


def _keys(*names: str) -> dict:
    """A count table that always names these keys."""
    return {"required": list(names)}


def Omitted(**kw: Any) -> Any:
    """An optional field that is absent from the report when it has no value (never written as null)."""
    return Field(None, json_schema_extra=_absent_when_none, **kw)


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


class Week0(_Part):
    """The Week-0 verdict: what the official automated check (endpoints-submission-cli) decides, from the
    official checker itself where it is installed (source official), else predicted by a model of its own
    error conditions (source model)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    tool: str = Field(description="The official tool and version predicted.")
    verdict: Decision = Field(description="accept, reject (the submission) or reject-points (only some points).")
    points: list[str] = Field(description=(
        "reject-points: the points it rejects (system/model/r<N>, prefixed by the submission label in a cohort)."))
    rules: list[str] = Field(description=(
        "The official rule ids whose ERRORs decide it (crash: the official stops with a traceback; timeout: it "
        "never finishes; memory: it outgrows its memory cap)."))
    source: Literal["official", "model"] = Field(description=(
        "official: the installed official checker decided (every unit of a cohort); model: predicted."))
    version: str = Field(description="The official's version: the one run, or the one the model predicts.")


class Summary(_Part):
    """Counts, the verdict and the exit code of the run."""

    by_status: dict[str, N] = Field(json_schema_extra=_keys("PASS", "FAIL", "SKIP"),
                                   description="Findings per status: PASS, FAIL, SKIP.")
    fail_by_severity: dict[str, N] = Field(json_schema_extra=_keys("reject", "reject-points", "flag", "warn"),
                                          description="FAIL findings per severity.")
    total: int = Field(ge=0, description="All findings.")
    verdict: Literal["PASSED", "FAILED"] = Field(description="FAILED when a finding is at or above --fail-on.")
    rules_verdict: Decision = Field(description=(
        "What the rules decide: reject (a reject-severity FAIL), reject-points (only reject-points FAILs) or accept."))
    week0: Optional[Week0] = Field(description=(
        "The Week-0 prediction; null when no submission was checked or only some rules ran (--select/--ignore)."))
    week0_reject: bool = Field(description="Whether the Week-0 prediction rejects the submission or some of its points.")
    exit_code: Literal[0, 1, 2] = Field(description="The process exit code: 0 pass, 1 fail, 2 usage or output error.")
    output_problems: Optional[list[str]] = Omitted(description=(
        "Outputs of this run that could not be written (a renderer that failed, a target that refused the "
        "bytes); each makes exit_code 2. Absent when every output was written."))
    waived: Optional[int] = Omitted(ge=0, description=(
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


class Cause(_Part):
    """A FAIL named from another: its rule and the label of its subject."""

    rule_id: str = Field(pattern=RULE_ID, description="The rule of the other FAIL.")
    subject: str = Field(min_length=1, description="Its subject's label (submission/system/model/point, or "
                                                   "(package)).")


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
    location: Optional[Location] = Omitted(description="Where the finding points, when it has a place.")
    parts: Optional[list[str]] = Omitted(min_length=1, description=(
        "A FAIL listing several problems (each wrong seed, each point without a block): each problem's identity, "
        "a data path (a/0/b) or a name; a baseline compares each one."))
    evidence: Optional[Evidence] = Omitted(description="Observed and expected values of a FAIL.")
    fix: Optional[str] = Omitted(description="How to fix a FAIL.")
    reason: Optional[str] = Omitted(description="Why a SKIP could not evaluate.")
    extra: Optional[dict[str, Any]] = Omitted(description=(
        "Rule-specific data (metrics, counts). ``official``: the official checker's own words for the ERROR(s) "
        "this finding explains (when the official decided the Week-0 verdict); ``official_rule`` and ``source`` "
        "on a week0-check finding: the official rule id it reports and who decided (official or model)."))
    baseline: Optional[Literal["new", "unchanged"]] = Omitted(description=(
        "With --baseline, on a FAIL or a waived finding: whether the baseline had it (unchanged) or not (new). A "
        "finding with parts is new when any of them is (extra.baseline then lists the new and unchanged parts)."))
    week0: Optional[bool] = Omitted(description=(
        "FAILs only: whether the Week-0 automated check (the official tool) rejects on this rule at this subject "
        "(on a week0-check finding: always true)."))
    caused_by: Optional[Cause] = Omitted(description=(
        "FAILs only: the root cause this FAIL follows from (a FAIL of a rule this one declares itself a "
        "consequence of, on the same or a related subject). The human outputs show the cause's problem line, "
        "naming this rule on it; this FAIL still counts for the gate, the Week-0 verdict, baselines and waivers."))
    also: Optional[list[Cause]] = Omitted(min_length=1, description=(
        "FAILs only: the FAILs that follow from this one (each names this finding in caused_by), named on its "
        "problem line."))
    edits: Optional[list[Edit]] = Omitted(min_length=1, description=(
        "The automatic fix (check --fix applies it): text edits whose right value is certain, in hand-written "
        "files only."))


class Counts(_Part):
    """Finding counts of one unit of a cohort."""

    by_status: dict[str, N] = Field(json_schema_extra=_keys("PASS", "FAIL", "SKIP"),
                                   description="Findings per status: PASS, FAIL, SKIP.")
    fail_by_severity: dict[str, N] = Field(json_schema_extra=_keys("reject", "reject-points", "flag", "warn"),
                                          description="FAIL findings per severity.")
    total: int = Field(ge=0, description="All findings of the unit.")
    waived: Optional[int] = Omitted(ge=0, description="FAILs of the unit turned into SKIP by a waiver.")


class CohortUnit(_Part):
    """One submission or run folder of a cohort."""

    label: str = Field(min_length=1, description="The unit's label in the report.")
    kind: Literal["submission", "run-folder"] = Field(description="What the unit is.")
    org: str = Field(description="The submitting organisation.")
    submission_id: str = Field(description="The submission id.")
    path: str = Field(description="Where the unit was read.")
    systems: list[str] = Field(description="Its systems.")
    models: list[str] = Field(description="Its benchmark models.")
    divisions: list[str] = Field(description="Its divisions.")
    verdict: Literal["PASSED", "FAILED"] = Field(description="The unit's verdict.")
    rules_verdict: Optional[Decision] = Omitted(description="What the rules decide for the unit.")
    week0: Optional[Week0] = Field(None, description="The unit's Week-0 prediction (null for a run folder or an unchecked unit).")
    week0_reject: bool = Field(description="Whether the Week-0 prediction rejects the unit.")
    checked: bool = Field(description="False when the unit could not be checked (its finding says why).")
    counts: Counts = Field(description="The unit's finding counts.")


class RuleCounts(_Part):
    """A rule's outcomes over a cohort."""

    severity: Severity = Field(description="The rule's severity.")
    passed: int = Field(alias="PASS", ge=0, description="PASS findings.")
    failed: int = Field(alias="FAIL", ge=0, description="FAIL findings.")
    skipped: int = Field(alias="SKIP", ge=0, description="SKIP findings.")
    fail_by_severity: dict[str, N] = Field(description="FAIL findings per severity (the severities it had).")


class Cohort(_Part):
    """Cohort mode (two or more submissions or run folders): one row per unit, verdicts, counts by rule and
    severity, and the cross-submission findings (family cohort; also listed in findings). Versioned on its own."""

    version: str = Field(pattern=r"^1\.[0-9]+$", description="The cohort section's format, 1.x.")
    submissions: list[CohortUnit] = Field(description="One row per unit.")
    verdicts: dict[str, N] = Field(json_schema_extra=_keys("PASSED", "FAILED"), description="Units per verdict: PASSED, FAILED.")
    organisations: list[str] = Field(description="The organisations of the units.")
    counts_by_rule: dict[str, RuleCounts] = Field(description="Per rule id: its outcomes over the cohort.")
    fail_by_severity: dict[str, N] = Field(json_schema_extra=_keys("reject", "reject-points", "flag", "warn"),
                                          description="FAIL findings per severity over the cohort.")
    cross_submission_findings: list[Finding] = Field(description="Findings that compare units.")


class WaiverEntry(_Part):
    """One waiver as applied."""

    rule: str = Field(description="Rule id, or a glob over rule ids.")
    subject: str = Field(description="Glob over the finding's subject label.")
    reason: str = Field(description="Why the finding is acceptable.")
    approver: str = Field(description="Who approved the waiver.")
    expires: str = Field(json_schema_extra={"format": "date"}, description="Last day the waiver applies.")
    expired: bool = Field(description="Whether the waiver had expired on the day checked.")
    matched: int = Field(ge=0, description="Findings it waived.")
    days_left: Optional[int] = Omitted(ge=0, description="A current waiver: days from the day checked to its last day.")
    expiring: Optional[bool] = Omitted(description=(
        "A current waiver: whether it ends within warn_days (waiver-expiring reports it)."))
    problem: Optional[Literal["unknown-rule", "never-waived"]] = Omitted(description=(
        "A current waiver that matched nothing because its rule names no rule (unknown-rule) or only rules no "
        "waiver applies to (never-waived); waiver-unused says which."))


class Waivers(_Part):
    """The --waivers file as applied: each entry, whether it expired, and how many findings it waived."""

    file: str = Field(description="The waivers file.")
    today: str = Field(json_schema_extra={"format": "date"}, description="The day the waivers expired against.")
    warn_days: Optional[int] = Omitted(ge=0, description=(
        "--waiver-expiry-warning: a waiver this many days or fewer from its last day is reported as expiring."))
    entries: list[WaiverEntry] = Field(description="Each waiver of the file.")


class Resolved(_Part):
    """A problem of the baseline that this run no longer has (neither failing nor waived)."""

    rule_id: str = Field(description="The rule.")
    subject: Subject = Field(description=(
        "What it was about (from a baseline file: the submission only, which is all the file records)."))
    fingerprint: str = Field(pattern=r"^[0-9a-f]{32}$", description="Rule id, subject and data path (or part), hashed.")
    part: Optional[str] = Omitted(description="The part of a grouped finding that is gone (a data path or a name).")


class BaselineSection(_Part):
    """--baseline: problems that are new, unchanged, waived and resolved (keyed by fingerprint: rule id, subject,
    data path or part; never line or message; a finding listing several problems counts each), and the resolved
    ones."""

    file: str = Field(description="The baseline: a --write-baseline file or an earlier JSON report.")
    counts: dict[str, N] = Field(json_schema_extra=_keys("new", "unchanged", "waived", "resolved"),
                                description=("Problems that are new, unchanged (failing as in the baseline), waived "
                                             "(still in the files, accepted by a waiver) and resolved (gone)."))
    resolved_not_listed: Optional[int] = Omitted(ge=1, description=(
        "Resolved problems counted in counts.resolved but not listed (at most 1,000 are listed, in subject order)."))
    resolved: list[Resolved] = Field(description="The resolved problems, in subject order.")


class FixedFile(_Part):
    """One file of check --fix or --diff."""

    file: str = Field(description="The file.")
    status: Literal["fixed", "would-fix", "not-fixed"] = Field(description="What happened to it.")
    edits: int = Field(ge=0, description="Edits applied (or that would be).")
    findings: int = Field(ge=0, description="Findings they fix.")
    rules: list[str] = Field(description="The rules of those findings.")
    reason: Optional[str] = Omitted(description="Why a file is not fixed.")


class FixSection(_Part):
    """check --fix (what was written) or --diff (what would be): one entry per file, rounds of fixes applied in
    memory first. A file that is not fixed keeps its bytes; its reason says why."""

    mode: Literal["fix", "diff"] = Field(description="--fix or --diff.")
    fixable_before: int = Field(ge=0, description="Fixable FAIL findings of the package as it was.")
    findings: int = Field(ge=0, description="Findings fixed (--fix) or fixable (--diff), over every round.")
    not_fixed: int = Field(ge=0, description="Files that could not be fixed.")
    files: list[FixedFile] = Field(description="One entry per file.")


class BundleRun(_Part):
    """Where one run folder lands in the bundle."""

    run: str = Field(description="The run folder.")
    kind: Optional[Literal["performance", "accuracy"]] = Field(description="What the run is, when known.")
    how: str = Field(description="How its place was decided.")
    created: bool = Field(description="Whether it creates a point.")
    point: Optional[str] = Field(description="The point it lands in, or null.")


class BundlePoint(_Part):
    """One point of the bundle and its runs."""

    point: str = Field(description="The point.")
    performance: list[str] = Field(description="Its performance runs.")
    accuracy: list[str] = Field(description="Its accuracy runs.")


class Bundle(_Part):
    """Run folders checked as the bundle they become: where each run lands, and where --write-bundle wrote the
    tree."""

    name: str = Field(description="The bundle's name.")
    runs: list[BundleRun] = Field(description="Each run folder.")
    points: list[BundlePoint] = Field(description="Each point.")
    written: Optional[str] = Field(description="Where --write-bundle wrote the tree, or null.")


class ReportModel(_Part):
    """The JSON report of one endpoints-checker run (schema_version 1.x). Findings are sorted by submission,
    system, model, point, entry and rule; two runs on the same input differ only in generated_at."""

    schema_version: str = Field(pattern=r"^1\.[0-9]+$", description="The report format, 1.x.")
    tool: Tool = Field(description="The tool that wrote the report.")
    policy: PolicyRef = Field(description="The policy edition the rules read.")
    generated_at: str = Field(json_schema_extra={"format": "date-time"}, description="When the report was written "
                                                                                   "(UTC, ISO 8601).")
    paths: list[str] = Field(description="The paths checked, as given.")
    fail_on: str = Field(pattern=fail_on_pattern(), description=(
        "The --fail-on gate: a severity (reject, flag, warn), week0 (the Week-0 automated check would reject), "
        "a severity and week0 (e.g. flag,week0: either trips it), or never."))
    summary: Summary = Field(description="Counts, the verdict and the exit code.")
    rules: list[RuleEntry] = Field(description="The rules evaluated.")
    findings: list[Finding] = Field(description="Every finding, sorted by subject and rule.")
    cohort: Optional[Cohort] = Omitted(description="Cohort mode: one row per unit and the cross-submission "
                                                       "findings.")
    waivers: Optional[Waivers] = Omitted(description="With --waivers: the waivers as applied.")
    baseline: Optional[BaselineSection] = Omitted(description="With --baseline: new, unchanged and resolved "
                                                                   "FAILs.")
    fix: Optional[FixSection] = Omitted(description="With --fix or --diff: what was (or would be) fixed.")
    bundle: Optional[Bundle] = Omitted(description="Run folders checked as the bundle they become.")

    @property
    def failed(self) -> list[Finding]:
        """The FAIL findings."""
        return [f for f in self.findings if f.status == "FAIL"]
