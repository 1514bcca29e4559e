"""Severity levels and verdicts in words a person knows: errors, flags, warnings (never "FAIL").

Every human-facing output (text, Markdown, the GitHub log line, the HTML pages) words the engine's tally
(``checker.engine.tally``: verdicts and counts, computed once) through this one module, so a warn-level finding
reads as a warning everywhere and is never counted as a failure, and a Week-0 verdict the model decided says
"predicted". The big badge of a page follows the Week-0 verdict (what the official automated check decides),
not the ``--fail-on`` exit status, which is stated separately. The JSON, SARIF and JUnit reports keep the rule
statuses and severities as they are.
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


#: a SKIP's reason code (the JSON report's ``reason``) in the words a page shows; a code not listed reads as
#: "skipped" (the finding's own message says why)
SKIP_WHY = {
    "missing-input": "a file it reads is missing",
    "input-not-loaded": "a file it reads could not be read",
    "input-not-valid": "a file it reads is not valid",
    "invalid-input": "a file it reads is not valid",
    "not-applicable": "does not apply here",
    "missing-context": "needs an option or a file beside the run",
    "not-recorded": "the files do not record what it compares",
    "not-in-config": "the client config does not record it",
    "not-in-policy": "the policy has no entry for it",
    "no-thresholds": "the policy has no thresholds for it",
    "missing-policy": "a policy file is missing",
    "registry-unusable": "the seed-set or drafter registry cannot be used",
    "no-cohort-in-registry": "the registry names no cohort for it",
    "unknown-seed-set": "the seed set is not in the registry",
    "unknown-dataset": "the dataset is unknown",
    "interrupted-run": "the run was interrupted",
    "log-cut-short": "the event log stops early",
    "misspelt-key": "a key it reads is misspelt",
    "not-computed": "the Week-0 verdict was not computed",
    "deselected": "not selected by --select or --ignore",
    "disabled": "turned off by an option",
    "rule-error": "the rule failed",
}


def skip_why(reason: str | None) -> str:
    """A SKIP's reason in plain words (never the code)."""
    return SKIP_WHY.get(reason or "", "skipped")


def plural(n: int, word: str) -> str:
    """``1 error``, ``3 warnings``, ``5 skipped``."""
    return f"{n} {word}" if n == 1 else f"{n} {PLURAL.get(word, word + 's')}"


def counts_phrase(c) -> str:
    """'3 errors (2 reject, 1 reject-points), 1 flag, 2 warnings' or 'no problems', of a tally's Counts."""
    if not c.failed:
        return "no problems"
    parts = []
    if c.errors:
        kinds = ", ".join(f"{n} {k}" for k, n in (("reject", c.reject), ("reject-points", c.reject_points)) if n)
        parts.append(f"{plural(c.errors, 'error')} ({kinds})")
    if c.flag:
        parts.append(plural(c.flag, "flag"))
    if c.warn:
        parts.append(plural(c.warn, "warning"))
    return ", ".join(parts)


def causes_phrase(tally) -> str:
    """' from 2 root causes' when some FAILs follow from others (named on their cause's line), else ""."""
    if not tally.consequences:
        return ""
    return f" from {plural(tally.counts.failed - tally.consequences, 'root cause')}"


def checks_phrase(report) -> str:
    """'611 checks passed, 75 skipped (3 waived), 40 not selected'."""
    c = report.tally.counts
    skipped = f"{c.skipped - c.deselected} skipped" + (f" ({c.waived} waived)" if report.count_waived else "")
    return f"{plural(c.passed, 'check')} passed, {skipped}" + (f", {c.deselected} not selected" if c.deselected else "")


def short_counts(c) -> str:
    """'5 errors, 1 flag, 1 warning' or 'no problems', of a tally's Counts."""
    parts = [plural(n, word) for n, word in ((c.errors, "error"), (c.flag, "flag"), (c.warn, "warning")) if n]
    return ", ".join(parts) or "no problems"


#: a rules or Week-0 verdict in words
DECISION_WORDS = {"accept": "accept", "reject": "reject", "reject-points": "reject points"}


def unit_verdicts(v) -> str:
    """'the rules reject points; Week-0 (predicted) would accept' for a tally's Verdicts."""
    out = f"the rules {DECISION_WORDS[v.rules]}"
    if v.week0 is not None:
        out += f"; Week-0{' (predicted)' if predicted(v) else ''} would {DECISION_WORDS[v.week0['verdict']]}"
    return out


def point_week0(verdicts) -> str:
    """'rejected at Week 0 (predicted)' for a point the Week-0 check rejects on its own (reject-points), else ''.
    ``verdicts``: (the tally's PointVerdict, its submission's Verdicts) or None."""
    if verdicts is None or verdicts[0].week0 != "reject-points":
        return ""
    return "rejected at Week 0" + (" (predicted)" if predicted(verdicts[1]) else "")


def predicted(*verdicts) -> bool:
    """Did the model (not the installed official checker) decide any of these Week-0 verdicts (source model)?"""
    return any(v.week0_source == "model" for v in verdicts if v.week0 is not None)


def week0_name(*verdicts) -> str:
    """'Week-0 automated check (predicted)' when the model decided any of these verdicts, else the official's own
    name and version ('Week-0 automated check (endpoints-submission-cli 1.5.3.0)'): every output says which."""
    decided = [v.week0 for v in verdicts if v.week0 is not None]
    if predicted(*verdicts) or not decided:
        return "Week-0 automated check (predicted)"
    return week0_who(decided[0])


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
    """Why there is no Week-0 verdict: no submission, or a check of only some rules."""
    if report.tally.counts.deselected:
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
    tally = report.tally
    if getattr(report, "sections", {}).get("cohort"):
        rows = [u for u in tally.units.values() if u.week0 is not None]
        if not rows:
            return _no_prediction(report)
        name = week0_name(*rows)
        hit = sorted(u.label for u in rows if u.week0_reject)
        if not hit:
            return f"{name} would accept every one of {len(rows)}"
        return f"{name} would REJECT {len(hit)} of {len(rows)}: {', '.join(hit)}"
    w = tally.week0
    if w is None:
        return _no_prediction(report)
    name = week0_name(tally.report)
    if w["verdict"] == "accept":
        out = f"{name} would accept."
    elif w["verdict"] == "reject-points":
        out = f"{name} would REJECT points: {', '.join(w['points'])} ({', '.join(w['rules'])})."
    else:
        out = f"{name} would REJECT the submission ({', '.join(w['rules'])})."
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


def baseline_phrase(report) -> str:
    """'baseline: 1 new, 25 unchanged, 2 waived, 3 resolved' (problems; "" without --baseline)."""
    base = getattr(report, "sections", {}).get("baseline")
    if not base:
        return ""
    n = base["counts"]
    waived = f", {n['waived']} waived" if n.get("waived") else ""
    return f"baseline: {n['new']} new, {n['unchanged']} unchanged{waived}, {n['resolved']} resolved"


def baseline_mark(f) -> str:
    """A problem's state against the baseline in words: 'new', 'unchanged', 'new: <parts>' for a finding listing
    several problems of which some are new, 'waived' for a waived one; "" without --baseline."""
    state = getattr(f, "baseline", None)
    if not state:
        return ""
    if f.status is Status.SKIP:
        return "waived" + (" (new since the baseline)" if state == "new" else "")
    split = (f.extra or {}).get("baseline") if isinstance(f.extra, dict) else None
    if state == "new" and isinstance(split, dict) and split.get("new"):
        return f"new: {', '.join(map(str, split['new']))} (the other {len(split.get('unchanged', []))} unchanged)"
    return state


def waiver_state(e: dict) -> str:
    """A waiver entry of the report's waivers section in words: 'in force', 'expires in 3 days', 'expired',
    'unknown rule', 'can never be waived', 'waived nothing'."""
    if e["expired"]:
        return "expired"
    problem = e.get("problem")
    if problem:
        return "unknown rule" if problem == "unknown-rule" else "can never be waived"
    if e.get("expiring"):
        left = e.get("days_left", 0)
        return "last day today" if left == 0 else f"expires in {plural(left, 'day')}"
    return "in force" if e["matched"] else "waived nothing"


def verdict_line(report) -> str:
    """One line: gate verdict, problems in words, checks, Week-0 verdict, extras (baseline, cohort)."""
    line = (f"{report.verdict} — {counts_phrase(report.tally.counts)} · {checks_phrase(report)}"
            f" · {week0_phrase(report)} · fail-on {report.fail_on}")
    base = baseline_phrase(report)
    if base:
        line += f" · {base}" + (" (only new findings gate)" if getattr(report, "gate_new_only", False) else "")
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


def problems(counts: dict) -> list[tuple[str, str]]:
    """[(level, "2 errors"), ...] for the non-zero failure levels of ``Counts.levels()``, most severe first."""
    return [(lv, plural(counts[lv], lv)) for lv in LEVELS if counts.get(lv)]


def verdict(v) -> dict:
    """The badge of a tally's ``Verdicts`` (the report's or a unit's): its class, its words and one sentence
    saying why; follows the Week-0 verdict and says where the rules' errors differ from it."""
    counts, week0 = v.counts.levels(), v.week0
    errors = counts["error"]
    check = "the " + week0_name(v)
    if week0 is not None and week0["verdict"] != "accept":
        key, badge = "reject", "Would be rejected"
        what = f"points {', '.join(week0['points'])}" if week0["verdict"] == "reject-points" else "it"
        why = f"{check} rejects {what} ({', '.join(week0['rules'])})"
        if not errors:
            why += "; the rules do not reject"
    elif errors:
        key, badge = "flag", "Accepted at Week 0, the rules reject"
        why = (f"{check} accepts it; the rules reject: {plural(errors, 'error')} "
               "(the automated check does not test this; reviewers can reject for it)")
    elif counts["flag"]:
        key, badge = "flag", "Would be accepted"
        why = f"{check} accepts it; {plural(counts['flag'], 'flag')} for a reviewer"
    else:
        key, badge = ("warning" if counts["warning"] else "pass"), "Would be accepted"
        why = f"{check} accepts it"
    if counts["warning"] and key != "reject":
        why += f", {plural(counts['warning'], 'warning')} (advice)"
    return {"key": key, "badge": badge, "why": why}
