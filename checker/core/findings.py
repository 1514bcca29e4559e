"""Finding, status, severity and subject types shared by the engine, rules and renderers.

Plain msgspec Structs (slotted; a class costs next to nothing to define at import): a run creates
thousands of findings, and they must be cheap.
"""
from __future__ import annotations

import math
from enum import Enum
from typing import Any

import msgspec


class Status(str, Enum):
    PASS = "PASS"
    FAIL = "FAIL"
    SKIP = "SKIP"


class Severity(str, Enum):
    """The rules' failure actions (R§9.1), most severe first."""

    REJECT = "reject"
    REJECT_POINTS = "reject-points"
    FLAG = "flag"
    WARN = "warn"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.REJECT: 4, Severity.REJECT_POINTS: 3, Severity.FLAG: 2, Severity.WARN: 1}


SEVERITY_ORDER = [s.value for s in Severity]


class Subject(msgspec.Struct, frozen=True, order=True):
    """What a finding is about: a submission, system, curve (system x model), point or run folder."""

    submission: str = ""
    system: str = ""
    model: str = ""
    point: str = ""
    entry: str = ""  # a file or directory entry inside the subject (junk, a refused file)

    @property
    def kind(self) -> str:
        if self.point:
            return "point" if self.model else "run-folder"
        if self.model:
            return "curve"
        if self.system:
            return "system"
        return "submission" if self.submission else "package"

    def label(self) -> str:
        parts = [p for p in (self.submission, self.system, self.model, self.point, self.entry) if p]
        return "/".join(parts) if parts else "(package)"

    def as_dict(self) -> dict[str, str]:
        return {
            "submission": self.submission,
            "system": self.system,
            "model": self.model,
            "point": self.point,
            "entry": self.entry,
        }


class Location(msgspec.Struct):
    file: str
    line: int | None = None
    column: int | None = None
    path: tuple = ()

    def as_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column, "path": [path_step(p) for p in self.path]}

    def short(self) -> str:
        if self.line:
            return f"{self.file}:{self.line}:{self.column or 1}"
        return self.file


class Finding(msgspec.Struct):
    rule_id: str
    status: Status
    severity: Severity
    subject: Subject
    message: str
    family: str = ""
    title: str = ""
    clause: str = ""
    location: Location | None = None
    observed: Any = None
    expected: Any = None
    fix: str | None = None
    reason: str | None = None  # SKIP reason code: missing-input, not-applicable, deselected, ...
    extra: dict = msgspec.field(default_factory=dict)
    baseline: str | None = None  # --baseline: "new" | "unchanged" (FAIL and waived findings)
    edits: tuple = ()  # the automatic fix: TextEdits (checker.core.fixes), applied by check --fix
    #: FAILs only: does the Week-0 automated check (the official tool) reject on this rule at this subject? Set
    #: by the engine from the Week-0 verdict (checker.engine.week0); None elsewhere
    week0: bool | None = None
    #: the problems of a finding that lists several (each wrong seed, each point without a block): one
    #: identity each, as a data path or name; the baseline fingerprints each (checker.core.fingerprint)
    parts: tuple = ()
    #: FAILs only, set by the engine (checker.engine.causes): the root cause this FAIL follows from, as
    #: {"rule_id", "subject" (its label)}; the report shows the cause's problem line, not this finding's
    caused_by: dict | None = None
    #: FAILs only: the FAILs that follow from this one (each {"rule_id", "subject"}), named on its problem line
    also: tuple = ()

    def sort_key(self) -> tuple:
        s = self.subject
        return (s.submission, s.system, s.model, point_sort_key(s.point), s.entry, self.rule_id)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "rule_id": self.rule_id,
            "status": self.status.value,
            "severity": self.severity.value,
            "family": self.family,
            "subject": self.subject.as_dict(),
            "message": self.message,
        }
        if self.location is not None:
            d["location"] = self.location.as_dict()
        if self.parts:
            d["parts"] = list(self.parts)
        if self.observed is not None or self.expected is not None:
            d["evidence"] = {"observed": json_safe(self.observed), "expected": json_safe(self.expected)}
        if self.fix:
            d["fix"] = self.fix
        if self.reason:
            d["reason"] = self.reason
        if self.extra:
            d["extra"] = json_safe(self.extra)
        if self.baseline:
            d["baseline"] = self.baseline
        if self.edits:
            d["edits"] = [e.as_dict() for e in self.edits]
        if self.week0 is not None:
            d["week0"] = self.week0
        if self.caused_by is not None:
            d["caused_by"] = dict(self.caused_by)
        if self.also:
            d["also"] = [dict(a) for a in self.also]
        return d


def path_step(p: Any) -> Any:
    """A data-path step as the report holds it: a key or list index as it is, except what JSON cannot hold,
    a non-finite float key (YAML ``.inf:``), spelled as YAML writes it (``.inf``, ``-.inf``, ``.nan``), and
    any other object as its text. Fingerprints use the same spelling, so a report read back matches."""
    if p is None or isinstance(p, (str, int)):
        return p
    if isinstance(p, float):
        if math.isfinite(p):
            return p
        return ".nan" if p != p else (".inf" if p > 0 else "-.inf")
    return str(p)


def point_sort_key(name: str) -> tuple:
    """Sort r8 before r16; anything else after, by name. Names are data: only ASCII digits count
    (``r²`` or ``r١`` sort as plain names), and a number too long to matter sorts after every other.
    Memoised (a report sorts every finding by it, and a package has a few dozen point names)."""
    key = _POINT_KEYS.get(name)
    if key is None:
        digits = name[1:]
        if len(name) > 1 and name[0] == "r" and digits.isascii() and digits.isdigit():
            key = (0, int(digits) if len(digits) <= 18 else 1 << 62, name)
        else:
            key = (1, 0, name)
        if len(_POINT_KEYS) >= 4096:
            _POINT_KEYS.clear()
        _POINT_KEYS[name] = key
    return key


_POINT_KEYS: dict = {}


def json_safe(value: Any, _depth: int = 0) -> Any:
    """Make evidence JSON-safe: non-finite floats become strings, tuples lists, unknowns str."""
    if _depth > 8:
        return "..."
    if value is None or isinstance(value, (bool, int, str)):
        if isinstance(value, str) and len(value) > 2000:
            return value[:2000] + "..."
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, dict):
        return {str(k): json_safe(v, _depth + 1) for k, v in list(value.items())[:200]}
    if isinstance(value, (list, tuple, set, frozenset)):
        seq = sorted(value, key=str) if isinstance(value, (set, frozenset)) else value
        return [json_safe(v, _depth + 1) for v in list(seq)[:200]]
    return str(value)
