"""Severity levels and verdicts in words a person knows: errors, flags, warnings (never "FAIL").

Every human-facing summary (text, Markdown, the GitHub log line) counts findings through these
helpers, so a warn-level finding reads as a warning everywhere. The JSON, SARIF and JUnit reports
keep the rule statuses and severities as they are.
"""
from __future__ import annotations

from checker.core.findings import Finding, Severity, Status

#: severity -> the level word printed in front of a finding
LEVEL_WORD = {Severity.REJECT: "error", Severity.REJECT_POINTS: "error", Severity.FLAG: "flag",
              Severity.WARN: "warning"}


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


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
