"""The whole check as one pipeline: discover, evaluate (one package, or a cohort of units in
worker processes), apply waivers, run the waiver rules, compare with a baseline, build the Report.

One unit (a single submission or run folder) runs exactly as before: one Package, every rule.
Two or more units run in cohort mode (``checker.engine.batches``): each unit alone, then the package-level
rules once over the whole plan, then the cohort-scope rules over the units' digests. Serial
(``jobs=1``) and parallel runs go through the same code and produce byte-identical reports.
"""
from __future__ import annotations

from typing import Any

from checker.load.discovery import Options, discover
from checker.core.findings import FAIL_ON_RANK, Finding, Status, Subject
from checker.engine.policy import load_policy
from checker.core.rule import all_rules, select_matches
from checker.engine.report import Report
from checker.engine.evaluate import Context, evaluate, run_rules, unit_rules

COHORT_SECTION_VERSION = "1.0"


def check(paths: list[str], select=None, ignore=None, fail_on: str = "flag", policy_dir=None,
          max_bytes: int = 8 * 1024 * 1024, policy_overrides=None, options: dict | None = None, *,
          jobs: int = 1, waivers=None, baseline=None, fail_on_new: bool = False, today=None,
          progress: bool = False, keep_packages: bool = True, timeout: int = 600,
          prerender_json: bool = False) -> Report:
    rules = all_rules()  # registers policy models too
    policy = load_policy(policy_dir, policy_overrides)
    ws = base = None
    if waivers is not None:
        from checker.engine.waivers import load_waivers

        ws = load_waivers(waivers, today)
    if baseline is not None:
        from checker.engine.baseline import load_baseline

        base = load_baseline(baseline)
    opts = dict(options or {})
    plan = discover(paths, Options(max_bytes=max_bytes, shallow=True))
    units = []
    if len(plan.submissions) + len(plan.run_folders) > 1:  # cohort machinery only when it is needed
        from checker.engine import batches as co

        units = co.plan_units(plan)
    cohort_state = None
    encoded: dict = {}  # id(finding) -> (finding, worker-encoded JSON text); holding f keeps its id unique
    if not units:
        pkg = discover(paths, Options(max_bytes=max_bytes))
        ctx = Context(package=pkg, policy=policy, options=opts)
        if pkg.run_folders:
            from checker.load.run_folder import prepare_run_folders

            prepare_run_folders(pkg, ctx.options, max_bytes)
        findings = run_rules(unit_rules(rules), pkg, ctx, select=select, ignore=ignore)
    else:
        pkg = plan
        ctx = Context(package=pkg, policy=policy, options=opts)
        settings = co.UnitSettings(policy_dir, tuple(sorted((policy_overrides or {}).items())),
                                   tuple(select or ()), tuple(ignore or ()), tuple(sorted(opts.items())),
                                   max_bytes, keep_packages, prerender_json)
        co._WORKER_STATE[settings.key] = (rules, policy)  # inherited by forked workers
        findings, cohort_state = _run_cohort(rules, units, settings, ctx, jobs, progress, select, ignore, timeout,
                                             encoded)
    if ws is not None:
        from checker.engine.waivers import apply_waivers

        findings = apply_waivers(findings, ws)
    ctx.options["waivers"] = ws
    findings += run_rules([r for r in rules if r.family == "waivers"], pkg, ctx, select=select, ignore=ignore)
    findings.sort(key=Finding.sort_key)
    baseline_section = None
    if base is not None:
        from checker.engine.baseline import mark

        findings, baseline_section = mark(findings, base)
    nothing = not pkg.submissions and not pkg.run_folders
    report = Report(findings=findings, rules=rules, paths=list(pkg.paths), policy_edition=policy.edition,
                    policy_version=policy.version, fail_on=fail_on, package=pkg,
                    input_error=bool(pkg.missing_paths) or nothing, policy_overrides=dict(policy.overrides),
                    count_waived=ws is not None, gate_new_only=fail_on_new, context=ctx)
    if encoded:  # unchanged worker findings keep their encoded text; waived/baselined ones are re-encoded
        report.json_cache = {id(f): encoded[id(f)] for f in findings
                             if id(f) in encoded and encoded[id(f)][0] is f and f.baseline is None}
    if ws is not None:
        report.sections["waivers"] = _waiver_section(ws)
    if baseline_section is not None:
        report.sections["baseline"] = baseline_section
    if cohort_state is not None:
        report.sections["cohort"] = _cohort_section(report, *cohort_state)
    return report


def _run_cohort(rules, units, settings, ctx, jobs, progress, select, ignore, timeout=0, encoded=None):
    from checker.engine import batches as co
    from checker.engine.pool import Progress, run_isolated

    bar = Progress(len(units), "checking submissions", progress)
    try:
        results = run_isolated(co.check_unit, [(u, settings) for u in units], jobs, on_done=bar.advance,
                               timeout=timeout)
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
            digests.append(co.failed_unit_digest(unit, res))
            continue
        digests.append(res.digest)
        if res.texts is not None and encoded is not None:
            encoded.update(zip(map(id, res.findings), zip(res.findings, res.texts)))
        for f in res.findings:
            if scope.get(f.rule_id) != "package":
                findings.append(f)
            elif co.owns(unit, f.subject) or f.status is Status.FAIL:
                package_level.setdefault(f.rule_id, []).append(f)
        if res.node is not None:
            _replace_stub(plan, unit, res.node)
    for rid in sorted(package_level):
        findings.extend(_merge_package_rule(package_level[rid]))
    ctx.options["cohort_units"] = digests
    for rule in rules:
        if rule.scope == "cohort":
            selected = (not select or select_matches(rule, select)) and not (ignore and select_matches(rule, ignore))
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


class _Gate:
    """Per-unit verdicts with the report's own threshold and --fail-on-new gating."""

    def __init__(self, report: Report):
        self.threshold = FAIL_ON_RANK[report.fail_on]
        self.new_only = report.gate_new_only
        self.count_waived = report.count_waived

    def failing_of(self, findings):
        return [f for f in findings if f.status is Status.FAIL and f.severity.rank >= self.threshold
                and (not self.new_only or f.baseline == "new")]


def _cohort_section(report: Report, units, digests) -> dict[str, Any]:
    from checker.engine import batches as co

    gate = _Gate(report)
    own: dict[int, list[Finding]] = {i: [] for i in range(len(units))}
    index = {(u.kind == "submission", u.label): i for i, u in enumerate(units)}
    cross = []
    for f in report.findings:
        if f.family == "cohort":
            cross.append(f.as_dict())
        s = f.subject
        i = index.get((True, s.submission)) if s.submission else (index.get((False, s.point)) if not s.model else None)
        if i is not None:
            own[i].append(f)
    rows = [co.unit_summary(u, d, own[i], gate) for i, (u, d) in enumerate(zip(units, digests))]
    rows.sort(key=lambda r: (r["kind"], r["label"]))
    verdicts = {"PASSED": 0, "FAILED": 0}
    for r in rows:
        verdicts[r["verdict"]] += 1
    from collections import Counter

    default_sev = {r.id: r.severity.value for r in report.rules}
    by_rule: dict[str, dict] = {}
    counted = Counter((f.rule_id, f.status, f.severity) for f in report.findings)
    for rid, status, sev, n in sorted((r, st.value, sv.value, n) for (r, st, sv), n in counted.items()):
        e = by_rule.setdefault(rid, {"severity": default_sev.get(rid, sev), "PASS": 0, "FAIL": 0, "SKIP": 0,
                                     "fail_by_severity": {}})
        e[status] += n
        if status == "FAIL":
            e["fail_by_severity"][sev] = e["fail_by_severity"].get(sev, 0) + n
    return {
        "version": COHORT_SECTION_VERSION,
        "submissions": rows,
        "verdicts": verdicts,
        "organisations": sorted({r["org"] for r in rows if r["org"]}),
        "counts_by_rule": {k: by_rule[k] for k in sorted(by_rule)},
        "fail_by_severity": report.counts()["fail_by_severity"],
        "cross_submission_findings": cross,
    }


def _waiver_section(ws) -> dict[str, Any]:
    return {
        "file": ws.rel,
        "today": ws.today.isoformat(),
        "entries": [{"rule": w.rule, "subject": w.subject, "reason": w.reason, "approver": w.approver,
                     "expires": w.expires.isoformat(), "expired": ws.expired(i), "matched": ws.matched[i]}
                    for i, w in enumerate(ws.waivers)],
    }
