"""Terminal output: findings grouped by subject, failures first, one verdict line.

On a TTY a rich table per subject (colour unless NO_COLOR); elsewhere the same content as plain,
unwrapped lines, so CI logs never truncate a message (the official tool's 80-column table does).
"""
from __future__ import annotations

import os
import sys
from itertools import groupby

from checker.core.findings import Finding, Status

_STATUS_ORDER = {Status.FAIL: 0, Status.SKIP: 1, Status.PASS: 2}


def _groups(report, quiet: bool):
    shown = [f for f in report.findings if not (quiet and f.status is Status.PASS)]
    for subject, items in groupby(shown, key=lambda f: (f.subject.submission, f.subject.system,
                                                        f.subject.model, f.subject.point)):
        rows = sorted(items, key=lambda f: (_STATUS_ORDER[f.status], -f.severity.rank, f.rule_id, f.subject.entry))
        yield rows[0].subject, rows


def _subject_title(subject) -> str:
    parts = []
    if subject.submission:
        parts.append(f"submission {subject.submission}")
    if subject.system:
        parts.append(f"system {subject.system}")
    if subject.model:
        parts.append(f"model {subject.model}")
    if subject.point:
        parts.append(("point " if subject.model else "run folder ") + subject.point)
    return " · ".join(parts) or "package"


def verdict_line(report) -> str:
    c = report.counts()
    sev = ", ".join(f"{n} {k}" for k, n in c["fail_by_severity"].items() if n)
    fails = f"{c['by_status']['FAIL']} FAIL" + (f" ({sev})" if sev else "")
    week0 = "Week-0 check would REJECT" if report.week0_reject else "Week-0 check would accept"
    skips = f"{c['by_status']['SKIP']} SKIP" + (f" ({c['waived']} waived)" if "waived" in c else "")
    line = (f"{report.verdict} — {fails}, {c['by_status']['PASS']} PASS, {skips}"
            f" · {week0} · fail-on {report.fail_on}")
    base = getattr(report, "sections", {}).get("baseline")
    if base:
        n = base["counts"]
        line += (f" · baseline: {n['new']} new, {n['unchanged']} unchanged, {n['resolved']} resolved"
                 + (" (only new FAILs gate)" if getattr(report, "gate_new_only", False) else ""))
    cohort = getattr(report, "sections", {}).get("cohort")
    if cohort:
        v = cohort["verdicts"]
        line += f" · cohort of {len(cohort['submissions'])}: {v['PASSED']} passed, {v['FAILED']} failed"
    return line


def resolved_lines(report) -> list[str]:
    """--baseline: the FAILs of the baseline that are gone, one line each."""
    base = getattr(report, "sections", {}).get("baseline")
    if not base or not base["resolved"]:
        return []
    out = [f"== resolved since the baseline ({len(base['resolved'])})"]
    for d in base["resolved"]:
        subj = "/".join(v for v in d["subject"].values() if v) or "(package)"
        out.append(f"  {d['rule_id']} {subj}: {d.get('message', '')}")
    return out


def cohort_lines(report) -> list[str]:
    """Cohort mode: one line per submission (verdict, label, FAIL counts by severity)."""
    cohort = getattr(report, "sections", {}).get("cohort")
    if not cohort:
        return []
    rows = cohort["submissions"]
    n_rf = sum(1 for r in rows if r["kind"] == "run-folder")
    out = [f"== cohort: {len(rows) - n_rf} submission(s)" + (f" and {n_rf} run folder(s)" if n_rf else "")]
    width = max(len(r["label"]) for r in cohort["submissions"])
    for r in cohort["submissions"]:
        c = r["counts"]
        sev = ", ".join(f"{n} {k}" for k, n in c["fail_by_severity"].items() if n)
        fails = f"{c['by_status']['FAIL']} FAIL" + (f" ({sev})" if sev else "")
        extra = "" if r["checked"] else " · check did not complete"
        out.append(f"  {r['verdict']:<6}  {r['label']:<{width}}  {fails}{extra}")
    return out


def header_line(report) -> str:
    from checker.engine.report import TOOL_NAME
    from checker import __version__

    return (f"{TOOL_NAME} {__version__} · policy {report.policy_edition} ({report.policy_version})"
            f" · {', '.join(report.paths)}")


def _detail_lines(f: Finding) -> list[str]:
    out = []
    if f.location is not None:
        out.append(f"at {f.location.short()}")
    if f.status is Status.FAIL and (f.observed is not None or f.expected is not None):
        out.append(f"observed: {_short(f.observed)} · expected: {_short(f.expected)}")
    if f.fix and f.status is Status.FAIL:
        out.append(f"fix: {f.fix}")
    return out


def _short(v, limit: int = 160) -> str:
    s = str(v)
    return s if len(s) <= limit else s[: limit - 3] + "..."


def render_plain(report, quiet: bool = False) -> str:
    lines = [header_line(report)]
    for subject, rows in _groups(report, quiet):
        lines.append("")
        lines.append(f"== {_subject_title(subject)}")
        for f in rows:
            entry = f" [{f.subject.entry}]" if f.subject.entry else ""
            lines.append(f"  {f.status.value:<4}  {f.severity.value:<13} {f.rule_id}{entry}: {f.message}")
            for d in _detail_lines(f):
                lines.append(f"        {d}")
    for block in (resolved_lines(report), cohort_lines(report)):
        if block:
            lines.append("")
            lines.extend(block)
    lines.append("")
    lines.append(verdict_line(report))
    return "\n".join(lines) + "\n"


def render_rich(report, quiet: bool = False, stream=None) -> str:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console(file=stream or sys.stdout, no_color=bool(os.environ.get("NO_COLOR")), highlight=False,
                      soft_wrap=False)
    style = {Status.FAIL: "bold red", Status.SKIP: "yellow", Status.PASS: "green"}
    console.print(header_line(report), style="dim", markup=False)
    for subject, rows in _groups(report, quiet):
        table = Table(title=_subject_title(subject), title_justify="left", show_lines=False, expand=True)
        table.add_column("Status", no_wrap=True)
        table.add_column("Severity", no_wrap=True)
        table.add_column("Rule", no_wrap=True)
        table.add_column("Message", ratio=1)
        for f in rows:
            msg = Text(f.message + (f" [{f.subject.entry}]" if f.subject.entry else ""))
            for d in _detail_lines(f):
                msg.append("\n" + d, style="dim")
            table.add_row(Text(f.status.value, style=style[f.status]), f.severity.value, f.rule_id, msg)
        console.print(table)
    for line in resolved_lines(report) + cohort_lines(report):
        console.print(line, markup=False, highlight=False)
    console.print(Text(verdict_line(report), style="bold red" if report.verdict == "FAILED" else "bold green"))
    return ""


def render(report, quiet: bool = False, tty: bool | None = None, **_options) -> str:
    if tty is None:
        tty = sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
    if tty:
        return render_rich(report, quiet=quiet)
    return render_plain(report, quiet=quiet)
