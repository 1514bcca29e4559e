"""The whole check as one pipeline: discover, evaluate (one package, or a cohort of units in
worker processes), apply waivers, run the waiver rules, compare with a baseline, build the Report.

One unit (a single submission or run folder) runs exactly as before: one Package, every rule.
Two or more units run in cohort mode (``checker.engine.cohort_units``): each unit alone, then the package-level
rules once over the whole plan, then the cohort-scope rules over the units' digests. Serial
(``jobs=1``) and parallel runs go through the same code and produce byte-identical reports, whatever
executor (``checker.engine.executors``: local processes or a Dask cluster) ran the units.
"""
from __future__ import annotations

from operator import attrgetter
from typing import Any

import msgspec

from checker.load import mirror
from checker.load.discovery import discover
from checker.load.layout import Options
from checker.load.reader import DISK
from checker.core.findings import Finding, Status, Subject
from checker.core.spool import TextSpool
from checker.engine.policy import load_policy
from checker.engine.catalogue import is_selected, rules_for
from checker.engine import causes
from checker.engine.report import Report
from checker.engine.config import RunConfig
from checker.engine.evaluate import Context, evaluate, run_rules, unit_rules
from checker.engine.run_folders import prepare_run_folders
from checker.engine.executors import LocalExecutor, make_executor

COHORT_SECTION_VERSION = "1.0"
#: how a worker reports a URL or archive it refused to mirror (an input problem, not an internal error)
MIRROR_REFUSAL = "internal error: MirrorError: "


class Evaluated(msgspec.Struct):
    """What discovery and evaluation hand to the rest of the pipeline (``_evaluate``)."""

    package: Any  #: the Package checked (a cohort's plan)
    ctx: Context
    findings: list
    cohort: Any = None  #: a cohort's (units, digests); None for one unit
    bundle_section: Any = None  #: the report's bundle section when run folders were assembled
    encoded: dict = msgspec.field(default_factory=dict)  #: id(first finding) -> (a unit's findings, their JSON text)
    predictions: dict = msgspec.field(default_factory=dict)  #: submission name -> its Week0


def run_check(paths: list[str], config: RunConfig | None = None, **kw: Any) -> Report:
    """``check`` with the RunConfig given whole or as keyword arguments (``RunConfig.of``)."""
    return check(paths, config if config is not None else RunConfig.of(**kw))


def check(paths: list[str], config: RunConfig) -> Report:
    """Discover, evaluate (one package, or a cohort of units), apply waivers, compare, build the Report."""
    select, ignore = list(config.select) or None, list(config.ignore) or None
    fail_on = config.fail_on
    rules = rules_for(select, ignore)  # with --select, only the selected families are imported
    policy = load_policy(config.policy_dir, config.policy_overrides, config.reads)
    ws = base = None
    if config.waivers is not None:
        from checker.engine.waivers import load_waivers

        ws = load_waivers(config.waivers, config.today, config.waiver_expiry_warning)
    if config.baseline is not None:
        from checker.engine.baseline import load_baseline

        base = load_baseline(config.baseline)
    opts = dict(config.options)
    from checker.engine.official import spec_for

    official = spec_for(config)  # --week0 official without the official: a usage error (a ValueError) first
    executor = make_executor(config)  # an unusable executor is a usage error before any work
    try:
        ev = _evaluate(paths, config, rules, policy, opts, executor, select, ignore, official)
    finally:
        executor.close()
        mirror.release_all()
    pkg, ctx, findings, encoded = ev.package, ev.ctx, ev.findings, ev.encoded
    if config.per_path_ignores:
        from checker.engine.path_ignores import apply as ignore_at_paths

        findings = ignore_at_paths(findings, config.per_path_ignores)
    if ws is not None:
        from checker.engine.waivers import apply_waivers, diagnose

        findings = apply_waivers(findings, ws)
        diagnose(ws, rules)
    ctx.waivers = ws
    findings += run_rules([r for r in rules if r.after_waivers], pkg, ctx, select=select, ignore=ignore)
    findings.sort(key=Finding.sort_key)
    baseline_section = None
    if base is not None:
        from checker.engine.baseline import mark

        findings, baseline_section = mark(findings, base, rules)
    findings = causes.link(findings, rules, causes.aliases_of(pkg))  # one problem line per root cause
    nothing = not pkg.submissions and not pkg.run_folders and getattr(pkg, "plan", None) is None
    report = Report(findings=findings, rules=rules, paths=list(pkg.paths), policy_edition=policy.edition,
                    policy_version=policy.version, fail_on=fail_on, package=pkg,
                    input_error=bool(pkg.missing_paths) or nothing, policy_overrides=dict(policy.overrides),
                    count_waived=ws is not None, gate_new_only=config.fail_on_new, context=ctx,
                    week0_by_submission=ev.predictions, docs_url=config.docs_url)
    if encoded:  # a unit's findings keep their encoded text while none is baselined (the renderer checks
        # that the block's very findings are still consecutive in the report: a waived one is a new object)
        marked = attrgetter("baseline")
        report.json_blocks = {k: b for k, b in encoded.items() if base is None or not any(map(marked, b[0]))}
    if ws is not None:
        report.sections["waivers"] = _waiver_section(ws)
    if baseline_section is not None:
        report.sections["baseline"] = baseline_section
    if ev.cohort is not None:
        report._tally = _cohort_tally(report, *ev.cohort)
        report.sections["cohort"] = _cohort_section(report, *ev.cohort)
    if ev.bundle_section is not None:
        report.sections["bundle"] = ev.bundle_section
    return report


def _evaluate(paths, config, rules, policy, opts, executor, select, ignore, official=None) -> Evaluated:
    """Discover and evaluate: one package in-process, or a cohort of units on the executor."""
    max_bytes, exclude = config.max_bytes, config.exclude
    events = bool(opts.get("events", True))
    plan = discover(paths, Options(max_bytes=max_bytes, shallow=True, exclude=exclude, events=events,
                                   reads=config.reads or DISK))
    assembling = False
    if plan.run_folders:  # only run folders are ever assembled: the assembly code is imported for them alone
        from checker.engine import assemble

        assembling = assemble.wanted(plan, config)  # run folders checked as the bundle they become
    units = []
    if len(plan.submissions) + len(plan.run_folders) > 1 and not assembling:  # cohort machinery when needed
        from checker.engine import cohort_units as co

        units = co.plan_units(plan)
    if official is not None and plan.submissions and (not units or (config.jobs <= 1 and config.executor == "local")):
        from checker.engine.official.client import child_for

        child_for(official)  # this process checks them: it imports the official while we load and check
    encoded: dict = {}  # id(first finding) -> (a unit's own findings, their worker-encoded JSON text)
    if not units:
        return _evaluate_one(paths, config, rules, policy, opts, executor, select, ignore, assembling, official)
    ctx = Context(package=plan, policy=policy, options=opts)
    settings = co.UnitSettings(config.policy_dir, tuple(sorted(config.policy_overrides.items())),
                               tuple(select or ()), tuple(ignore or ()), tuple(sorted(opts.items())),
                               max_bytes, config.keep_packages, config.prerender_json, exclude, official,
                               overlay=tuple(sorted(config.reads.overlay.items())) if config.reads else ())
    policy.load_all()  # once here, not once per forked worker
    co.share_state(settings, rules, policy)  # inherited by forked workers
    findings, cohort_state = _run_cohort(rules, units, settings, ctx, config.jobs, config.progress, select, ignore,
                                         config.timeout, encoded, executor)
    return Evaluated(plan, ctx, findings, cohort=cohort_state, encoded=encoded)


def _evaluate_one(paths, config, rules, policy, opts, executor, select, ignore, assembling, official=None
                  ) -> Evaluated:
    """One package (or the bundle its run folders become): every rule, in this process."""
    max_bytes, exclude = config.max_bytes, config.exclude
    reads = config.reads or DISK
    pkg = discover(paths, Options(max_bytes=max_bytes, exclude=exclude, events=bool(opts.get("events", True)),
                                  reads=reads))
    ctx = Context(package=pkg, policy=policy, options=opts)
    bundle_section = None
    staged = None
    if assembling and pkg.run_folders:
        from checker.engine import assemble

        staged = assemble.build_view(pkg, paths, max_bytes, exclude, reads)
    from checker.engine import week0

    pending = None
    try:
        pending = week0.begin(official, pkg.submissions, config.policy_overrides)  # runs beside our rules
        if pkg.run_folders:
            prepare_run_folders(pkg, ctx.options, max_bytes, config.audit_jobs, config.progress,
                                executor=executor, timeout=config.timeout, reads=reads)
        findings = run_rules(unit_rules(rules), pkg, ctx, select=select, ignore=ignore, sort=False)  # sorted in check()
        # the Week-0 verdict and its explanations (before findings are relocated)
        predictions, fed = week0.attach(pkg, ctx, findings, rules, select, ignore, pending)
        findings += fed
        pending = None
        if staged is not None:
            findings = staged.relocate(findings)
            staged.publish(pkg.submissions[0])
            written = None
            if config.write_bundle:
                assemble.write_bundle(staged, config.write_bundle, paths)
                written = config.write_bundle
            bundle_section = assemble.section(staged, written)
    finally:
        if pending is not None:
            pending.abandon()
        if staged is not None:
            staged.cleanup()
    return Evaluated(pkg, ctx, findings, bundle_section=bundle_section, predictions=predictions)


def _run_cohort(rules, units, settings, ctx, jobs, progress, select, ignore, timeout=0, encoded=None,
                executor=None):
    from checker.engine import cohort_units as co
    from checker.engine.progress import Progress
    from checker.engine.tally import owns

    executor = executor or LocalExecutor(jobs)
    bar = Progress(len(units), "checking submissions", enabled=progress)
    spool = TextSpool() if settings.prerender else None  # the units' encoded findings wait on disk

    def audited(_i, ok, res):
        if ok:
            bar.add_bytes(res.bytes_read)
            if spool is not None and res.block is not None:
                res.block = spool.add(res.block)

    try:
        results = executor.run_units(co.check_unit, [(u, settings) for u in units], names=[u.rel for u in units],
                                     on_done=bar.advance, on_result=audited, timeout=timeout,
                                     setup=(co.install_state, (settings.key, ctx.policy)))
    finally:
        bar.close()
    scope = {r.id: r.scope for r in rules}
    plan = ctx.package
    shell = run_rules([r for r in unit_rules(rules) if r.scope == "package"], plan, ctx, select=select,
                      ignore=ignore)
    findings: list[Finding] = []
    package_level: dict[str, list[Finding]] = {}
    for f in shell:
        package_level.setdefault(f.rule_id, []).append(f)
    digests = []
    for unit, (ok, res) in zip(units, results):
        if not ok:
            digests.append(co.failed_unit_digest(unit, res.replace(MIRROR_REFUSAL, "input refused: ")))
            continue
        digests.append(res.digest)
        own = [f for f in res.findings if scope.get(f.rule_id) != "package"]
        findings += own
        if len(own) < len(res.findings):
            for f in res.findings:
                if scope.get(f.rule_id) == "package" and (owns(unit, f.subject) or f.status is Status.FAIL):
                    package_level.setdefault(f.rule_id, []).append(f)
        # the worker's text is of the findings it took for the unit's own: the same ones when as many
        if res.block is not None and encoded is not None and own and len(own) == res.block_size:
            encoded[id(own[0])] = (own, res.block)
        if res.node is not None:
            _replace_stub(plan, unit, res.node)
    for rid in sorted(package_level):
        findings.extend(_merge_package_rule(package_level[rid]))
    ctx.cohort_units = digests
    for rule in rules:
        if rule.scope == "cohort":
            selected = is_selected(rule, select, ignore)
            findings.extend(evaluate(rule, plan, ctx, selected))
    return findings, (units, digests)


def _replace_stub(plan, unit, node) -> None:
    lst = plan.submissions if unit.kind == "submission" else plan.run_folders
    for i, stub in enumerate(lst):
        if stub.name == unit.label:
            lst[i] = node
            return


def _merge_package_rule(fs: list[Finding]) -> list[Finding]:
    """One package-scope rule's findings from the plan and every unit, as one run would give them."""
    by_subject: dict[Subject, Finding] = {}
    for f in fs:
        old = by_subject.get(f.subject)
        if old is None or (f.status is Status.FAIL and old.status is not Status.FAIL):
            by_subject[f.subject] = f
    out = list(by_subject.values())
    if any(f.status is Status.FAIL for f in out):
        out = [f for f in out if f.status is Status.FAIL or f.subject != Subject()]
    return out


def _cohort_tally(report: Report, units, digests):
    """The report's tally with one unit per submission and run folder of the cohort, each with its own Week-0."""
    from checker.engine.tally import Tally, Unit

    return Tally(report.findings, [Unit(u.kind, u.label, d.get("week0"), d.get("crashed") is None)
                                   for u, d in zip(units, digests)], report.fail_on, report.gate_new_only)


def _cohort_section(report: Report, units, digests) -> dict[str, Any]:
    from checker.engine import cohort_units as co
    from checker.engine.tally import cross_submission

    tally = report.tally
    rows = [co.unit_summary(u, d, tally.units[u.label], report.count_waived) for u, d in zip(units, digests)]
    rows.sort(key=lambda r: (r["kind"], r["label"]))
    verdicts = {"PASSED": 0, "FAILED": 0}
    for r in rows:
        verdicts[r["verdict"]] += 1
    default_sev = {r.id: r.severity.value for r in report.rules}
    by_rule = {}
    for rid, c in tally.by_rule.items():
        sev = default_sev.get(rid) or min(f.severity.value for f in report.findings if f.rule_id == rid)
        by_rule[rid] = {"severity": sev, "PASS": c.passed, "FAIL": c.failed, "SKIP": c.skipped,
                        "fail_by_severity": {k: n for k, n in sorted(c.fail_by_severity().items()) if n}}
    return {
        "version": COHORT_SECTION_VERSION,
        "submissions": rows,
        "verdicts": verdicts,
        "organisations": sorted({r["org"] for r in rows if r["org"]}),
        "counts_by_rule": by_rule,
        "fail_by_severity": tally.counts.fail_by_severity(),
        "cross_submission_findings": [f.as_dict() for f in cross_submission(report.findings, report.rules)],
    }


def _waiver_section(ws) -> dict[str, Any]:
    entries = []
    for i, w in enumerate(ws.waivers):
        e = {"rule": w.rule, "subject": w.subject, "reason": w.reason, "approver": w.approver,
             "expires": w.expires.isoformat(), "expired": ws.expired(i), "matched": ws.matched[i]}
        if not ws.expired(i):
            e["days_left"] = ws.days_left(i)
            e["expiring"] = ws.expiring(i)
        if ws.problems[i] is not None:
            e["problem"] = ws.problems[i][0]
        entries.append(e)
    return {"file": ws.rel, "today": ws.today.isoformat(), "warn_days": ws.warn_days, "entries": entries}
