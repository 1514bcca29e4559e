"""The rule registry: rule metadata plus a pure function, and the outcomes a rule returns.

A rule module declares rules with the ``@rule(...)`` decorator; ``rules/__init__.py`` imports
every family module explicitly, so the registry is complete once ``rules`` is imported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from checker.core.findings import Severity

SCOPES = ("package", "submission", "system", "curve", "point", "run-folder", "cohort")
_ID_RE = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(slots=True)
class Outcome:
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
    extra: dict = field(default_factory=dict)
    subject: Any = None  # override the evaluated subject (a rule reporting on a file elsewhere)
    entry: str = ""  # a file or directory inside the subject this outcome is about


def Pass(message: str, **kw: Any) -> Outcome:
    return Outcome("PASS", message, **kw)


def Fail(message: str, **kw: Any) -> Outcome:
    return Outcome("FAIL", message, **kw)


def Skip(message: str, reason: str = "not-applicable", **kw: Any) -> Outcome:
    return Outcome("SKIP", message, reason=reason, **kw)


@dataclass(slots=True)
class Rule:
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

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0] if self.doc.strip() else self.title

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


REGISTRY: dict[str, Rule] = {}


def rule(
    *,
    id: str,
    title: str,
    clause: str,
    family: str,
    severity: str,
    scope: str,
    needs: Iterable[str] = (),
    official: bool = False,
) -> Callable[[Callable], Callable]:
    """Register a rule function. ``needs`` names inputs (file kinds, ``policy:<name>``)."""

    def deco(func: Callable) -> Callable:
        if id in REGISTRY:
            raise ValueError(f"duplicate rule id {id!r}")
        if not _ID_RE.match(id):
            raise ValueError(f"rule id {id!r} is not kebab-case")
        if scope not in SCOPES:
            raise ValueError(f"rule {id!r}: unknown scope {scope!r}")
        REGISTRY[id] = Rule(
            id=id,
            title=title,
            clause=clause,
            family=family,
            severity=Severity(severity),
            scope=scope,
            func=func,
            needs=tuple(needs),
            official=official,
            doc=func.__doc__ or "",
        )
        return func

    return deco


def all_rules() -> list[Rule]:
    import rules  # noqa: F401  (registers every family)

    return list(REGISTRY.values())


def get_rule(rule_id: str) -> Rule | None:
    all_rules()
    return REGISTRY.get(rule_id)


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


def select_matches(rule: Rule, tokens: Iterable[str]) -> bool:
    """True when a --select/--ignore token names this rule: its id, its family, or an id prefix."""
    for tok in tokens:
        tok = tok.strip()
        if not tok:
            continue
        if tok in ("ALL", "all"):
            return True
        if tok == rule.id or tok == rule.family or rule.id.startswith(tok):
            return True
    return False
