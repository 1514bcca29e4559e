"""Baselines (``--baseline FILE``): which problems are new, unchanged, waived or resolved.

A problem's identity is ``checker.core.fingerprint.fingerprints``: rule id, subject label and data path,
or for a finding that lists several problems (each wrong seed, each point without a block) each of its
parts; never the line number or the message, so edits that move lines or reword messages keep a problem
"unchanged", and a new wrong seed beside an old one is "new". The baseline is a ``--write-baseline`` file
(``checker.engine.baseline_file``) or any earlier JSON report of this tool (schema 1.x); its FAILs and its
waived findings are the known problems.
"""
from __future__ import annotations

import os
import sys
from typing import Optional, Union

import msgspec

from checker.core.findings import Finding, Status
from checker.core.models import StrictModel, validate
from checker.core.report_model import Subject  # the JSON report's subject: a baseline is read by its schema
from checker.core.fingerprint import dict_fingerprints, fingerprints, problem_wheres

#: the largest baseline read (a JSON report: about 1 KiB per finding); read by the bounded reader, so
#: nesting, huge integers, special files and encodings are refused the way a package file is
MAX_BASELINE_BYTES = 64 * 1024 * 1024


class BaselineError(ValueError):
    """The baseline file cannot be read or is neither a baseline file nor a JSON report of this tool (exit 2)."""


class Baseline(msgspec.Struct):
    file: str
    known: dict  # fingerprint -> (_Kept, index of the part): every problem of the baseline


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
    subject: Subject = Subject(submission="", system="", model="", point="", entry="")
    message: str = ""
    location: Optional[_Location] = None
    parts: list[str] = []


#: resolved problems listed one by one in the report (the counts hold them all): a baseline of a
#: hundred thousand FAILs that are all gone is one line and a count, not a second report
MAX_RESOLVED_LISTED = 1000


class _Kept(msgspec.Struct, array_like=True):
    """One finding of the baseline, as compact as it is used: its fingerprints and what a resolved entry shows."""

    fps: tuple  # one per problem
    parts: tuple  # the finding's parts (empty: one problem, at its data path)
    rule_id: str
    severity: str
    family: str
    subject: tuple  # (submission, system, model, point, entry)
    message: str
    location: tuple | None  # (file, line, column, path)

    def as_dict(self, i: int) -> dict:
        d = {"rule_id": self.rule_id, "subject": dict(zip(_SUBJECT_KEYS, self.subject)), "fingerprint": self.fps[i]}
        if self.parts:
            d["part"] = self.parts[i]
        for key in ("severity", "family", "message"):
            if getattr(self, key):
                d[key] = getattr(self, key)
        if self.location is not None:
            file, line, column, path = self.location
            d["location"] = {"file": file, "line": line, "column": column, "path": list(path)}
        return d


class _Refused(msgspec.Struct):
    """A finding object that is not what the report schema says (raised in file order after parsing)."""

    where: str
    msg: str


class _NotKnown:
    """A finding that is neither a FAIL nor waived: nothing of it is kept."""


_NOT_KNOWN = _NotKnown()
_SUBJECT_KEYS = ("submission", "system", "model", "point", "entry")


def _known_status(d: dict) -> bool:
    """A FAIL, or a finding a waiver turned into a SKIP: a problem the baseline knows."""
    status = d.get("status")
    return status == "FAIL" or (status == "SKIP" and str(d.get("reason") or "").startswith("waived"))


def _keep(d: dict):
    """A parsed object: a finding of the report becomes its compact form as soon as it is built (so the
    report is never held as one tree of dicts); any other object stays as it is."""
    if "rule_id" not in d or "status" not in d:
        return d
    if not _known_status(d):
        return _NOT_KNOWN
    return _compact(d)


def _plain(d: dict):
    """The compact form of a finding in the shape this tool writes, checked by hand (a fifth of the record
    check's cost, which a baseline of a hundred thousand FAILs feels); None for anything else."""
    s, loc, parts = d.get("subject", _NONE), d.get("location"), d.get("parts", ())
    text = [d.get(k, "") for k in ("rule_id", "severity", "family", "message")]
    if not all(type(v) is str for v in text) or "rule_id" not in d or type(s) is not dict or len(s) > 5:
        return None
    subject = tuple(s.get(k, "") for k in _SUBJECT_KEYS)
    if not all(type(v) is str for v in subject) or len(s) != sum(1 for k in _SUBJECT_KEYS if k in s):
        return None
    if type(parts) not in (list, tuple) or not all(type(p) is str for p in parts):
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
    i = sys.intern  # ids, severities, families, subjects and file names repeat from finding to finding
    fps = dict_fingerprints(d)
    where = where and (i(where[0]), *where[1:])
    return _Kept(fps, tuple(parts), i(text[0]), i(text[1]), i(text[2]), tuple(map(i, subject)), text[3], where)


_NONE: dict = {}


def _compact(d: dict):
    """A known finding's dict validated (strict types) into its compact form, or why it is refused."""
    kept = _plain(d)
    if kept is not None:
        return kept
    f, problems = validate(_Finding, d)
    if f is None:
        err = problems[0]
        return _Refused(".".join(str(p) for p in err.path), err.message)
    subject = tuple(getattr(f.subject, k) for k in _SUBJECT_KEYS)
    loc = None if f.location is None else (f.location.file, f.location.line, f.location.column, tuple(f.location.path))
    clean = {"rule_id": f.rule_id, "subject": dict(zip(_SUBJECT_KEYS, subject)), "parts": list(f.parts),
             "location": {"path": list(loc[3])} if loc else None}
    return _Kept(dict_fingerprints(clean), tuple(f.parts), f.rule_id, f.severity, f.family, subject, f.message, loc)


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
    """Read a ``--write-baseline`` file or an earlier JSON report (a path, or an already-parsed document)."""
    from checker.engine import baseline_file

    if isinstance(source, dict):
        import json

        doc, name = json.loads(json.dumps(source), object_hook=_keep), "<baseline>"
    else:
        name = source
        doc = _read(source)
    if isinstance(doc, dict) and baseline_file.FORMAT_KEY in doc:
        return Baseline(file=name, known=_file_problems(doc, name))
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list) \
            or not isinstance(doc.get("schema_version"), str) or not doc["schema_version"].startswith("1."):
        raise BaselineError(f"baseline {name} is neither a baseline file (--write-baseline) nor an endpoints-checker "
                            "JSON report (schema 1.x)")
    known: dict = {}
    for i, d in enumerate(doc["findings"]):
        if isinstance(d, dict):  # an object the reader left as it is (no rule_id or no status)
            if not _known_status(d):
                continue
            d = _compact(d)
        if isinstance(d, _Refused):
            raise BaselineError(f"baseline {name}: findings[{i}].{d.where}: {d.msg}")
        if isinstance(d, _Kept):
            for j, fp in enumerate(d.fps):
                known.setdefault(fp, (d, j))
        elif d is not _NOT_KNOWN:
            raise BaselineError(f"baseline {name}: findings[{i}] is not an object")
    return Baseline(file=name, known=known)


def _file_problems(doc: dict, name: str) -> dict:
    """The known problems of a ``--write-baseline`` file: what a resolved one shows is its rule and submission."""
    from checker.engine import baseline_file

    try:
        rows = baseline_file.entries(doc, name)
    except baseline_file.BaselineFileError as exc:
        raise BaselineError(str(exc)) from None
    known: dict = {}
    for sub, rid, fp in rows:
        subject = ("" if sub == baseline_file.NO_SUBMISSION else sub, "", "", "", "")
        known.setdefault(fp, (_Kept((fp,), (), sys.intern(rid), "", "", subject, "", None), 0))
    return known


def _waived(f: Finding) -> bool:
    return f.status is Status.SKIP and (f.reason or "").startswith("waived")


def mark(findings: list[Finding], base: Baseline | None, rules=()) -> tuple[list[Finding], dict | None]:
    """Tag each current FAIL and waived finding new or unchanged (new when any of its problems is); return the
    findings and the report's ``baseline`` section: problems counted new, unchanged, waived and resolved, the
    resolved ones listed up to MAX_RESOLVED_LISTED (``rules``: the check's, naming a resolved problem's severity
    and family when the baseline file does not)."""
    if base is None:
        return findings, None
    known = base.known
    seen = set()
    counts = {"new": 0, "unchanged": 0, "waived": 0, "resolved": 0}
    for f in findings:
        waived = f.status is not Status.FAIL and _waived(f)
        if f.status is not Status.FAIL and not waived:
            continue
        fps = fingerprints(f)
        seen.update(fps)
        new = [fp not in known for fp in fps]
        f.baseline = "new" if any(new) else "unchanged"
        if waived:
            counts["waived"] += len(fps)
            continue
        counts["new"] += sum(new)
        counts["unchanged"] += len(fps) - sum(new)
        if f.parts and any(new) and not all(new):  # which of the finding's problems are the new ones
            wheres = problem_wheres(f)
            f.extra = {**f.extra, "baseline": {"new": [w for w, n in zip(wheres, new) if n],
                                               "unchanged": [w for w, n in zip(wheres, new) if not n]}}
    gone = [(k, j) for fp, (k, j) in known.items() if fp not in seen]
    counts["resolved"] = len(gone)
    import heapq

    listed = heapq.nsmallest(MAX_RESOLVED_LISTED, gone, key=lambda kj: (kj[0].subject, kj[0].rule_id, kj[0].fps[kj[1]]))
    by_id = {r.id: r for r in rules}
    resolved = [_resolved_entry(k, j, by_id) for k, j in listed]
    section = {"file": base.file, "counts": counts, "resolved": resolved}
    if len(gone) > len(listed):
        section["resolved_not_listed"] = len(gone) - len(listed)
    return findings, section


def _resolved_entry(k: _Kept, j: int, by_id: dict) -> dict:
    """A resolved problem as the report lists it; a baseline file records no severity or family: the rule's."""
    entry = k.as_dict(j)
    rule = by_id.get(k.rule_id)
    if rule is not None:
        entry.setdefault("severity", rule.severity.value)
        entry.setdefault("family", rule.family)
    return entry
