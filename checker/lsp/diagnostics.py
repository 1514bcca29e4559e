"""Findings -> LSP diagnostics, file by file: range from line/column, severity from the level and the
``fail_on`` gate, ``code`` the rule id with its page, related locations for findings that compare points.

A curve-scope FAIL (a point that disagrees with the others) gets the same field of the points it disagrees
with as related locations, and each of those files shows an Information diagnostic pointing back, so the
disagreement is visible from both sides. A FAIL that follows from another (``caused_by``) is not shown: its cause's
diagnostic names it ("also: ...") at the level of the highest of them. A finding with no file of its own (a missing directory, the
crashed-check report) shows on the document whose check found it.
"""
from __future__ import annotations

import os
from typing import Any

from lsprotocol import types

from checker.core.findings import Severity, Status
from checker.core.gate import gates_week0, severity_rank
from checker.core.values import value_at
from checker.lsp.positions import Text
from checker.lsp.resolve import KINDS

SOURCE = "endpoints-checker"
MAX_RELATED = 8
MAX_PER_FILE = 500


def rule_url(family: str, rule_id: str, base: str = "") -> str | None:
    """The rule's own row on its family page (``checker.core.rule_pages``, the one link builder: the documentation
    base when configured, else the installed page)."""
    from checker.core.rule_pages import rule_url as page

    return page(family, rule_id, base)


def severity(level: Severity, week0: bool | None = None, fail_on: str = "flag") -> types.DiagnosticSeverity:
    """At or above ``--fail-on`` (or, with ``week0`` in it, a finding the Week-0 check rejects on): Error (it
    fails the gate); below it a flag or reject is a Warning and a warning Information."""
    if level.rank >= severity_rank(fail_on) or (week0 and gates_week0(fail_on)):
        return types.DiagnosticSeverity.Error
    return types.DiagnosticSeverity.Information if level is Severity.WARN else types.DiagnosticSeverity.Warning


def message(f, rename: dict | None = None) -> str:
    text = f.message
    if f.also:  # the FAILs that follow from this one: not shown on their own (checker.engine.causes)
        text += "\nalso: " + ", ".join(dict.fromkeys(a["rule_id"] for a in f.also))
    if f.fix:
        text += f"\nfix: {f.fix}"
    for scratch, real in (rename or {}).items():  # a file checked alone names itself, not its scratch copy
        text = text.replace(scratch, real)
    return text


class Mapped:
    """One check's diagnostics and quick fixes by absolute file path."""

    def __init__(self):
        self.diagnostics: dict[str, list] = {}
        self.fixes: dict[str, list] = {}  # path -> [(Diagnostic, rule id, title, [(path, Range, new)])]
        self.fix_all: dict[str, list] = {}  # path -> [(Range, new)] merged edits of every fixable finding

    def add(self, path: str, diag) -> None:
        lst = self.diagnostics.setdefault(path, [])
        if len(lst) < MAX_PER_FILE:
            lst.append(diag)


def map_report(report, texts: dict[str, str | None], trigger: str, fail_on: str, docs_base: str = "",
               rename: dict | None = None, encoding: str = "utf-16") -> Mapped:
    """Every FAIL of ``report`` as diagnostics. ``texts``: open buffers by path (other files' texts come from
    the loaded package); ``rename``: report path -> editor path (a file checked alone, in a scratch copy)."""
    out = Mapped()
    files = _loaded_files(report.package)
    scopes = {r.id: r.scope for r in report.rules}
    cache: dict[str, Text] = {}
    rename = rename or {}

    def text_of(path: str) -> Text:
        if path not in cache:
            if path in texts:
                cache[path] = Text(texts[path], encoding)
            else:
                lf = files.get(path)
                body = getattr(lf, "text", None)
                cache[path] = Text(("\ufeff" + body) if body is not None and getattr(lf, "bom", False) else body,
                                   encoding)
        return cache[path]

    fixable = []
    # a problem line's level is the highest of its group: a cause shows at the level of what follows from it
    level = {id(f): (p.severity, any(x.week0 for x in p.all)) for p in report.tally.problems if p.consequences
             for f in p.findings}
    for f in report.findings:
        if f.status is not Status.FAIL:
            continue
        if f.caused_by is not None:  # named on its cause's diagnostic; its certain fix still joins "fix all"
            if f.edits:
                fixable.append(f)
            continue
        path, line, col = _where(f, files, trigger, rename)
        if path is None:
            continue
        t = text_of(path)
        rng = t.finding_range(line, col)
        href = rule_url(f.family, f.rule_id, docs_base)
        diag = types.Diagnostic(range=rng, message=message(f, rename),
                                severity=severity(*level.get(id(f), (f.severity, f.week0)), fail_on=fail_on),
                                code=f.rule_id,
                                code_description=types.CodeDescription(href=href) if href else None,
                                source=SOURCE, data=_data(f))
        if scopes.get(f.rule_id) == "curve" and f.location is not None and path in files:
            related = _related(f, files[path], report.package, rename)
            if related:
                diag.related_information = [
                    types.DiagnosticRelatedInformation(
                        location=types.Location(uri=_uri(p), range=text_of(p).finding_range(ln, cl)),
                        message=f"{_point_name(p)}: {shown}") for p, ln, cl, shown in related]
                for p, ln, cl, _shown in related:
                    back = types.Diagnostic(
                        range=text_of(p).finding_range(ln, cl), severity=types.DiagnosticSeverity.Information,
                        code=f.rule_id, source=SOURCE,
                        code_description=diag.code_description,
                        message=f"{_point_name(path)} disagrees with this value: {f.message}",
                        related_information=[types.DiagnosticRelatedInformation(
                            location=types.Location(uri=_uri(path), range=rng), message=f.message)],
                        data={"rule": f.rule_id, "level": f.severity.value, "fixable": False, "related": True})
                    out.add(p, back)
        out.add(path, diag)
        if f.edits:
            edits = [(rename.get(e.abspath, e.abspath), e) for e in f.edits]
            lsp_edits = [(p, text_of(p).edit_range(e.start_line, e.start_column, e.end_line, e.end_column), e.new)
                         for p, e in edits]
            out.fixes.setdefault(path, []).append((diag, f.rule_id, f.title, lsp_edits))
            fixable.append(f)
    if fixable:
        from checker.fix.engine import plan_fixes

        for plan in plan_fixes(fixable):
            p = rename.get(plan.abspath, plan.abspath)
            out.fix_all[p] = [(text_of(p).edit_range(e.start_line, e.start_column, e.end_line, e.end_column), e.new)
                              for e in plan.edits]
    return out


def _data(f) -> dict:
    """What a client (or a test) reads back from a diagnostic: the rule, the level, the subject, whether it has a
    certain fix and whether the Week-0 check rejects on it (when the report says)."""
    data = {"rule": f.rule_id, "level": f.severity.value, "subject": f.subject.label(), "fixable": bool(f.edits)}
    if f.week0 is not None:
        data["week0"] = f.week0
    if f.also:
        data["also"] = [dict(a) for a in f.also]
    return data


def _uri(path: str) -> str:
    from pygls.uris import from_fs_path

    return from_fs_path(path) or path


def _point_name(path: str) -> str:
    parent = os.path.basename(os.path.dirname(path))
    return f"{parent}/{os.path.basename(path)}"


def _loaded_files(pkg) -> dict[str, Any]:
    """Absolute path -> LoadedFile of every file the check loaded."""
    out: dict[str, Any] = {}
    if pkg is None:
        return out
    for sub in getattr(pkg, "submissions", ()):
        for _subject, lf in sub.all_files():
            out[os.path.abspath(lf.abspath)] = lf
    for rf in getattr(pkg, "run_folders", ()):
        for lf in rf.files.values():
            out[os.path.abspath(lf.abspath)] = lf
    return out


def _where(f, files: dict, trigger: str, rename: dict) -> tuple[str | None, int | None, int | None]:
    """(editor path, line, column) a finding is shown at; (None, ...) for a file checked alone that the
    finding is not about (the scratch package's other, absent files)."""
    loc = f.location
    line = col = None
    path = None
    if loc is not None and loc.file:
        path = os.path.abspath(loc.file)
        line, col = loc.line, loc.column
        if not line and isinstance(f.extra, dict) and isinstance(f.extra.get("line"), int):
            line, col = f.extra["line"], f.extra.get("column") if isinstance(f.extra.get("column"), int) else 1
    if rename:
        return (rename[path], line, col) if path in rename else (None, None, None)
    if path is None:
        return trigger, None, None
    if path not in files and os.path.isdir(path):
        for name in KINDS:  # a point or run folder directory: its first file
            cand = os.path.join(path, name)
            if cand in files and files[cand].exists:
                return cand, None, None
        return trigger, None, None
    if path not in files and not os.path.isfile(path):
        return trigger, None, None
    return path, line, col


def _related(f, lf, pkg, rename: dict) -> list[tuple]:
    """The same field of the curve's other points where it holds another value: (path, line, col, value)."""
    path = tuple(f.location.path or ())
    curve = _curve_of(pkg, f.subject)
    if curve is None:
        return []
    mine = value_at(lf.data, path, None)
    out = []
    for p in curve.points:
        other = p.files.get(lf.kind)
        if other is None or other is lf or not other.ok:
            continue
        theirs = value_at(other.data, path, None)
        if theirs == mine and path:
            continue
        line, col = other.position(path)
        from checker.core.values import show

        out.append((rename.get(other.abspath, os.path.abspath(other.abspath)), line, col, show(theirs, quote=False)))
        if len(out) >= MAX_RELATED:
            break
    return out


def _curve_of(pkg, subject):
    for sub in getattr(pkg, "submissions", ()) or ():
        if sub.name != subject.submission:
            continue
        for s in sub.systems:
            if s.name != subject.system:
                continue
            for c in s.curves:
                if c.name == subject.model:
                    return c
    return None
