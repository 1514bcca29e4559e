"""SARIF 2.1.0 for GitHub code scanning: FAIL findings as results, waived ones as accepted suppressions
carrying the waiver (reason, approver, expiry); with ``--baseline`` each result's ``baselineState``.

Every rule has a ``helpUri`` (its page, ``checker.core.rule_pages``). Locations are relative to the repository
root (``uriBaseId`` SRCROOT, ``originalUriBaseIds`` saying where it was), whatever the working directory; a
finding about a directory points at a file in it (code scanning shows results on files only).
"""
from __future__ import annotations

import json
from pathlib import Path

from checker.core.version import __version__
from checker.core.findings import Status
from checker.core.rule_pages import index_url, rule_url
from checker.engine.catalogue import complete_rules
from checker.render.as_written import spell
from checker.core.fingerprint import fingerprint
from checker.render.common import LEVEL, ROOT_ID, Artifacts, is_waived

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"


def _baseline_state(f) -> str | None:
    """new / unchanged, or updated for a finding listing several problems of which some are new."""
    if not f.baseline:
        return None
    split = f.extra.get("baseline") if isinstance(f.extra, dict) else None
    return "updated" if f.baseline == "new" and isinstance(split, dict) and split.get("unchanged") else f.baseline


def _suppression(f, waivers: dict | None) -> dict:
    """The waiver that accepted the finding: its reason, approver and last day (``extra.waiver``)."""
    w = f.extra.get("waiver") if isinstance(f.extra, dict) else None
    if not isinstance(w, dict):
        return {"kind": "external", "status": "accepted", "justification": f.reason or f.message}
    props = {"approver": w.get("approver", ""), "expires": w.get("expires", ""), "waiver": int(w.get("index", 0)) + 1}
    if waivers:
        props["file"] = waivers.get("file", "")
    return {"kind": "external", "status": "accepted", "justification": w.get("reason") or f.reason or f.message,
            "properties": props}


def _rule_descriptor(r, docs_url: str = "") -> dict:
    what = r.section("What it checks") or r.summary
    fix = r.section("How to fix")
    why = r.section("Why")
    text = f"{r.summary}\n\nWhat it checks: {what}\nWhy: {why}\nHow to fix: {fix}\nClause: {r.clause}"
    markdown = (f"**{r.title}** (`{r.id}`, {r.clause}, severity `{r.severity.value}`)\n\n"
                f"{r.summary}\n\n**What it checks.** {what}\n\n**Why.** {why}\n\n**How to fix.** {fix}\n\n"
                f"Details: `endpoints-checker explain {r.id}`")
    out = {
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
    url = rule_url(r.family, r.id, docs_url)
    if url:
        out["helpUri"] = url
    return out


def _fix(f, where: Artifacts) -> dict:
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
            "artifactChanges": [{"artifactLocation": where.location(file), "replacements": reps}
                                for file, reps in changes.items()]}


def _units(report) -> dict:
    """Cohort mode: each unit's verdicts as the engine's tally holds them (label -> gate, rules, Week-0)."""
    if not getattr(report, "sections", {}).get("cohort"):
        return {}
    return {"units": {label: v.verdicts_dict() for label, v in sorted(report.tally.units.items())}}


def render(report, **_options) -> str:
    return "".join(render_chunks(report))


def _results(report, index: dict, where=None):
    """The SARIF result of each FAIL (and each waived finding), in the report's order; ``where``: the
    artifacts' root (by default the repository holding the report's paths)."""
    where = where or Artifacts(report.paths)
    waivers = report.sections.get("waivers")
    for f in report.findings:
        waived = is_waived(f)
        if f.status is not Status.FAIL and not waived:
            continue
        loc = f.location
        path = loc.file if loc and loc.file else (report.paths[0] if report.paths else ".")
        artifact, directory = where.file_for(path)
        region = {"startLine": (loc.line if loc and loc.line and not directory else 1)}
        if loc and loc.column and not directory:
            region["startColumn"] = loc.column
        text = f.message
        if f.status is Status.FAIL and (f.observed is not None or f.expected is not None):
            text += f" (observed: {spell(f.observed)}; expected: {spell(f.expected)})"
        result = {
            "ruleId": f.rule_id,
            "ruleIndex": index[f.rule_id],
            "level": LEVEL[f.severity],
            "message": {"text": f"{f.subject.label()}: {text}"},
            "locations": [{"physicalLocation": {"artifactLocation": where.location(artifact), "region": region}}],
            "partialFingerprints": {"endpointsCheckerFinding/v1": fingerprint(f)},
            "properties": {"severity": f.severity.value, "subject": f.subject.as_dict()},
        }
        if f.fix:
            result["properties"]["fix"] = f.fix
        if f.week0 is not None:
            result["properties"]["week0"] = f.week0
        if f.caused_by is not None:  # every FAIL stays a result; the root cause and what follows are linked
            result["properties"]["caused_by"] = dict(f.caused_by)
        if f.also:
            result["properties"]["also"] = [dict(a) for a in f.also]
        if directory:
            result["properties"]["directory"] = where.relative(path) or path
        if f.parts:
            result["properties"]["parts"] = list(f.parts)
        state = _baseline_state(f)
        if state:
            result["baselineState"] = state
        if f.extra.get("official"):  # the official checker's own words for this ERROR
            result["properties"]["official"] = list(f.extra["official"])
        if f.edits and f.status is Status.FAIL:
            result["fixes"] = [_fix(f, where)]
        if waived:
            result["suppressions"] = [_suppression(f, waivers)]
        yield result


#: results encoded per ``json.dumps`` call, and characters of them per yielded piece
BATCH = 256
CHUNK = 1 << 20
_SLOT = "@@results@@"
#: the results list's depth in the log (runs[0].results): its items are indented by eight spaces
_ITEM_INDENT = "\n" + " " * 6


def render_chunks(report):
    """The log as consecutive pieces of text, the results encoded a batch at a time and spliced in: the
    same bytes as one ``json.dumps(log, indent=2, ensure_ascii=False)`` (an indented value is its own
    rendering with every later line indented by its depth), never every result at once in memory."""
    rules = sorted(complete_rules(report.rules), key=lambda r: r.id)
    index = {r.id: i for i, r in enumerate(rules)}
    where = Artifacts(report.paths)
    head = json.dumps(_log(report, rules, _SLOT, where), indent=2, ensure_ascii=False) + "\n"
    slot = f'"results": "{_SLOT}"'
    cut = head.index(slot) + len('"results": ')
    yield head[:cut]
    out: list[str] = []
    size, sep, batch = 0, "[\n        ", []
    for result in _results(report, index, where):
        batch.append(result)
        if len(batch) == BATCH:
            text = _batch(batch)
            out += (sep, text)
            sep, batch, size = ",\n        ", [], size + len(text)
            if size >= CHUNK:
                yield "".join(out)
                out, size = [], 0
    if batch:
        out += (sep, _batch(batch))
        sep = ","
    out.append("[]" if sep.startswith("[") else "\n      ]")
    yield "".join(out)
    yield head[cut + len(slot) - len('"results": '):]


def _batch(results: list) -> str:
    """Consecutive results as they sit in the log's results list (items joined by a comma and a newline)."""
    return json.dumps(results, indent=2, ensure_ascii=False)[4:-2].replace("\n", _ITEM_INDENT)


def _log(report, rules: list, results, where=None) -> dict:
    where = where or Artifacts(report.paths)
    docs_url = getattr(report, "docs_url", "")
    driver = {"name": "endpoints-checker", "version": __version__, "semanticVersion": __version__}
    info = index_url(docs_url)
    if info:
        driver["informationUri"] = info
    driver["rules"] = [_rule_descriptor(r, docs_url) for r in rules]
    props = {"policy": {"edition": report.policy_edition, "version": report.policy_version},
             "rules_verdict": report.rules_verdict, "week0": report.week0, **_units(report)}
    base = report.sections.get("baseline")
    if base:
        props["baseline"] = {"file": base["file"], "counts": base["counts"]}
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": driver},
            "automationDetails": {"id": "endpoints-checker/" + ",".join(report.paths)},
            "originalUriBaseIds": {ROOT_ID: {"uri": Path(where.root).as_uri().rstrip("/") + "/",
                                             "description": {"text": "The repository root (the folder holding .git "
                                                                     "or the configuration file)."}}},
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": props,
        }],
    }
