"""A compact Markdown summary for a pull-request comment or ``$GITHUB_STEP_SUMMARY``.

Verdict, counts, and the FAIL list (rule, severity, subject, message, location). Submitter strings
are escaped for GitHub-flavoured Markdown: inline HTML, emphasis, links, table pipes and line
breaks cannot change the document's structure.
"""
from __future__ import annotations

import re

from checker.core.findings import Status

MAX_ROWS = 200  # a PR comment holds 65,536 characters; the rest is counted, not listed
_SPECIAL = re.compile(r"([\\`*_{}\[\]|~])")


def md_escape(value, limit: int = 400) -> str:
    """Escape text for one Markdown table cell: no HTML, no markup, no mention, no line break, no pipe."""
    s = "" if value is None else str(value)
    if len(s) > limit:
        s = s[: limit - 1] + "…"
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    s = _SPECIAL.sub(r"\\\1", s)
    s = s.replace("@", "@\u2060")  # a word joiner: "@org" must not notify anybody
    return re.sub(r"[\r\n\t]+", " ", s)


def _code(value) -> str:
    """A code span (paths, subjects): nothing inside is interpreted; backtick runs get a longer fence."""
    s = "" if value is None else re.sub(r"[\r\n\t]+", " ", str(value)).replace("|", "\\|")
    if not s:
        return ""
    runs = re.findall(r"`+", s)
    fence = "`" * (max((len(r) for r in runs), default=0) + 1)
    pad = " " if runs or s.startswith(" ") else ""
    return f"{fence}{pad}{s}{pad}{fence}"


def render(report, max_rows: int = MAX_ROWS, **_options) -> str:
    from checker import __version__
    from checker.engine.report import TOOL_NAME

    c = report.counts()
    icon = "❌" if report.verdict == "FAILED" else "✅"
    week0 = "**would REJECT**" if report.week0_reject else "would accept"
    lines = [
        f"## {icon} {TOOL_NAME}: {report.verdict}",
        "",
        f"Week-0 automated check {week0} · fail-on `{report.fail_on}` · {TOOL_NAME} {__version__} · "
        f"policy {md_escape(report.policy_edition)} ({md_escape(report.policy_version)}) · "
        f"checked {', '.join(_code(p) for p in report.paths)} · generated {md_escape(report.generated_at)}",
        "",
        "| FAIL | SKIP | PASS | " + " | ".join(c["fail_by_severity"]) + " |",
        "|---:|---:|---:|" + "---:|" * len(c["fail_by_severity"]),
        f"| {c['by_status']['FAIL']} | {c['by_status']['SKIP']} | {c['by_status']['PASS']} | "
        + " | ".join(str(n) for n in c["fail_by_severity"].values()) + " |",
        "",
    ]
    fails = [f for f in report.findings if f.status is Status.FAIL]
    fails.sort(key=lambda f: -f.severity.rank)  # stable: report order within a severity
    if not fails:
        lines.append("No failing checks.")
        return "\n".join(lines) + "\n"
    lines += [f"### Failures ({len(fails)})", "",
              "| Severity | Rule | Subject | Message | Location |", "|---|---|---|---|---|"]
    for f in fails[:max_rows]:
        loc = f.location.short() if f.location is not None else ""
        lines.append(f"| {f.severity.value} | `{f.rule_id}` | {_code(f.subject.label())} | {md_escape(f.message)} | "
                     f"{_code(loc)} |")
    if len(fails) > max_rows:
        lines += ["", f"… and {len(fails) - max_rows} more failures (see the HTML or JSON report)."]
    return "\n".join(lines) + "\n"
