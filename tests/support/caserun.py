"""Run one case (``rules/<family>/cases/<rule-id>/<case>.yaml``) and check its expectations.

A case tests its rule: by default it runs that rule alone (``check --select <rule-id>``, in-process) and
its expectations name only that rule, whose FAIL findings must be exactly the FAIL expectations. A case
whose point is how rules interact (a consequence another rule reports, a rule standing aside because
another reports the cause, the waiver rules reading other rules' findings) says so::

    scope: package            # every rule runs, as `check` runs them (with the case's `run` options)
    reason: the registry rules SKIP naming seed-set-registry, which reports the broken file

and may name any rule; the FAIL findings of every rule it names are exactly its FAIL expectations
(``fails_exactly: all``: of every rule in the catalogue; ``fails_exactly: false``: no exactness). So a
new rule never changes what an existing case asserts.
"""
from __future__ import annotations

import os

from casefixtures import REPO, WEEK0_ECHO, base_dir, case_rel, expand, materialise, restore_perms

SCOPES = ("rule", "package")


def case_rule(path: str) -> str:
    """The rule a case file tests: its directory's name (``<rule-id>/<case>.yaml``)."""
    return case_rel(path).split(os.sep)[0]


def case_scope(case: dict) -> str:
    return case.get("scope", "rule")


def format_problems(case: dict, rule_id: str) -> list[str]:
    """What is wrong with a case file's form (not with the findings): an unknown scope, a package case
    without its reason, a rule case naming another rule or choosing the rules it runs."""
    scope = case_scope(case)
    if scope not in SCOPES:
        return [f"scope {scope!r} is not one of {', '.join(SCOPES)}"]
    out = []
    if not case.get("expect"):
        out.append("no expectations")
    if scope == "package":
        if not str(case.get("reason") or "").strip():
            out.append("a `scope: package` case says why in `reason`")
        return out
    others = sorted({e["rule"] for e in case.get("expect") or [] if e["rule"] != rule_id})
    if others:
        out.append(f"expectations name {', '.join(others)}: a case runs its own rule {rule_id} "
                   f"(`scope: package` with a `reason` runs every rule)")
    run = case.get("run") or {}
    for key in ("select", "ignore"):
        if key in run:
            out.append(f"run.{key}: a case runs its own rule {rule_id} (`scope: package` runs what `run` selects)")
    if case.get("fails_exactly", True) is not True:
        out.append("fails_exactly: a case's findings of its own rule are exact")
    if "reason" in case:
        out.append("reason: only a `scope: package` case gives one")
    return out


def run_case(case: dict, tmp: str, rule_id: str):
    """Materialise the case under ``tmp`` (a case without patches reads its base where it is) and check it:
    its rule alone, or every rule (``scope: package``)."""
    from checker.engine.pipeline import run_check

    copied = bool(case.get("patch") or case.get("name"))
    path = materialise(case, tmp) if copied else base_dir(case.get("base", "valid"))  # a case that only reads
    run = dict(case.get("run") or {})
    if run.get("policy_overrides"):  # relative override files live under the repository (fixtures/overrides/)
        run["policy_overrides"] = {k: v if os.path.isabs(v) else os.path.join(REPO, v)
                                   for k, v in run["policy_overrides"].items()}
    if case_scope(case) == "rule":
        run["select"] = [rule_id]
    try:
        return run_check([path], **run)
    finally:
        if copied:
            restore_perms(path)


def subject_label(finding) -> str:
    return finding.subject.label()


def matches(finding, exp: dict) -> bool:
    if finding.rule_id != exp["rule"] or finding.status.value != exp["status"]:
        return False
    if "subject" in exp and subject_label(finding) != expand(exp["subject"]):
        return False
    if "severity" in exp and finding.severity.value != exp["severity"]:
        return False
    if "message" in exp and expand(exp["message"]) not in finding.message:
        return False
    if "line" in exp and (finding.location is None or finding.location.line != exp["line"]):
        return False
    if "fixes" in exp and [e.new for e in finding.edits] != list(exp["fixes"]):
        return False  # the texts the automatic fix writes, in order ([]: no automatic fix)
    return True


def exact_rules(case: dict, rule_id: str) -> set[str] | None:
    """The rules whose FAIL findings must be exactly the case's FAIL expectations (None: every rule)."""
    if case_scope(case) == "rule":
        return {rule_id}
    exact = case.get("fails_exactly", True)
    if exact == "all":
        return None
    if exact is False:
        return set()
    return {e["rule"] for e in case.get("expect") or []}


def check_case(case: dict, report, rule_id: str) -> list[str]:
    """The problems of a report against a case's expectations (empty when it meets them)."""
    problems = format_problems(case, rule_id)
    expect = case.get("expect") or []
    for exp in expect:
        hits = [f for f in report.findings if matches(f, exp)]
        if len(hits) != 1:
            near = [f"{f.rule_id} {f.status.value} {subject_label(f)}: {f.message}" for f in report.findings
                    if f.rule_id == exp["rule"]][:6]
            problems.append(f"expected exactly one {exp}, found {len(hits)}; findings of that rule: {near}")
    exact = exact_rules(case, rule_id)
    allowed = [e for e in expect if e["status"] == "FAIL"]
    # week0-check echoes the Week-0 verdict's unexplained ERRORs (tests/conformance holds that): exact for
    # every rule means every rule but it, unless the case names it
    echo = {WEEK0_ECHO} - {e["rule"] for e in expect}
    for f in report.findings:
        if f.status.value == "FAIL" and (exact is None and f.rule_id not in echo or exact and f.rule_id in exact) \
                and not any(matches(f, e) for e in allowed):
            problems.append(f"unexpected FAIL {f.rule_id} {subject_label(f)}: {f.message}")
    return problems
