"""SARIF 2.1.0 for GitHub code scanning: FAIL findings as results, waived ones as suppressions."""
from __future__ import annotations

import json

from checker.core.version import __version__
from checker.core.findings import Status
from checker.engine.catalogue import complete_rules
from checker.render.as_written import spell
from checker.core.fingerprint import fingerprint
from checker.render.common import LEVEL, is_waived, repo_relative

INFORMATION_URI = "https://pypi.org/project/endpoints-checker/"
SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"


def _rule_descriptor(r) -> dict:
    what = r.section("What it checks") or r.summary
    fix = r.section("How to fix")
    why = r.section("Why")
    text = f"{r.summary}\n\nWhat it checks: {what}\nWhy: {why}\nHow to fix: {fix}\nClause: {r.clause}"
    markdown = (f"**{r.title}** (`{r.id}`, {r.clause}, severity `{r.severity.value}`)\n\n"
                f"{r.summary}\n\n**What it checks.** {what}\n\n**Why.** {why}\n\n**How to fix.** {fix}\n\n"
                f"Details: `endpoints-checker explain {r.id}`")
    return {
        "id": r.id,
        "name": "".join(w.capitalize() for w in r.id.split("-")),
        "shortDescription": {"text": r.title},
        "fullDescription": {"text": what or r.summary},
        "help": {"text": text, "markdown": markdown},
        "defaultConfiguration": {"level": LEVEL[r.severity]},
        "properties": {
            "tags": sorted({r.family, r.severity.value, "official" if r.official else "endpoints-checker"}),
            "precision": "very-high",
            "problem.severity": "error" if LEVEL[r.severity] == "error" else "warning",
            "clause": r.clause,
        },
    }


def _fix(f) -> dict:
    """The finding's automatic fix as SARIF ``fixes``: one artifact change per file, its replacements in order."""
    changes: dict[str, list] = {}
    for e in f.edits:
        if e.part == "bom":  # a byte-order mark has no column: its bytes
            region = {"byteOffset": 0, "byteLength": 3}
        else:
            region = {"startLine": e.start_line, "startColumn": e.start_column, "endLine": e.end_line,
                      "endColumn": e.end_column}
        changes.setdefault(e.file, []).append({"deletedRegion": region, "insertedContent": {"text": e.new}})
    return {"description": {"text": f.fix or "Apply the fix (endpoints-checker check --fix)."},
            "artifactChanges": [{"artifactLocation": {"uri": repo_relative(file)}, "replacements": reps}
                                for file, reps in changes.items()]}


def render(report, **_options) -> str:
    rules = sorted(complete_rules(report.rules), key=lambda r: r.id)
    index = {r.id: i for i, r in enumerate(rules)}
    results = []
    for f in report.findings:
        waived = is_waived(f)
        if f.status is not Status.FAIL and not waived:
            continue
        loc = f.location
        uri = repo_relative(loc.file) if loc and loc.file else repo_relative(report.paths[0] if report.paths else ".")
        region = {"startLine": (loc.line if loc and loc.line else 1)}
        if loc and loc.column:
            region["startColumn"] = loc.column
        text = f.message
        if f.status is Status.FAIL and (f.observed is not None or f.expected is not None):
            text += f" (observed: {spell(f.observed)}; expected: {spell(f.expected)})"
        result = {
            "ruleId": f.rule_id,
            "ruleIndex": index[f.rule_id],
            "level": LEVEL[f.severity],
            "message": {"text": f"{f.subject.label()}: {text}"},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}}],
            "partialFingerprints": {"endpointsCheckerFinding/v1": fingerprint(f)},
            "properties": {"severity": f.severity.value, "subject": f.subject.as_dict()},
        }
        if f.fix:
            result["properties"]["fix"] = f.fix
        if f.week0 is not None:
            result["properties"]["week0"] = f.week0
        if f.extra.get("official"):  # the official checker's own words for this ERROR
            result["properties"]["official"] = list(f.extra["official"])
        if f.edits and f.status is Status.FAIL:
            result["fixes"] = [_fix(f)]
        if waived:
            result["suppressions"] = [{"kind": "external", "justification": f.message}]
        results.append(result)
    log = {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "endpoints-checker",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule_descriptor(r) for r in rules],
            }},
            "automationDetails": {"id": "endpoints-checker/" + ",".join(report.paths)},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": {"policy": {"edition": report.policy_edition, "version": report.policy_version},
                           "rules_verdict": report.rules_verdict, "week0": report.week0},
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"
