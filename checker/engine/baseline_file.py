"""The baseline file ``--write-baseline FILE`` writes and ``--baseline FILE`` reads: the fingerprints of the
problems known today (failing or waived), grouped by submission and rule, meant to be committed.

Small (a fingerprint per problem, one line per submission and rule) and deterministic (sorted; no date, no
version that changes on upgrade), so its diff in a pull request says which problems were accepted or fixed::

    {
      "endpoints-checker-baseline": 1,
      "problems": 3,
      "submissions": {
        "acme/sub-1": {
          "seed-runtime-match": ["5d8c…", "9a1e…"],
          "unexpected-entry": ["0b7f…"]
        }
      }
    }

A fingerprint (``checker.core.fingerprint.fingerprints``) is rule id, subject and data path (or a part of a
grouped finding), hashed: the file names no line and no message, so moving lines or rewording changes nothing.
Its schema (``schemas/baseline.schema.json``) is generated from ``BaselineFile``.
"""
from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from checker.core.findings import Status
from checker.core.fingerprint import fingerprints, visible
from checker.core.models import StrictModel, validate

FORMAT_KEY = "endpoints-checker-baseline"
FORMAT_VERSION = 1
#: the group of problems that belong to no submission (the package, run folders, the waivers file)
NO_SUBMISSION = "(no submission)"

Fingerprint = Annotated[str, Field(pattern=r"^[0-9a-f]{32}$")]


class BaselineFile(StrictModel):
    """``--write-baseline FILE``: the fingerprints of the problems known when it was written (failing or waived),
    by submission and rule; ``--baseline FILE`` reads it."""

    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True, populate_by_name=True)

    format: Literal[1] = Field(alias=FORMAT_KEY, description="The baseline file format: 1.")
    problems: int = Field(0, ge=0, description="How many fingerprints the file holds.")
    submissions: dict[str, dict[str, list[Fingerprint]]] = Field(description=(
        f"Submission label ({NO_SUBMISSION!r} for the package, run folders and the waivers file) -> rule id -> "
        "the fingerprints of its problems (sha256 of rule id, subject and data path or part, 32 hex digits)."))


class BaselineFileError(ValueError):
    """The file says it is a baseline file but does not hold what one holds."""


def problems_by_group(findings) -> dict[str, dict[str, set]]:
    """submission -> rule id -> fingerprints, of every FAIL and every waived finding."""
    out: dict[str, dict[str, set]] = {}
    for f in findings:
        if f.status is not Status.FAIL and not (f.status is Status.SKIP and (f.reason or "").startswith("waived")):
            continue
        group = visible(f.subject.submission) or NO_SUBMISSION
        out.setdefault(group, {}).setdefault(f.rule_id, set()).update(fingerprints(f))
    return out


def document(findings) -> str:
    """The file's text: one line per submission and rule, everything sorted."""
    groups = problems_by_group(findings)
    total = sum(len(fps) for rules in groups.values() for fps in rules.values())
    one = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731
    lines = ["{", f'  "{FORMAT_KEY}": {FORMAT_VERSION},', f'  "problems": {total},', '  "submissions": {']
    subs = sorted(groups)
    for i, sub in enumerate(subs):
        rules = groups[sub]
        lines.append(f"    {one(sub)}: {{")
        ids = sorted(rules)
        for j, rid in enumerate(ids):
            lines.append(f"      {one(rid)}: {one(sorted(rules[rid]))}" + ("," if j < len(ids) - 1 else ""))
        lines.append("    }" + ("," if i < len(subs) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def entries(doc: dict, name: str) -> list[tuple[str, str, str]]:
    """(submission, rule id, fingerprint) of every problem the file holds; BaselineFileError when it is not a
    baseline file of a format this version reads."""
    version = doc.get(FORMAT_KEY)
    if version != FORMAT_VERSION or type(version) is not int:
        raise BaselineFileError(f"baseline {name}: {FORMAT_KEY} is {version!r}; this version reads {FORMAT_VERSION}")
    model, problems = validate(BaselineFile, doc)
    if model is None:
        p = problems[0]
        raise BaselineFileError(f"baseline {name}: {'.'.join(str(s) for s in p.path) or 'the file'}: {p.message} "
                                "(a fingerprint is 32 hex digits; schemas/baseline.schema.json)")
    return [(sub, rid, fp) for sub, rules in model.submissions.items() for rid, fps in rules.items() for fp in fps]
