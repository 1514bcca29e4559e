"""Severity levels and verdicts in words a person knows: errors, flags, warnings (never "FAIL").

Every human-facing output (text, Markdown, the GitHub log line, the HTML pages) names and counts
findings through this one module, so a warn-level finding reads as a warning everywhere and is
never counted as a failure. The big badge of a page follows the Week-0 automated check (reject on
any error), not the ``--fail-on`` exit status, which is stated separately. The JSON, SARIF and
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
    "error": "a reject or reject-points rule fails: the Week-0 automated check rejects the submission or its points",
    "flag": "a reviewer looks at it; the Week-0 automated check still accepts",
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


def _points(fs: list[Finding]) -> str:
    labels = sorted({f.subject.label() for f in fs})
    return ", ".join(labels)


def week0_phrase(report) -> str:
    """What the Week-0 automated check would do, in words."""
    fails = [f for f in report.findings if f.status is Status.FAIL]
    cohort = getattr(report, "sections", {}).get("cohort")
    if cohort:
        units = [r["label"] for r in cohort["submissions"]]
        hit = sorted({f.subject.submission or f.subject.point for f in fails
                      if f.severity in (Severity.REJECT, Severity.REJECT_POINTS)} & set(units))
        if not hit:
            return "Week-0 check would accept every one"
        return f"Week-0 check would REJECT {len(hit)} of {len(units)}: {', '.join(hit)}"
    if any(f.severity is Severity.REJECT for f in fails):
        return "Week-0 check would REJECT the submission"
    pts = [f for f in fails if f.severity is Severity.REJECT_POINTS]
    if pts:
        return f"Week-0 check would REJECT points: {_points(pts)}"
    return "Week-0 check would accept"


def gate_phrase(report) -> str:
    """'FAILED: 2 findings at or above --fail-on flag' / 'PASSED: nothing at or above --fail-on flag'."""
    n = len(report.failing())
    what = "new findings" if report.gate_new_only else "findings"
    if report.fail_on == "never":
        return f"{report.verdict}: --fail-on never (problems never fail the run)"
    if n:
        return f"{report.verdict}: {n} {what if n != 1 else what[:-1]} at or above --fail-on {report.fail_on}"
    return f"{report.verdict}: nothing at or above --fail-on {report.fail_on}"


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


def verdict(counts: dict, week0_reject: bool) -> dict:
    """The badge: its class, its words and one sentence saying why; agrees with the Week-0 check."""
    if week0_reject:
        key, badge = "reject", "Would be rejected"
        why = f"the Week-0 automated check rejects it: {plural(counts['error'], 'error')}"
    elif counts.get("flag"):
        key, badge = "flag", "Would be accepted"
        why = f"the Week-0 automated check accepts it; {plural(counts['flag'], 'flag')} for a reviewer"
    else:
        key, badge = ("warning" if counts.get("warning") else "pass"), "Would be accepted"
        why = "the Week-0 automated check accepts it"
    if counts.get("warning") and key != "reject":
        why += f", {plural(counts['warning'], 'warning')} (advice)"
    return {"key": key, "badge": badge, "why": why}
