"""Baselines (``--baseline previous.json``): which FAILs are new, unchanged or resolved.

A finding's identity is ``checker.core.fingerprint.fingerprint``: rule id, subject label and data
path; never the line number or the message, so edits that move lines or reword messages keep a
finding "unchanged". The baseline is any earlier JSON report of this tool (schema 1.x).
"""
from __future__ import annotations

import os
import sys
from typing import Optional, Union

import msgspec

from checker.core.findings import Finding, Status, Subject
from checker.core.models import StrictModel, validate
from checker.core.fingerprint import fingerprint, fingerprint_key

#: the largest baseline read (a JSON report: about 1 KiB per finding); read by the bounded reader, so
#: nesting, huge integers, special files and encodings are refused the way a package file is
MAX_BASELINE_BYTES = 64 * 1024 * 1024


class BaselineError(ValueError):
    """The baseline file cannot be read or is not an endpoints-checker JSON report (exit 2)."""


class Baseline(msgspec.Struct):
    file: str
    failing: dict  # fingerprint -> the previous finding's dict (FAIL findings only)


class _Subject(StrictModel):
    submission: str = ""
    system: str = ""
    model: str = ""
    point: str = ""
    entry: str = ""


class _Location(StrictModel, extra="allow"):
    file: str
    line: Optional[int] = None
    column: Optional[int] = None
    path: list[Union[str, int, float, bool, None]] = []


class _Finding(StrictModel, extra="allow"):
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


#: resolved findings listed one by one in the report (the counts hold them all): a baseline of a
#: hundred thousand FAILs that are all gone is one line and a count, not a second report
MAX_RESOLVED_LISTED = 1000


class _Kept(msgspec.Struct, array_like=True):
    """One FAIL of the baseline, as compact as it is used: its fingerprint and what a resolved entry shows."""

    fp: str
    rule_id: str
    severity: str
    family: str
    subject: tuple  # (submission, system, model, point, entry)
    message: str
    location: tuple | None  # (file, line, column, path)

    def as_dict(self) -> dict:
        d = {"rule_id": self.rule_id, "severity": self.severity, "family": self.family,
             "subject": dict(zip(_SUBJECT_KEYS, self.subject)), "message": self.message}
        if self.location is not None:
            file, line, column, path = self.location
            d["location"] = {"file": file, "line": line, "column": column, "path": list(path)}
        return d


class _Refused(msgspec.Struct):
    """A finding object that is not what the report schema says (raised in file order after parsing)."""

    where: str
    msg: str


class _NotFail:
    """A finding that is not a FAIL: nothing of it is kept."""


_NOT_FAIL = _NotFail()
_SUBJECT_KEYS = ("submission", "system", "model", "point", "entry")


def _keep(d: dict):
    """A parsed object: a finding of the report becomes its compact form as soon as it is built (so the
    report is never held as one tree of dicts); any other object stays as it is."""
    if "rule_id" not in d or "status" not in d:
        return d
    if d.get("status") != "FAIL":
        return _NOT_FAIL
    return _compact(d)


def _plain(d: dict):
    """The compact form of a finding in the shape this tool writes, checked by hand (a fifth of the record
    check's cost, which a baseline of a hundred thousand FAILs feels); None for anything else."""
    s, loc = d.get("subject", _NONE), d.get("location")
    text = [d.get(k, "") for k in ("rule_id", "severity", "family", "message")]
    if not all(type(v) is str for v in text) or "rule_id" not in d or type(s) is not dict or len(s) > 5:
        return None
    subject = tuple(s.get(k, "") for k in _SUBJECT_KEYS)
    if not all(type(v) is str for v in subject) or len(s) != sum(1 for k in _SUBJECT_KEYS if k in s):
        return None
    where = None
    if loc is not None:
        if type(loc) is not dict or type(loc.get("file")) is not str or type(loc.get("path", [])) is not list:
            return None
        line, column, path = loc.get("line"), loc.get("column"), loc.get("path", [])
        if not all(v is None or type(v) is int for v in (line, column)) or \
                not all(v is None or type(v) in (str, int, bool) or (type(v) is float and v == v) for v in path):
            return None
        where = (loc["file"], line, column, tuple(path))
    label = "/".join(v for v in subject if v) or "(package)"
    fp = fingerprint_key("|".join([text[0], label, "/".join(str(p) for p in (where[3] if where else ()))]))
    i = sys.intern  # ids, severities, families, subjects and file names repeat from finding to finding
    where = where and (i(where[0]), *where[1:])
    return _Kept(fp, i(text[0]), i(text[1]), i(text[2]), tuple(map(i, subject)), text[3], where)


_NONE: dict = {}


def _compact(d: dict):
    """A FAIL finding's dict validated (strict types) into its compact form, or why it is refused."""
    kept = _plain(d)
    if kept is not None:
        return kept
    f, problems = validate(_Finding, d)
    if f is None:
        err = problems[0]
        return _Refused(".".join(str(p) for p in err.path), err.message)
    subject = tuple(getattr(f.subject, k) for k in _SUBJECT_KEYS)
    loc = None if f.location is None else (f.location.file, f.location.line, f.location.column, tuple(f.location.path))
    clean = {"rule_id": f.rule_id, "subject": dict(zip(_SUBJECT_KEYS, subject)),
             "location": {"path": list(loc[3])} if loc else None}
    return _Kept(dict_fingerprint(clean), f.rule_id, f.severity, f.family, subject, f.message, loc)


def _read(source: str) -> object:
    from checker.load.reader import read_file

    path = os.path.abspath(source)
    # the user's own file (any symlink is fine); a report's size grows with its findings: the byte cap bounds it
    lf = read_file("baseline", source, path, "/", MAX_BASELINE_BYTES, max_values=None, as_json=True, json_hook=_keep)
    if not lf.exists:
        raise BaselineError(f"cannot read baseline {source}: file not found")
    if lf.error is not None:
        where = f" (line {lf.error.line})" if lf.error.line else ""
        raise BaselineError(f"cannot read baseline {source}: {lf.error.message}{where}")
    return lf.data


def load_baseline(source: str | dict) -> Baseline:
    if isinstance(source, dict):
        import json

        doc, name = json.loads(json.dumps(source), object_hook=_keep), "<baseline>"
    else:
        name = source
        doc = _read(source)
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list) \
            or not isinstance(doc.get("schema_version"), str) or not doc["schema_version"].startswith("1."):
        raise BaselineError(f"baseline {name} is not an endpoints-checker JSON report (schema 1.x)")
    failing = {}
    for i, d in enumerate(doc["findings"]):
        if isinstance(d, dict):  # an object the reader left as it is (no rule_id or no status)
            if d.get("status") != "FAIL":
                continue
            d = _compact(d)
        if isinstance(d, _Refused):
            raise BaselineError(f"baseline {name}: findings[{i}].{d.where}: {d.msg}")
        if isinstance(d, _Kept):
            failing.setdefault(d.fp, d)
        elif d is not _NOT_FAIL:
            raise BaselineError(f"baseline {name}: findings[{i}] is not an object")
    return Baseline(file=name, failing=failing)


def mark(findings: list[Finding], base: Baseline | None) -> tuple[list[Finding], dict | None]:
    """Tag each current FAIL new/unchanged; return the findings and the report's ``baseline`` section (the
    resolved ones listed up to MAX_RESOLVED_LISTED, all of them counted)."""
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
    gone = [k for fp, k in base.failing.items() if fp not in seen]
    counts["resolved"] = len(gone)
    import heapq

    listed = heapq.nsmallest(MAX_RESOLVED_LISTED, gone, key=lambda k: (k.subject, k.rule_id, k.fp))
    resolved = []
    for k in listed:
        entry = k.as_dict()
        entry["fingerprint"] = k.fp
        resolved.append(entry)
    section = {"file": base.file, "counts": counts, "resolved": resolved}
    if len(gone) > len(listed):
        section["resolved_not_listed"] = len(gone) - len(listed)
    return findings, section
