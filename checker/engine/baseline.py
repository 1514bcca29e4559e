"""Baselines (``--baseline previous.json``): which FAILs are new, unchanged or resolved.

A finding's identity is ``checker.render.common.fingerprint``: rule id, subject label and data
path; never the line number or the message, so edits that move lines or reword messages keep a
finding "unchanged". The baseline is any earlier JSON report of this tool (schema 1.x).
"""
from __future__ import annotations

import os
from typing import Optional, Union

import msgspec

from checker.core.findings import Finding, Status, Subject
from checker.core.record import Record, as_dict, check_record
from checker.render.common import fingerprint, fingerprint_key

#: the largest baseline read (a JSON report: about 1 KiB per finding); read by the bounded reader, so
#: nesting, huge integers, special files and encodings are refused the way a package file is
MAX_BASELINE_BYTES = 64 * 1024 * 1024


class BaselineError(ValueError):
    """The baseline file cannot be read or is not an endpoints-checker JSON report (exit 2)."""


class Baseline(msgspec.Struct):
    file: str
    failing: dict  # fingerprint -> the previous finding's dict (FAIL findings only)


class _Subject(Record, extra="forbid"):
    submission: str = ""
    system: str = ""
    model: str = ""
    point: str = ""
    entry: str = ""


class _Location(Record, extra="allow"):
    file: str
    line: Optional[int] = None
    column: Optional[int] = None
    path: list[Union[str, int, float, bool, None]] = []


class _Finding(Record, extra="allow"):
    """The part of the report schema a baseline is read by (strict: a NaN message or a list subject is refused)."""

    rule_id: str
    status: str
    severity: str = ""
    family: str = ""
    subject: _Subject = _Subject()
    message: str = ""
    location: Optional[_Location] = None


def dict_fingerprint(d: dict) -> str:
    """``fingerprint`` of a finding dict from an earlier JSON report (same key, same hash)."""
    s = d.get("subject") or {}
    subject = Subject(*(str(s.get(k, "")) for k in ("submission", "system", "model", "point", "entry")))
    path = "/".join(str(p) for p in ((d.get("location") or {}).get("path") or ()))
    return fingerprint_key("|".join([str(d.get("rule_id", "")), subject.label(), path]))


def _read(source: str) -> object:
    from checker.load.reader import read_file

    path = os.path.abspath(source)
    # the user's own file (any symlink is fine); a report's size grows with its findings: the byte cap bounds it
    lf = read_file("baseline", source, path, "/", MAX_BASELINE_BYTES, max_values=None, as_json=True)
    if not lf.exists:
        raise BaselineError(f"cannot read baseline {source}: file not found")
    if lf.error is not None:
        where = f" (line {lf.error.line})" if lf.error.line else ""
        raise BaselineError(f"cannot read baseline {source}: {lf.error.message}{where}")
    return lf.data


def load_baseline(source: str | dict) -> Baseline:
    if isinstance(source, dict):
        doc, name = source, "<baseline>"
    else:
        name = source
        doc = _read(source)
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list) \
            or not isinstance(doc.get("schema_version"), str) or not doc["schema_version"].startswith("1."):
        raise BaselineError(f"baseline {name} is not an endpoints-checker JSON report (schema 1.x)")
    failing = {}
    for i, d in enumerate(doc["findings"]):
        if not isinstance(d, dict):
            raise BaselineError(f"baseline {name}: findings[{i}] is not an object")
        if d.get("status") != "FAIL":
            continue
        f, problems = check_record(_Finding, d)
        if f is None:
            err = problems[0]
            where = ".".join(str(p) for p in err.loc)
            raise BaselineError(f"baseline {name}: findings[{i}].{where}: {err.msg}")
        clean = {"rule_id": f.rule_id, "severity": f.severity, "family": f.family,
                 "subject": as_dict(f.subject), "message": f.message}
        if f.location is not None:
            clean["location"] = {"file": f.location.file, "line": f.location.line, "column": f.location.column,
                                 "path": list(f.location.path)}
        failing.setdefault(dict_fingerprint(clean), clean)
    return Baseline(file=name, failing=failing)


def mark(findings: list[Finding], base: Baseline | None) -> tuple[list[Finding], dict | None]:
    """Tag each current FAIL new/unchanged; return the findings and the report's ``baseline`` section."""
    if base is None:
        return findings, None
    seen = set()
    counts = {"new": 0, "unchanged": 0, "resolved": 0}
    for f in findings:
        if f.status is not Status.FAIL:
            continue
        fp = fingerprint(f)
        seen.add(fp)
        f.baseline = "unchanged" if fp in base.failing else "new"
        counts[f.baseline] += 1
    resolved = []
    for fp, d in sorted(base.failing.items(), key=lambda kv: _resolved_key(kv[1], kv[0])):
        if fp in seen:
            continue
        entry = {k: d[k] for k in ("rule_id", "severity", "family", "subject", "message", "location") if k in d}
        entry["fingerprint"] = fp
        resolved.append(entry)
    counts["resolved"] = len(resolved)
    return findings, {"file": base.file, "counts": counts, "resolved": resolved}


def _resolved_key(d: dict, fp: str) -> tuple:
    s = d.get("subject") or {}
    return (tuple(str(s.get(k, "")) for k in ("submission", "system", "model", "point", "entry")),
            str(d.get("rule_id", "")), fp)
