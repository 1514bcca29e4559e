"""A compact Markdown summary for a pull-request comment or ``$GITHUB_STEP_SUMMARY``.

Verdict, problems in words (errors, flags, warnings: ``checker.render.levels``), the problem list
(level, rule linked to its page, subject, message, location, and with ``--baseline`` each problem's
state), then the waivers in force and the problems resolved since the baseline. Submitter strings
are escaped for GitHub-flavoured Markdown: inline HTML, emphasis, links, table pipes and line
breaks cannot change the document's structure.
"""
from __future__ import annotations

import re


MAX_ROWS = 200  # a PR comment holds 65,536 characters; the rest is counted, not listed
MAX_LISTED = 50  # waivers and resolved problems listed; the rest counted
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
    from checker.render.levels import LEVEL_WORD, baseline_mark, baseline_phrase, checks_phrase, counts_phrase, \
        official_words, week0_phrase

    tally = report.tally
    c = tally.counts
    icon = "❌" if report.verdict == "FAILED" else "✅"
    week0 = md_escape(week0_phrase(report), limit=4000).replace("REJECT", "**REJECT**", 1)
    counts = counts_phrase(c)
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
        f"| {c.reject} | {c.reject_points} | {c.flag} | {c.warn} | {c.passed} | {c.skipped} |",
        "",
    ]
    base = baseline_phrase(report)
    if base:
        lines[4:4] = [md_escape(base[:1].upper() + base[1:]) + " (problems; a finding listing several counts each)", ""]
    lines += _cohort_table(report, max_rows)
    problems = tally.problems  # one row per root cause (checker.engine.problems)
    if not problems:
        lines.append("No problems.")
    else:
        from checker.render.text import also_phrase, same_at

        state = bool(base)
        lines += [f"### Problems ({len(problems)}{'' if len(problems) == c.failed else f'; {c.failed} findings'})",
                  "", "| Level | Rule | Subject | Message | Fix | Location |" + (" Baseline |" if state else ""),
                  "|---|---|---|---|---|---|" + ("---|" if state else "")]
        for p in problems[:max_rows]:
            f = p.lead
            loc = f.location.short() if f.location is not None else ""
            said = "".join(f" (the automated check says: {w})" for w in official_words(f))
            more = f"; {same_at(f, p.repeats)}" if p.repeats else ""
            lines.append(f"| {_level(p.severity, LEVEL_WORD)} | {_rule_link(f.family, f.rule_id, report)} | "
                         f"{_code(f.subject.label())} | {md_escape(f.message + said + also_phrase(p) + more)} | "
                         f"{_fix(f)} | {_code(loc)} |" + (f" {md_escape(baseline_mark(f))} |" if state else ""))
        if len(problems) > max_rows:
            lines += ["", f"… and {len(problems) - max_rows} more problems (see the HTML or JSON report)."]
    lines += _waiver_lines(report) + _resolved_lines(report)
    return "\n".join(lines) + "\n"


def _level(severity, words: dict) -> str:
    """``error (reject)``, ``error (reject-points)``, ``flag``, ``warning``: the severity named only where the
    level word does not already say it."""
    word = words[severity]
    return f"{word} ({severity.value})" if word == "error" else word


def _fix(f) -> str:
    """The finding's fix, and whether ``--fix`` applies it."""
    if not f.fix:
        return ""
    return md_escape(f.fix) + (" (`--fix` applies it)" if f.edits else "")


def _rule_link(family: str, rule_id: str, report) -> str:
    """The rule id as a link to its page (``checker.core.rule_pages``, the one link builder)."""
    from checker.core.rule_pages import rule_url

    url = rule_url(family, rule_id, getattr(report, "docs_url", ""))
    if not url:
        return f"`{rule_id}`"
    for ch in "()<> ":  # a plain link destination: nothing that could end it or read as markup
        url = url.replace(ch, "%%%02X" % ord(ch))
    return f"[`{rule_id}`]({url})"


def _waiver_lines(report) -> list[str]:
    """--waivers: every waiver of the file, in force or not, with what it waived and until when."""
    ws = getattr(report, "sections", {}).get("waivers")
    if not ws or not ws["entries"]:
        return []
    from checker.render.levels import waiver_state

    active = sum(1 for e in ws["entries"] if not e["expired"])
    out = ["", f"### Waivers ({active} in force of {len(ws['entries'])}, {_code(ws['file'])}, on {md_escape(ws['today'])})",
           "", "| Rule | Subject | Reason | Approver | Expires | Waived | State |", "|---|---|---|---|---|---:|---|"]
    for e in ws["entries"][:MAX_LISTED]:
        out.append(f"| {_code(e['rule'])} | {_code(e['subject'])} | {md_escape(e['reason'])} | {md_escape(e['approver'])} "
                   f"| {md_escape(e['expires'])} | {e['matched']} | {md_escape(waiver_state(e))} |")
    if len(ws["entries"]) > MAX_LISTED:
        out += ["", f"… and {len(ws['entries']) - MAX_LISTED} more waivers (see the JSON report)."]
    return out


def _resolved_lines(report) -> list[str]:
    """--baseline: the problems of the baseline that are gone."""
    base = getattr(report, "sections", {}).get("baseline")
    if not base or not base["resolved"]:
        return []
    out = ["", f"### Resolved since the baseline ({base['counts']['resolved']})", ""]
    for d in base["resolved"][:MAX_LISTED]:
        subj = "/".join(v for v in d["subject"].values() if v) or "(package)"
        what = d.get("part") or d.get("message") or ""
        out.append(f"- `{d['rule_id']}` {_code(subj)}" + (f": {md_escape(what)}" if what else ""))
    if base["counts"]["resolved"] > min(len(base["resolved"]), MAX_LISTED):
        out.append(f"- … and {base['counts']['resolved'] - min(len(base['resolved']), MAX_LISTED)} more")
    return out


def _cohort_table(report, max_rows: int) -> list[str]:
    """Cohort mode: one row per unit with its gate, problems, the rules' verdict and the Week-0 verdict."""
    from checker.render.levels import DECISION_WORDS, predicted, short_counts

    cohort = getattr(report, "sections", {}).get("cohort")
    if not cohort:
        return []
    units = [report.tally.units[r["label"]] for r in cohort["submissions"]]
    out = [f"### Submissions ({len(units)})", "", "| Verdict | Submission | Problems | Rules | Week-0 |",
           "|---|---|---|---|---|"]
    for v in units[:max_rows]:
        week0 = "—" if v.week0 is None else (DECISION_WORDS[v.week0["verdict"]]
                                             + (" (predicted)" if predicted(v) else ""))
        out.append(f"| {v.gate} | {_code(v.label)} | {short_counts(v.counts)} | {DECISION_WORDS[v.rules]} | {week0} |")
    if len(units) > max_rows:
        out += ["", f"… and {len(units) - max_rows} more (see the HTML or JSON report)."]
    return out + [""]
