"""A compact Markdown summary for a pull-request comment or ``$GITHUB_STEP_SUMMARY``.

Verdict, problems in words (errors, flags, warnings: ``checker.render.levels``), and the problem
list (level, rule, subject, message, location). Submitter strings
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
    from checker.core.version import __version__
    from checker.engine.report import TOOL_NAME

    from checker.render.levels import LEVEL_WORD, checks_phrase, counts_phrase, official_words, problem_counts, \
        week0_phrase

    c = report.counts()
    n = problem_counts(report.findings)
    icon = "❌" if report.verdict == "FAILED" else "✅"
    week0 = md_escape(week0_phrase(report), limit=4000).replace("REJECT", "**REJECT**", 1)
    counts = counts_phrase(report.findings)
    lines = [
        f"## {icon} {TOOL_NAME}: {report.verdict}",
        "",
        f"{md_escape(counts[:1].upper() + counts[1:])} · {md_escape(checks_phrase(report))}",
        "",
        f"{week0} · fail-on `{report.fail_on}` · {TOOL_NAME} "
        f"{__version__} · policy {md_escape(report.policy_edition)} ({md_escape(report.policy_version)}) · "
        f"checked {', '.join(_code(p) for p in report.paths)} · generated {md_escape(report.generated_at)}",
        "",
        "| Errors (reject) | Errors (reject-points) | Flags | Warnings | Passed | Skipped |",
        "|---:|---:|---:|---:|---:|---:|",
        f"| {n['reject']} | {n['reject-points']} | {n['flag']} | {n['warn']} | {c['by_status']['PASS']} | "
        f"{c['by_status']['SKIP']} |",
        "",
    ]
    fails = [f for f in report.findings if f.status is Status.FAIL]
    fails.sort(key=lambda f: -f.severity.rank)  # stable: report order within a severity
    if not fails:
        lines.append("No problems.")
        return "\n".join(lines) + "\n"
    lines += [f"### Problems ({len(fails)})", "",
              "| Level | Rule | Subject | Message | Location |", "|---|---|---|---|---|"]
    for f in fails[:max_rows]:
        loc = f.location.short() if f.location is not None else ""
        said = "".join(f" (the automated check says: {w})" for w in official_words(f))
        lines.append(f"| {LEVEL_WORD[f.severity]} ({f.severity.value}) | `{f.rule_id}` | {_code(f.subject.label())} | "
                     f"{md_escape(f.message + said)} | {_code(loc)} |")
    if len(fails) > max_rows:
        lines += ["", f"… and {len(fails) - max_rows} more problems (see the HTML or JSON report)."]
    return "\n".join(lines) + "\n"
