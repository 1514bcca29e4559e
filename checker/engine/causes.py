"""Root causes: a FAIL that follows from another rule's FAIL is linked to it, so one fact reads as one problem line.

A rule declares the rules it is a consequence of (``@rule(..., consequence_of=("unknown-key",))``). Once the
findings are final (waivers and baseline applied), ``link`` gives each FAIL of such a rule whose cause FAILed on a
related subject ``caused_by`` (the root cause's rule id and subject label), and the root cause ``also`` (every FAIL
that follows from it, through chains of causes). Related subjects: the same one; the cause's subject enclosing the
consequence's (no src/ at the submission, a shared path missing at a point); or the consequence's enclosing the
cause's when it points at the cause's file (a curve-wide comparison naming the point whose key is misspelt). A run
folder is the point it becomes in an assembled bundle (``aliases``). Nothing is dropped: every FAIL stays in the
report and counts for gates, SARIF, JUnit, the Week-0 verdict, baselines and waivers; the human outputs show the
cause's line only (``checker.engine.tally``'s problems). No message is read: only rule ids, subjects and files.
"""
from __future__ import annotations

from typing import Iterable

import msgspec

from checker.core.findings import Finding, Status, Subject


def _key(s: Subject, aliases: dict) -> tuple:
    """The subject as a path from the package down (entry left out: a file inside the subject is the subject)."""
    if s.point and not s.model:  # a run folder: the point of the bundle it becomes, else a place of its own
        return aliases.get(s.point) or ("\0run-folder", s.point)
    parts = (s.submission, s.system, s.model, s.point)
    n = 0
    while n < 4 and parts[n]:
        n += 1
    return parts[:n]


def _file(f: Finding) -> str | None:
    return f.location.file if f.location is not None and f.location.file else None


def _rank(cause: Finding, ck: tuple, cons: Finding, qk: tuple) -> tuple | None:
    """How closely ``cause`` explains ``cons`` (lower is closer), or None when their subjects are not related."""
    if ck == qk:
        return (0, 0)
    if qk[:len(ck)] == ck:  # the cause encloses the consequence: the nearest enclosing cause first
        return (1, -len(ck))
    if ck[:len(qk)] == qk and _file(cons) is not None and _file(cons) == _file(cause):
        return (2, len(ck))
    return None


def link(findings: list[Finding], rules: Iterable, aliases: dict | None = None) -> list[Finding]:
    """The findings with ``caused_by`` and ``also`` set from the rules' declarations (see the module docstring).
    A finding whose links do not change is the same object (a cohort worker's encoded block stays valid); one whose
    links change is a new one."""
    declared = {r.id: tuple(r.consequence_of) for r in rules if getattr(r, "consequence_of", ())}
    aliases = aliases or {}
    causes_of = {c for cs in declared.values() for c in cs}
    fails = [f for f in findings if f.status is Status.FAIL and (f.rule_id in declared or f.rule_id in causes_of)]
    # the causes by rule, then by the first step of their subject's path: related subjects share it, or one of
    # them is the package (a cohort's thousands of FAILs are never compared pairwise across submissions)
    by_rule: dict[str, dict] = {}
    for f in fails:
        if f.rule_id in causes_of:
            k = _key(f.subject, aliases)
            by_rule.setdefault(f.rule_id, {}).setdefault(k[:1], []).append((f, k))
    direct: dict[int, Finding] = {}
    for f in fails:
        if f.rule_id not in declared:
            continue
        qk = _key(f.subject, aliases)
        best, best_rank = None, None
        for cause_id in declared[f.rule_id]:
            buckets = by_rule.get(cause_id, {})
            near = buckets.values() if not qk else (buckets.get(qk[:1], ()), buckets.get((), ()))
            for c, ck in (pair for bucket in near for pair in bucket):
                rank = _rank(c, ck, f, qk)
                if rank is not None and (best_rank is None or rank < best_rank):
                    best, best_rank = c, rank
        if best is not None:
            direct[id(f)] = best
    root: dict[int, Finding] = {}
    for f in fails:  # follow the chain to its root (declarations are acyclic; a cycle links nothing)
        cur, seen = f, {id(f)}
        while id(cur) in direct and id(direct[id(cur)]) not in seen:
            cur = direct[id(cur)]
            seen.add(id(cur))
        if cur is not f and id(cur) not in direct:
            root[id(f)] = cur
    also: dict[int, list[dict]] = {}
    for f in fails:
        r = root.get(id(f))
        if r is not None:
            also.setdefault(id(r), []).append(_name(f))
    out = []
    for f in findings:
        r = root.get(id(f))
        caused_by = _name(r) if r is not None else None
        named = tuple(also.get(id(f), ()))
        if f.caused_by != caused_by or tuple(f.also) != named:
            f = msgspec.structs.replace(f, caused_by=caused_by, also=named)
        out.append(f)
    return out


def _name(f: Finding) -> dict:
    return {"rule_id": f.rule_id, "subject": f.subject.label()}


def aliases_of(pkg) -> dict:
    """Run folder name -> the subject path of the point it becomes in the bundle its run folders are assembled
    into (none when they are not)."""
    out: dict = {}
    for assembly in getattr(pkg, "assemblies", None) or ():
        for pp in assembly.points.values():
            for run in list(pp.perf) + list(pp.acc):
                out.setdefault(run.rf.name, (assembly.name, pp.system, pp.model, f"r{pp.n}"))
    return out
