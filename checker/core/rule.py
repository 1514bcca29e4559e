"""A rule is metadata plus a small pure function; this module holds the decorator and the outcomes.

``@rule(...)`` only attaches the metadata to the function (no registry, no import side effect): the
family comes from the package the function lives in, and the engine's catalogue
(``checker.engine.catalogue``) collects the rules of every family listed in ``rules.FAMILIES``.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Iterable

import msgspec

from checker.core.findings import Severity

#: what a ``needs`` entry may say, by prefix; the engine SKIPs the rule, naming the input, unless:
#:   ``<kind>``           the subject's file of that kind is present, loaded, and valid (when modelled)
#:   ``loaded:<kind>``    the file is present and parsed as a mapping; it may be invalid (the rule reads
#:                        what is there, e.g. one key of a point.yaml whose other keys are wrong)
#:   ``maybe:<kind>``     read when present: the rule itself decides what absence means (never SKIPped)
#:   ``read:<kind>``      present and read by the loader: a refusal (too large, unreadable, ...) SKIPs, as the
#:                        loading rules report it; a parse error is the rule's to report (the validity rules)
#:   ``maybe-read:<kind>`` as ``read:``, but the rule itself decides what absence means
#:   ``maybe-loaded:<kind>`` when present, loaded (a refusal or a parse error SKIPs); the rule decides what
#:                        absence means. On a curve, the file at every point of the curve
#:   ``policy:<name>``    the policy file loaded (a registry with a reporting rule: the rule handles it)
#:   ``registry:<name>``  a registry with a reporting rule is usable (else SKIP naming that rule)
#:   ``engine:week0``     the Week-0 verdict the engine computed (official or predicted) is handed over on
#:                        ``ctx.week0``; the rule runs after the others (else SKIP: it was not computed)
#:   ``has:<what>``       the subject has it (``HAS_INPUTS``): ``has:dir`` its directory could be listed,
#:                        ``has:src`` the submission's src/, when present, could be listed, ``has:points`` the
#:                        curve has point directories, ``has:events`` the run folder's events.jsonl was audited
#:                        (not --no-events, present, read), ``has:events-log`` audited, read or not (the rule
#:                        reports an unreadable log)
NEED_KINDS = ("file", "loaded", "maybe", "read", "maybe-read", "maybe-loaded", "policy", "registry", "engine", "has")
#: the kinds of need that name a file kind (``Rule.files``)
FILE_NEEDS = ("file", "loaded", "maybe", "read", "maybe-read", "maybe-loaded")
#: what ``engine:`` may name
ENGINE_INPUTS = ("week0",)
#: what ``has:`` may name
HAS_INPUTS = ("dir", "src", "points", "events", "events-log")
#: the SKIP reason of a rule whose registry cannot be used
REGISTRY_UNUSABLE = "registry-unusable"

SCOPES = ("package", "submission", "system", "curve", "point", "run-folder", "cohort", "bundle", "plan")
_ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


class Outcome(msgspec.Struct):
    """What a rule function returns; the runner turns it into a Finding."""

    status: str  # "PASS" | "FAIL" | "SKIP"
    message: str
    file: Any = None  # a LoadedFile, or a display path string
    path: tuple = ()
    observed: Any = None
    expected: Any = None
    fix: str | None = None
    reason: str | None = None
    severity: Severity | None = None  # override the rule's default (rare; e.g. a float-only margin warn)
    extra: dict = msgspec.field(default_factory=dict)
    subject: Any = None  # override the evaluated subject (a rule reporting on a file elsewhere)
    entry: str = ""  # a file or directory inside the subject this outcome is about
    edits: tuple = ()  # an automatic fix: Edits (checker.core.fixes) whose right value is certain
    #: a FAIL listing several problems: each one's identity (a data path tuple, or a name such as a point),
    #: so a baseline tells a new problem from an old one of the same finding
    parts: tuple = ()


def Pass(message: str, **kw: Any) -> Outcome:
    return Outcome("PASS", message, **kw)


def Fail(message: str, **kw: Any) -> Outcome:
    return Outcome("FAIL", message, **kw)


def Skip(message: str, reason: str = "not-applicable", **kw: Any) -> Outcome:
    return Outcome("SKIP", message, reason=reason, **kw)


class Skipped(Exception):
    """Raised by a rule, or a helper it calls, that cannot judge its subject: the engine makes it the rule's
    SKIP with this message and reason (as it does a declared need that is not met), so no helper hands a
    SKIP back for its caller to return."""

    def __init__(self, message: str, reason: str = "not-applicable", **kw: Any) -> None:
        super().__init__(message)
        self.outcome = Skip(message, reason, **kw)


class Rule(msgspec.Struct):
    id: str
    title: str
    clause: str
    family: str
    severity: Severity
    scope: str
    func: Callable
    needs: tuple = ()
    official: bool = False
    doc: str = ""
    #: evaluated once per invocation, after waivers are applied (the waiver-usage rules)
    after_waivers: bool = False
    #: the rules whose FAIL explains a FAIL of this one on a related subject (checker.engine.causes): the
    #: report then shows one problem line, the cause's, naming this rule on it
    consequence_of: tuple = ()

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.title

    @property
    def module(self) -> str:
        """The module that defines the rule function (``rules.<family>.<topic>``)."""
        return self.func.__module__

    @property
    def policies(self) -> tuple[str, ...]:
        """The policy files (names, without ``.yaml``) this rule reads, registries included."""
        return tuple(name for kind, name in map(split_need, self.needs) if kind in ("policy", "registry"))

    @property
    def files(self) -> tuple[str, ...]:
        """The submission file kinds this rule reads (valid or merely loaded)."""
        return tuple(name for kind, name in map(split_need, self.needs) if kind in FILE_NEEDS)

    def section(self, name: str) -> str:
        """Return a named docstring section ('What it checks', 'Why', 'How to fix')."""
        return doc_section(self.doc, name)

    def catalogue_entry(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "title": self.title,
            "family": self.family,
            "severity": self.severity.value,
            "scope": self.scope,
            "clause": self.clause,
            "official": self.official,
        }


class RuleSpec(msgspec.Struct, frozen=True):
    """The metadata ``@rule`` attaches to a function; the catalogue adds the family."""

    id: str
    title: str
    clause: str
    severity: Severity
    scope: str
    needs: tuple
    official: bool
    after_waivers: bool
    consequence_of: tuple = ()

    def bind(self, family: str, func: Callable) -> Rule:
        return Rule(id=self.id, title=self.title, clause=self.clause, family=family, severity=self.severity,
                    scope=self.scope, func=func, needs=self.needs, official=self.official,
                    doc=func.__doc__ or "", after_waivers=self.after_waivers, consequence_of=self.consequence_of)


def rule(
    *,
    id: str,
    title: str,
    clause: str,
    severity: str,
    scope: str,
    needs: Iterable[str] = (),
    official: bool = False,
    after_waivers: bool = False,
    consequence_of: Iterable[str] = (),
) -> Callable[[Callable], Callable]:
    """Declare a rule function. ``needs`` names every input it reads (``NEED_KINDS``); the engine enforces it.
    ``consequence_of`` names the rules whose FAIL, on the same or a related subject, is this rule's FAIL's root
    cause: the report shows the cause's problem line only, naming this rule on it (checker.engine.causes)."""
    if not _ID_RE.match(id):
        raise ValueError(f"rule id {id!r} is not kebab-case")
    if scope not in SCOPES:
        raise ValueError(f"rule {id!r}: unknown scope {scope!r}")
    needs = tuple(needs)
    for n in needs:
        split_need(n)  # an unknown kind fails at import, not silently at run time
    consequence_of = tuple(consequence_of)
    for cause in consequence_of:
        if not _ID_RE.match(cause) or cause == id:
            raise ValueError(f"rule {id!r}: consequence_of names {cause!r}, not another rule's id")
    spec = RuleSpec(id, title, clause, Severity(severity), scope, needs, official, after_waivers, consequence_of)

    def deco(func: Callable) -> Callable:
        func.__rule__ = spec
        return func

    return deco


def split_need(need: str) -> tuple[str, str]:
    """``"loaded:point_yaml"`` -> ("loaded", "point_yaml"); a bare file kind -> ("file", kind)."""
    kind, sep, name = need.partition(":")
    if not sep:
        return "file", need
    if kind not in NEED_KINDS:
        raise ValueError(f"unknown need {need!r}: one of {', '.join(k + ':' for k in NEED_KINDS[1:])} or a file kind")
    if kind == "engine" and name not in ENGINE_INPUTS:
        raise ValueError(f"unknown need {need!r}: the engine hands over {', '.join(ENGINE_INPUTS)}")
    if kind == "has" and name not in HAS_INPUTS:
        raise ValueError(f"unknown need {need!r}: one of {', '.join('has:' + n for n in HAS_INPUTS)}")
    return kind, name


def doc_section(doc: str, name: str) -> str:
    """Extract ``Name:`` section text from a rule docstring (sections end at the next heading)."""
    lines = [ln.strip() for ln in (doc or "").strip().splitlines()]
    out: list[str] = []
    inside = False
    for ln in lines:
        m = re.match(r"^([A-Z][A-Za-z ]+):\s*(.*)$", ln)
        if m and m.group(1) in DOC_SECTIONS:
            if inside:
                break
            if m.group(1) == name:
                inside = True
                if m.group(2):
                    out.append(m.group(2))
            continue
        if inside:
            out.append(ln)
    return " ".join(x for x in out if x).strip()


DOC_SECTIONS = ("What it checks", "Why", "How to fix", "Example", "Notes")
