"""Evaluate every registered rule on every subject of its scope: exactly one finding each.

Isolation: an exception inside a rule becomes a FAIL of that rule for that subject; missing or
refused inputs become SKIPs naming the file; deselected rules SKIP with reason "deselected".
"""
from __future__ import annotations

from typing import Any, Iterable

import msgspec

from checker.core.findings import Finding, Location, Severity, Status, Subject
from checker.load.file_kinds import FILE_KINDS
from checker.load.reader import LoadedFile
from checker.load.package_tree import Package
from checker.core.policy import Policy, PolicyUnavailable
from checker.core.rule import REGISTRY_UNUSABLE, Outcome, Rule, Skipped, split_need
from checker.engine.catalogue import is_selected


class Context(msgspec.Struct):
    """What a rule may read besides its subject: the package, policy data and run options."""

    package: Package
    policy: Policy
    #: the user's run options (--max-concurrency, --seed-set, --cohort, ...); never engine state
    options: dict[str, Any] = msgspec.field(default_factory=dict)
    #: the loaded waiver set, for the rules evaluated after waivers are applied
    waivers: Any = None
    #: the cohort units' digests (``checker.load.cohort_digest``), for the cohort-scope rules
    cohort_units: list | None = None
    #: the Week-0 verdict per submission name (``checker.core.week0.Feed``), for the rules that need
    #: ``engine:week0``; None where it was not computed
    week0: dict | None = None

    def opt(self, name: str, default: Any = None) -> Any:
        return self.options.get(name, default)


def subjects_for(scope: str, pkg: Package) -> list[Any]:
    if scope == "package":
        return [pkg]
    if scope == "submission":
        return list(pkg.submissions)
    if scope == "system":
        return [s for sub in pkg.submissions for s in sub.systems]
    if scope == "curve":
        return [c for sub in pkg.submissions for c in sub.curves()]
    if scope == "point":
        return [p for sub in pkg.submissions for p in sub.points()]
    if scope == "run-folder":
        return list(pkg.run_folders)
    if scope == "cohort":
        return [pkg] if len(pkg.submissions) > 1 else []
    if scope == "bundle":  # a set of run folders assembled into the bundle they become
        return list(getattr(pkg, "assemblies", None) or [])
    if scope == "plan":  # client configs pre-flighted before the runs
        plan = getattr(pkg, "plan", None)
        return [plan] if plan is not None and plan.configs else []
    return []


def _input_file(obj: Any, kind: str) -> LoadedFile | None:
    """The subject's file of ``kind``: from its ``files``, or a system's own file (``FileKind.system``, held as the
    System's attribute of that kind's name: ``system.power``)."""
    files = getattr(obj, "files", None)
    if isinstance(files, dict) and kind in files:
        return files[kind]
    fk = FILE_KINDS.get(kind)
    return getattr(obj, kind, None) if fk is not None and fk.system else None


def _split_needs(rule: Rule) -> tuple:
    """``rule.needs`` as ((kind, name), ...), computed once per rule (kinds: ``checker.core.rule.NEED_KINDS``)."""
    key = (rule.id, rule.needs)
    out = _NEEDS.get(key)
    if out is None:
        out = _NEEDS[key] = tuple(split_need(n) for n in rule.needs)
    return out


_NEEDS: dict = {}


def _check_needs(rule: Rule, obj: Any, ctx: Context) -> Outcome | None:
    """The SKIP a rule's declared inputs call for, or None when it can run."""
    for kind, name in _split_needs(rule):
        if kind == "policy":
            if name in ctx.policy.reporters:
                continue  # a registry with its own reporting rule: read it as ``registry:<name>`` to SKIP here
            if not ctx.policy.available(name):
                why = ctx.policy.problem(name)
                return Outcome("SKIP", f"policy not loaded: {name}.yaml" + (f" ({why.message})" if why else ""),
                               reason="missing-policy")
            continue
        if kind == "registry":
            reporter = ctx.policy.reporters.get(name)
            if reporter != rule.id and not ctx.policy.available(name):
                return registry_skip(ctx.policy, name)
            continue
        if kind == "maybe":
            continue
        if kind == "has":
            skip = _has_skip(name, obj, ctx)
            if skip is not None:
                return skip
            continue
        if kind == "engine":
            if getattr(ctx, name, None) is None:
                return Outcome("SKIP", "the Week-0 verdict was not computed: --select/--ignore checked only some "
                               "rules and the official checker is not installed to decide it", reason="not-computed")
            continue
        if kind == "maybe-loaded" and isinstance(getattr(obj, "points", None), list):  # a curve: at each point
            skip = next(filter(None, (_file_skip(kind, lf) for lf in (_input_file(p, name) for p in obj.points)
                                      if lf is not None)), None)
        else:
            lf = _input_file(obj, name)
            skip = _file_skip(kind, lf) if lf is not None else None
        if skip is not None:
            return skip
    return None


def _has_skip(name: str, obj: Any, ctx: Context) -> Outcome | None:
    """The SKIP a ``has:<name>`` need calls for on this subject, or None."""
    if name == "dir" and getattr(obj, "dir_error", None) is not None:
        return Outcome("SKIP", f"input not loaded: {obj.rel}/ ({obj.dir_error.message})", reason="input-not-loaded")
    if name == "src" and obj.src_state == "error":
        return Outcome("SKIP", f"input not loaded: src/ ({obj.dir_problems['src'].message})", reason="input-not-loaded")
    if name == "points" and not obj.points:
        return Outcome("SKIP", "the curve has no point directories (see point-dirs)", reason="missing-input")
    if name in ("events", "events-log"):  # the events audit the engine ran before the rules
        if not ctx.opt("events", True):
            return Outcome("SKIP", "events audit disabled by --no-events", reason="disabled")
        audit = obj.events_audit
        if audit is None:
            return Outcome("SKIP", f"input missing: {obj.rel}/events.jsonl", reason="missing-input")
        if name == "events" and audit.error is not None:
            return Outcome("SKIP", f"input not loaded: {audit.path} ({audit.error})", reason="input-not-loaded")
    return None


def _file_skip(kind: str, lf: LoadedFile) -> Outcome | None:
    """The SKIP a need of this kind calls for on this file, or None."""
    if not lf.exists:
        return None if kind in _WHEN_PRESENT else Outcome("SKIP", f"input missing: {lf.rel}", reason="missing-input")
    if lf.error is not None and not (kind in _READ and lf.error.code == "parse-error"):
        return Outcome("SKIP", f"input not loaded: {lf.rel} ({lf.error.message})", reason="input-not-loaded")
    if kind in _READ or kind == "maybe-loaded":  # read (perhaps not parsed: the rule reports a parse error)
        return None
    if kind == "loaded":  # parsed, possibly invalid: the rule reads what is there
        if not isinstance(lf.data, dict):
            return Outcome("SKIP", f"input not valid: {lf.rel} is not a mapping", reason="input-not-valid")
        return None
    fk = FILE_KINDS.get(lf.kind)
    if fk is not None and fk.valid_to_read and lf.model is None:
        return Outcome("SKIP", f"input not valid: {lf.rel}", reason="input-not-valid")
    return None


def registry_skip(policy: Policy, name: str) -> Outcome:
    """The SKIP of a rule reading a registry that cannot be used: it names the rule reporting the file."""
    return Outcome("SKIP", policy.unusable(name), reason=REGISTRY_UNUSABLE)


_READ = ("read", "maybe-read")
_WHEN_PRESENT = ("maybe-read", "maybe-loaded")


_STATUS = {s.value: s for s in Status}


def _to_finding(rule: Rule, subject: Subject, out: Outcome) -> Finding:
    status = _STATUS.get(out.status) or Status(out.status)
    loc = None
    f = out.file
    if isinstance(f, LoadedFile):
        line, col = f.position(out.path) if f.exists else (None, None)
        loc = Location(f.rel, line, col, tuple(out.path))
    elif isinstance(f, Location):  # a position the rule knows exactly (a loader refusal's line:col)
        loc = f
    elif isinstance(f, str) and f:
        loc = Location(f, None, None, tuple(out.path))
    fix = out.fix
    if status is Status.FAIL and fix is None:
        fix = rule.section("How to fix") or None
    if out.subject is not None:
        subject = out.subject
    if out.entry:
        subject = Subject(subject.submission, subject.system, subject.model, subject.point, out.entry)
    edits = _resolve_edits(out.edits) if out.edits and status is Status.FAIL else ()
    return Finding(
        rule_id=rule.id,
        status=status,
        severity=out.severity or rule.severity,
        subject=subject,
        message=out.message,
        family=rule.family,
        title=rule.title,
        clause=rule.clause,
        location=loc,
        observed=out.observed,
        expected=out.expected,
        fix=fix if status is Status.FAIL else None,
        reason=out.reason,
        extra=out.extra,
        edits=edits,
        parts=_parts(out.parts) if out.parts and status is Status.FAIL else (),
    )


def _parts(parts) -> tuple:
    """A rule's problem parts as strings: a data path as ``checker.core.fingerprint.path_key`` spells it, a name
    as it is; in order, each once."""
    from checker.core.fingerprint import path_key

    out = (path_key(p) if isinstance(p, (tuple, list)) else str(p) for p in parts)
    return tuple(dict.fromkeys(out))


def _resolve_edits(edits) -> tuple:
    """A rule's Edits as exact text edits (``checker.fix.locate``); all or none, so a finding's fix is whole.
    A value edit at an alias is covered when its anchor gets the same value: the anchor's edit then also
    names the alias's path (the edited file must read the new value there too)."""
    import msgspec

    from checker.core.fixes import fixable_file
    from checker.fix.locate import alias_target, resolve, same

    out: list = []
    covered: list = []
    for e in edits:
        if not fixable_file(e.file):
            return ()
        target = alias_target(e.file, e.path) if e.part == "value" else None
        if target is not None:
            covered.append((target, e))
            continue
        te = resolve(e.file, e)
        if te is None:
            return ()
        out.append(te)
    for target, e in covered:
        hit = next((i for i, te in enumerate(out) if te.part == "value" and te.path == tuple(target)
                    and te.abspath == e.file.abspath and same(te.value, e.value)), None)
        if hit is None:
            return ()
        out[hit] = msgspec.structs.replace(out[hit], also=out[hit].also + (tuple(e.path),))
    return tuple(out)


def evaluate(rule: Rule, obj: Any, ctx: Context, selected: bool = True) -> list[Finding]:
    subject = obj.subject
    if not selected:
        return [_to_finding(rule, subject, Outcome("SKIP", "deselected by --select/--ignore", reason="deselected"))]
    pre = _check_needs(rule, obj, ctx)
    if pre is not None:
        return [_to_finding(rule, subject, pre)]
    try:
        result = rule.func(obj, ctx)
        if type(result) is Outcome:  # the usual case: one outcome, one finding
            return [_to_finding(rule, subject, result)]
        outs = result if isinstance(result, list) else [result]
        if not outs or not all(isinstance(o, Outcome) for o in outs):
            raise TypeError(f"rule returned {type(result).__name__}, not an Outcome")
        findings = [_to_finding(rule, subject, o) for o in outs]
        keys = [f.subject for f in findings]
        if len(set(keys)) != len(keys):
            raise ValueError("rule returned two findings for one subject")
        return findings
    except Skipped as exc:  # the rule could not judge: its SKIP, with the reason it gave
        return [_to_finding(rule, subject, exc.outcome)]
    except PolicyUnavailable as exc:
        return [_to_finding(rule, subject, Outcome("SKIP", f"policy not loaded: {exc.name}.yaml ({exc.why})",
                                                   reason="missing-policy"))]
    except Exception as exc:  # isolation: one broken rule never stops the run
        text = str(exc).splitlines()[0][:200] if str(exc) else ""
        return [_to_finding(rule, subject, Outcome(
            "FAIL", f"internal error while evaluating this rule: {type(exc).__name__}: {text}",
            fix="Report this to the endpoints-checker maintainers; the rest of the report is unaffected.",
            reason="rule-error"))]


def unit_rules(rules) -> list:
    """Rules one submission or run folder evaluates first: all but the cohort scope, the rules that run
    after waivers are applied (those run once, over the whole invocation) and the rules fed the Week-0
    verdict (``engine_fed``: they run once it is known)."""
    return [r for r in rules if r.scope != "cohort" and not r.after_waivers and not engine_fed(r)]


def engine_fed(rule: Rule) -> bool:
    """Does the rule read what the engine computes after the other rules ran (``engine:`` needs)?"""
    return any(kind == "engine" for kind, _n in _split_needs(rule))


def run_rules(rules: Iterable[Rule], pkg: Package, ctx: Context, select: list[str] | None = None,
              ignore: list[str] | None = None, sort: bool = True) -> list[Finding]:
    """Every rule over every subject of its scope, in report order (``sort=False``: the caller sorts the
    whole report once anyway)."""
    findings: list[Finding] = []
    subjects: dict[str, list] = {}  # the package does not change while its rules run: one list per scope
    for rule in rules:
        selected = is_selected(rule, select, ignore)
        objs = subjects.get(rule.scope)
        if objs is None:
            objs = subjects[rule.scope] = subjects_for(rule.scope, pkg)
        for obj in objs:
            findings.extend(evaluate(rule, obj, ctx, selected))
    if sort:
        findings.sort(key=Finding.sort_key)
    return findings


__all__ = ["Context", "run_rules", "evaluate", "subjects_for", "Severity"]
