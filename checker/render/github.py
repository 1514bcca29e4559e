"""GitHub Actions workflow commands (::error/::warning/::notice), grouped per submission.

Escaping follows the Actions toolkit: data escapes %, CR, LF; property values also ':' and ','.
One annotation per root cause at its place, in report order (a FAIL that follows from another is named on its cause's
annotation: ``Report.tally.problems``).
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


def annotation(f, problem) -> str:
    """A root cause's FAIL (a problem line's ``lead``, or a repeat of it at its own place: an annotation sits on
    its file) as a workflow command, at the line's level, naming what follows from it."""
    from checker.render.text import also_phrase

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
    msg = f.message + also_phrase(problem) + said + (f"\nfix: {f.fix}" if f.fix else "")
    return f"::{cmd} {','.join(props)}::{escape_data(msg)}"


def render(report, **_options) -> str:
    from checker.render.levels import verdict_line
    from checker.render.text import cohort_lines

    lines = []
    # every root cause at its own place (a consequence is named on its cause's annotation), by submission
    causes = sorted(((f, p) for p in report.tally.problems for f in p.findings), key=lambda fp: fp[0].sort_key())
    for sub, items in groupby(causes, key=lambda fp: fp[0].subject.submission):
        lines.append(f"::group::{escape_data('endpoints-checker: ' + (sub or 'package'))}")
        lines.extend(annotation(f, p) for f, p in items)
        lines.append("::endgroup::")
    lines.extend(cohort_lines(report))  # a cohort: each unit's verdicts (plain lines, as the verdict line)
    lines.append(verdict_line(report))
    return "\n".join(lines) + "\n"


def step_summary(report) -> str:
    """Markdown for $GITHUB_STEP_SUMMARY: the markdown renderer's compact summary."""
    from checker.render import render as _render

    return _render("markdown", report)
