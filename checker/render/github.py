"""GitHub Actions workflow commands (::error/::warning/::notice), grouped per submission.

Escaping follows the Actions toolkit: data escapes %, CR, LF; property values also ':' and ','.
One annotation per problem line (a root cause, its repeats and consequences named: ``Report.tally.problems``).
Annotations do not fail a job; the exit code does. With ``--baseline`` a title says whether the problem is
new or unchanged.
"""
from __future__ import annotations

from itertools import groupby

from checker.render.common import GITHUB_COMMAND, LEVEL, repo_relative


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def annotation(problem) -> str:
    """One problem line (checker.engine.problems.Problem) as a workflow command at its cause's place."""
    from checker.render.text import also_phrase, same_at

    f = problem.lead
    cmd = GITHUB_COMMAND[LEVEL[problem.severity]]
    props = []
    if f.location and f.location.file:
        props.append(f"file={escape_property(repo_relative(f.location.file))}")
        if f.location.line:
            props.append(f"line={f.location.line}")
            if f.location.column:
                props.append(f"col={f.location.column}")
    from checker.render.levels import baseline_mark, official_words

    state = baseline_mark(f)
    title = f"{f.rule_id} ({problem.severity.value}) {f.subject.label()}" + (f" [{state}]" if state else "")
    props.append(f"title={escape_property(title)}")
    said = "".join(f"\nthe automated check says: {w}" for w in official_words(f))
    more = f"\n{same_at(f, problem.repeats)}" if problem.repeats else ""
    msg = f.message + also_phrase(problem) + said + (f"\nfix: {f.fix}" if f.fix else "") + more
    return f"::{cmd} {','.join(props)}::{escape_data(msg)}"


def render(report, **_options) -> str:
    from checker.render.levels import verdict_line
    from checker.render.text import cohort_lines

    lines = []
    problems = sorted(report.tally.problems, key=lambda p: p.lead.subject.submission)  # stable: worst first within
    for sub, items in groupby(problems, key=lambda p: p.lead.subject.submission):
        lines.append(f"::group::{escape_data('endpoints-checker: ' + (sub or 'package'))}")
        lines.extend(annotation(p) for p in items)
        lines.append("::endgroup::")
    lines.extend(cohort_lines(report))  # a cohort: each unit's verdicts (plain lines, as the verdict line)
    lines.append(verdict_line(report))
    return "\n".join(lines) + "\n"


def step_summary(report) -> str:
    """Markdown for $GITHUB_STEP_SUMMARY: the markdown renderer's compact summary."""
    from checker.render import render as _render

    return _render("markdown", report)
