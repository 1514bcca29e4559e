"""Severity levels and verdicts in words a person knows: errors, flags, warnings (never "FAIL").

Every human-facing output (text, Markdown, the GitHub log line, the HTML pages) names and counts
findings through this one module, so a warn-level finding reads as a warning everywhere and is
never counted as a failure. The big badge of a page follows the Week-0 prediction (what the official automated
check decides), not the ``--fail-on`` exit status, which is stated separately. The JSON, SARIF and
JUnit reports keep the rule statuses and severities as they are.
"""
from __future__ import annotations

from checker.core.findings import Finding, Severity, Status

#: severity -> the level word printed in front of a finding
LEVEL_WORD = {Severity.REJECT: "error", Severity.REJECT_POINTS: "error", Severity.FLAG: "flag",
              Severity.WARN: "warning"}
#: rule severity value -> the word a FAIL of it is called on the page (one definition: LEVEL_WORD)
LEVEL_OF = {sev.value: word for sev, word in LEVEL_WORD.items()}
LEVELS = ("error", "flag", "warning")
#: words whose plural is not the word plus "s"
PLURAL = {"skipped": "skipped", "passed": "passed"}
#: what each level means, for the page's key and tooltips
MEANING = {
    "error": "a reject or reject-points rule fails: the rules reject the submission or its points",
    "flag": "a reviewer looks at it; the rules still accept",
    "warning": "advice: nothing is rejected or flagged",
}


def plural(n: int, word: str) -> str:
    """``1 error``, ``3 warnings``, ``5 skipped``."""
    return f"{n} {word}" if n == 1 else f"{n} {PLURAL.get(word, word + 's')}"


def problem_counts(findings) -> dict[str, int]:
    """FAIL findings by severity value, plus ``errors`` (reject and reject-points together)."""
    c = {s.value: 0 for s in Severity}
    for f in findings:
        if f.status is Status.FAIL:
            c[f.severity.value] += 1
    c["errors"] = c["reject"] + c["reject-points"]
    return c


def counts_phrase(findings) -> str:
    """'3 errors (2 reject, 1 reject-points), 1 flag, 2 warnings' or 'no problems'."""
    c = problem_counts(findings)
    if not (c["errors"] or c["flag"] or c["warn"]):
        return "no problems"
    parts = []
    if c["errors"]:
        kinds = ", ".join(f"{c[k]} {k}" for k in ("reject", "reject-points") if c[k])
        parts.append(f"{plural(c['errors'], 'error')} ({kinds})")
    if c["flag"]:
        parts.append(plural(c["flag"], "flag"))
    if c["warn"]:
        parts.append(plural(c["warn"], "warning"))
    return ", ".join(parts)


def checks_phrase(report) -> str:
    """'611 checks passed, 75 skipped (3 waived), 40 not selected'."""
    c = report.counts()["by_status"]
    waived = deselected = 0
    for f in report.findings:
        if f.status is Status.SKIP and f.reason:
            waived += f.reason.startswith("waived")
            deselected += f.reason == "deselected"
    skipped = f"{c['SKIP'] - deselected} skipped" + (f" ({waived} waived)" if report.count_waived else "")
    return f"{plural(c['PASS'], 'check')} passed, {skipped}" + (f", {deselected} not selected" if deselected else "")


def _where(fs) -> str:
    """'accuracy-gate at r20, r64; point-count at H200/llama3_1-8b': rules and where they fail."""
    by_rule: dict[str, list[str]] = {}
    for f in fs:
        s = f.subject
        where = s.point if s.point and s.model else (s.label().split("/", 1)[-1] if s.system else "the submission")
        rule = getattr(f, "rule_id", None) or f.rule  # a Finding, or a Week-0 Hit
        if where not in by_rule.setdefault(rule, []):
            by_rule[rule].append(where)
    parts = []
    for rule, wheres in by_rule.items():
        shown = ", ".join(wheres[:4]) + (f" and {len(wheres) - 4} more" if len(wheres) > 4 else "")
        parts.append(f"{rule} at {shown}")
    return "; ".join(parts)


def official_words(f: Finding) -> tuple:
    """The official checker's own words for the Week-0 ERROR(s) a FAIL of ours explains, which every human
    output prints under the finding (a week0-check finding says them in its message already)."""
    said = f.extra.get("official") if f.extra and f.rule_id != "week0-check" else None
    return tuple(said) if said else ()


def _rejecting(findings) -> list[Finding]:
    return [f for f in findings if f.status is Status.FAIL and f.severity in (Severity.REJECT, Severity.REJECT_POINTS)]


def _no_prediction(report) -> str:
    """Why there is no Week-0 prediction: no submission, or a check of only some rules."""
    if any(f.reason == "deselected" for f in report.findings):
        return "Week-0 automated check: not predicted (--select/--ignore checked only some rules)"
    return "Week-0 automated check: nothing it checks (no submission)"


def week0_who(week0: dict | None) -> str:
    """'Week-0 automated check (endpoints-submission-cli 1.5.3.0)' where the official decided, else
    'Week-0 automated check (predicted)': every human output says which."""
    if week0 is not None and week0.get("source") == "official":
        return f"Week-0 automated check ({week0.get('tool') or 'the official checker'})"
    return "Week-0 automated check (predicted)"


def week0_phrase(report) -> str:
    """What the Week-0 automated check (the official tool) would do, and where the rules differ, in words."""
    cohort = getattr(report, "sections", {}).get("cohort")
    if cohort:
        rows = [r for r in cohort["submissions"] if r.get("week0")]
        if not rows:
            return _no_prediction(report)
        who = week0_who(report.week0)
        hit = [r["label"] for r in rows if r["week0"]["verdict"] != "accept"]
        if not hit:
            return f"{who} would accept every one of {len(rows)}"
        return f"{who} would REJECT {len(hit)} of {len(rows)}: {', '.join(hit)}"
    w = report.week0
    if w is None:
        return _no_prediction(report)
    who = week0_who(w)
    if w["verdict"] == "accept":
        out = f"{who} would accept."
    elif w["verdict"] == "reject-points":
        out = f"{who} would REJECT points: {', '.join(w['points'])} ({', '.join(w['rules'])})."
    else:
        out = f"{who} would REJECT the submission ({', '.join(w['rules'])})."
    rejecting = _rejecting(report.findings)
    rules_only = [f for f in rejecting if f.week0 is False]
    if rules_only:
        out += (f" The rules reject: {_where(rules_only)} (the automated check does not test this; "
                "reviewers can reject for it).")
    both = {f.rule_id for f in rejecting if f.week0}  # once: a hit per point of a large package is common
    official_only = [h for pred in getattr(report, "week0_by_submission", {}).values() for h in pred.hits
                     if h.rule not in both]
    if official_only:
        out += (f" The rules do not reject for: {_where(official_only)} (the automated check rejects it all "
                "the same: see the findings above).")
    return out


def gate_phrase(report) -> str:
    """'FAILED: 2 findings at or above --fail-on flag' / 'PASSED: nothing at or above --fail-on flag'; with
    ``week0`` in the gate, also whether the Week-0 automated check would reject."""
    from checker.core.gate import gates_week0, severity_rank

    if report.fail_on == "never":
        return f"{report.verdict}: --fail-on never (problems never fail the run)"
    parts = []
    if severity_rank(report.fail_on) < 99:
        n = len([f for f in report.failing() if f.severity.rank >= severity_rank(report.fail_on)])
        what = "new findings" if report.gate_new_only else "findings"
        parts.append(f"{n} {what if n != 1 else what[:-1]} at or above --fail-on {report.fail_on.split(',')[0]}"
                     if n else f"nothing at or above --fail-on {report.fail_on.split(',')[0]}")
    if gates_week0(report.fail_on):
        parts.append(f"the {week0_who(report.week0)} would {'REJECT' if report.week0_reject else 'accept'} "
                     "(--fail-on week0)")
    return f"{report.verdict}: {'; '.join(parts)}"


def verdict_line(report) -> str:
    """One line: gate verdict, problems in words, checks, Week-0 verdict, extras (baseline, cohort)."""
    line = (f"{report.verdict} — {counts_phrase(report.findings)} · {checks_phrase(report)}"
            f" · {week0_phrase(report)} · fail-on {report.fail_on}")
    base = getattr(report, "sections", {}).get("baseline")
    if base:
        n = base["counts"]
        line += (f" · baseline: {n['new']} new, {n['unchanged']} unchanged, {n['resolved']} resolved"
                 + (" (only new findings gate)" if getattr(report, "gate_new_only", False) else ""))
    cohort = getattr(report, "sections", {}).get("cohort")
    if cohort:
        v = cohort["verdicts"]
        line += f" · cohort of {len(cohort['submissions'])}: {v['PASSED']} passed, {v['FAILED']} failed"
    return line


def level_of(status: str, severity: str) -> str:
    """error / flag / warning for a FAIL, skipped / passed otherwise."""
    if status == "FAIL":
        return LEVEL_OF.get(severity, "error")
    return "skipped" if status == "SKIP" else "passed"


def level_counts(rows) -> dict[str, int]:
    """Finding rows (dicts with status and severity) -> {error, flag, warning, skipped, passed: n}."""
    out = dict.fromkeys(LEVELS + ("skipped", "passed"), 0)
    for r in rows:
        out[level_of(r["status"], r["severity"])] += 1
    return out


def from_severity_counts(by_status: dict, fail_by_severity: dict) -> dict[str, int]:
    """The same counts from Report.counts() (no finding rows needed)."""
    out = dict.fromkeys(LEVELS, 0)
    for sev, n in fail_by_severity.items():
        out[LEVEL_OF.get(sev, "error")] += n
    out["skipped"], out["passed"] = by_status.get("SKIP", 0), by_status.get("PASS", 0)
    return out


def problems(counts: dict) -> list[tuple[str, str]]:
    """[(level, "2 errors"), ...] for the non-zero failure levels, most severe first."""
    return [(lv, plural(counts[lv], lv)) for lv in LEVELS if counts.get(lv)]


def verdict(counts: dict, week0: dict | None) -> dict:
    """The badge: its class, its words and one sentence saying why; follows the Week-0 prediction and
    says where the rules' errors differ from it."""
    errors = counts.get("error", 0)
    if week0 is not None and week0["verdict"] != "accept":
        key, badge = "reject", "Would be rejected"
        what = f"points {', '.join(week0['points'])}" if week0["verdict"] == "reject-points" else "it"
        why = f"the {week0_who(week0)} rejects {what} ({', '.join(week0['rules'])})"
        if not errors:
            why += "; the rules do not reject"
    elif errors:
        key, badge = "flag", "Accepted at Week 0, the rules reject"
        why = (f"the {week0_who(week0)} accepts it; the rules reject: {plural(errors, 'error')} "
               "(the automated check does not test this; reviewers can reject for it)")
    elif counts.get("flag"):
        key, badge = "flag", "Would be accepted"
        why = f"the {week0_who(week0)} accepts it; {plural(counts['flag'], 'flag')} for a reviewer"
    else:
        key, badge = ("warning" if counts.get("warning") else "pass"), "Would be accepted"
        why = f"the {week0_who(week0)} accepts it"
    if counts.get("warning") and key != "reject":
        why += f", {plural(counts['warning'], 'warning')} (advice)"
    return {"key": key, "badge": badge, "why": why}
