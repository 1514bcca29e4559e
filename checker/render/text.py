"""Terminal output a person reads in ten seconds: one line per problem, then a summary in words.

Each problem is ``path:line:col: <level> <rule-id> <message>`` (never cut, never wrapped, so a
terminal or editor can open the place), followed by its observed/expected/fix indented. One cause
repeated at other subjects reads once ("same at r8, r32"), and what follows from a root cause is named on its
line ("also: ..."): the lines are the tally's problems (checker.engine.problems). Levels are words: error (reject and
reject-points), flag, warning. PASS and SKIP lines appear only with ``verbose``; ``statistics``
adds counts per rule. Colour only on a terminal (and never with NO_COLOR).
"""
from __future__ import annotations

import os
import re
import sys

from checker.core.findings import Finding, Severity, Status
from checker.render.as_written import printable as _c, spell_lines
from checker.render.levels import LEVEL_WORD, baseline_mark, baseline_phrase, causes_phrase, checks_phrase, \
    counts_phrase, gate_phrase, official_words, plural, short_counts, unit_verdicts, verdict_line, week0_phrase

__all__ = ["render", "render_plain", "verdict_line", "header_line", "group_lines"]

_STYLE = {"error": "1;31", "flag": "1;35", "warning": "33", "path": "1", "rule": "36", "dim": "2",
          "PASSED": "1;32", "FAILED": "1;31", "pass": "32", "skip": "33"}


class _Paint:
    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __call__(self, text: str, style: str) -> str:
        if not self.enabled or style not in _STYLE:
            return text
        return f"\x1b[{_STYLE[style]}m{text}\x1b[0m"


def header_line(report) -> str:
    from checker.core.version import __version__
    from checker.engine.report import TOOL_NAME

    return _c(f"{TOOL_NAME} {__version__} · policy {report.policy_edition} ({report.policy_version})"
              f" · {', '.join(report.paths)}")


def where(f: Finding) -> str:
    """``path:line:col`` (or the path alone) of a finding; the subject when it has no file."""
    loc = f.location
    if loc is not None and loc.file:
        return _c(f"{loc.file}:{loc.line}:{loc.column or 1}" if loc.line else loc.file)
    return _c(f.subject.label())


# --- problem lines: one per root cause, its repeats and consequences named (checker.engine.problems) ----------

#: at most this many other subjects are named on a "same at" line; the rest are counted
SAME_AT_NAMED = 12


def same_at(first: Finding, rest: list[Finding]) -> str:
    """'same at r8, r32' in the first one's curve; other curves (a cohort's other submissions) by curve:
    'same at r256; sub-b/sys/model: r64, r256'. At most SAME_AT_NAMED subjects are named, the rest counted."""
    by_curve: dict[tuple, list[str]] = {}
    for f in rest[:SAME_AT_NAMED]:
        s = f.subject
        curve = (s.submission, s.system, s.model) if s.point and s.model else None
        by_curve.setdefault(curve, []).append(s.point if curve is not None else s.label())
    own = (first.subject.submission, first.subject.system, first.subject.model)
    parts = []
    for curve, names in by_curve.items():
        if curve is None or curve == own:
            parts.append(", ".join(names))
        else:
            parts.append(f"{'/'.join(x for x in curve if x)}: {', '.join(names)}")
    more = len(rest) - min(len(rest), SAME_AT_NAMED)
    return _c("same at " + "; ".join(parts) + (f"; and {more} more" if more else ""))


def also_phrase(problem) -> str:
    """' (also: seed-set-consistency, point-disclosure-complete)', or "" for a line nothing follows from."""
    return f" (also: {', '.join(problem.also)})" if problem.consequences else ""


def _evidence(label: str, value, indent: str) -> list[str]:
    lines = spell_lines(value)
    if len(lines) == 1:
        return [f"{indent}{label}: {lines[0]}"]
    return [f"{indent}{label}:"] + [f"{indent}  {ln}" for ln in lines]


def group_lines(problem, paint: _Paint, details: bool = True, baseline: bool = False) -> list[str]:
    """A problem line (checker.engine.problems.Problem), then its evidence, fix and repeats indented."""
    f, group = problem.lead, problem.findings
    level = LEVEL_WORD[problem.severity]
    mark = " [*]" if f.edits else ""
    state = baseline_mark(f) if baseline else ""
    state = f" ({paint(_c(state), 'dim')})" if state else ""
    head = (f"{paint(where(f), 'path')}: {paint(level, level)} {paint(f.rule_id, 'rule')}{mark}{state} "
            f"{_c(f.message)}{_c(also_phrase(problem))}")
    out = [head]
    if not details:
        return out
    ind = "    "
    if f.observed is not None or f.expected is not None:
        out += _evidence("observed", f.observed, ind)
        out += _evidence("expected", f.expected, ind)
    for words in official_words(f):
        out.append(f"{ind}the automated check says: {_c(str(words))}")
    if f.fix:
        out.append(f"{ind}fix: {_c(f.fix)}")
    if problem.severity is Severity.REJECT_POINTS:
        out.append(f"{ind}{paint('rejects this point (reject-points)', 'dim')}")
    if len(group) > 1:
        out.append(f"{ind}{same_at(f, group[1:])}")
    return out


# --- optional blocks -----------------------------------------------------------------------------

def verbose_lines(report, paint: _Paint) -> list[str]:
    """PASS and SKIP findings per subject (deselected rules are left out: --select chose them)."""
    out = []
    current = None
    for f in report.findings:
        if f.status is Status.FAIL or f.reason == "deselected":
            continue
        label = _c(f.subject.label())
        if label != current:
            current = label
            out.append(f"  {paint(label, 'path')}")
        word = "pass" if f.status is Status.PASS else "skip"
        out.append(f"    {paint(word, word)}  {f.rule_id}  {_c(f.message)}")
    return ["passed and skipped checks:"] + out if out else []


def statistics_lines(report) -> list[str]:
    """FAIL findings per rule, most frequent first."""
    titles = {r.id: r.title for r in report.rules}
    n = {(rid, Severity(sev)): k for rid, c in report.tally.by_rule.items() for sev, k in c.fail_by_severity().items()
         if k}
    if not n:
        return ["statistics: no problems"]
    rows = sorted(n.items(), key=lambda kv: (-kv[1], kv[0][0]))
    w = max(len(rid) for (rid, _), _ in rows)
    out = ["statistics (problems per rule):"]
    for (rid, sev), count in rows:
        out.append(f"  {count:>5}  {LEVEL_WORD[sev]:<7}  {rid:<{w}}  {titles.get(rid, '')}".rstrip())
    return out


def resolved_lines(report) -> list[str]:
    """--baseline: the problems of the baseline that are gone, one line each."""
    base = getattr(report, "sections", {}).get("baseline")
    if not base or not base["resolved"]:
        return []
    out = [f"resolved since the baseline ({base['counts']['resolved']}):"]
    for d in base["resolved"]:
        subj = "/".join(v for v in d["subject"].values() if v) or "(package)"
        what = d.get("part") or d.get("message") or f"fingerprint {d['fingerprint']}"
        out.append(_c(f"  {d['rule_id']} {subj}: {what}"))
    if base.get("resolved_not_listed"):
        out.append(f"  (and {base['resolved_not_listed']} more, counted but not listed)")
    return out


def cohort_lines(report) -> list[str]:
    """Cohort mode: one line per unit (gate verdict, label, problems in words, the rules' and Week-0 verdicts)."""
    cohort = getattr(report, "sections", {}).get("cohort")
    if not cohort:
        return []
    rows = cohort["submissions"]
    n_rf = sum(1 for r in rows if r["kind"] == "run-folder")
    out = [f"cohort: {len(rows) - n_rf} submission(s)" + (f" and {n_rf} run folder(s)" if n_rf else "")]
    width = max(len(r["label"]) for r in rows)
    for r in rows:
        v = report.tally.units[r["label"]]
        extra = "" if v.checked else " · check did not complete"
        out.append(_c(f"  {v.gate:<6}  {v.label:<{width}}  {short_counts(v.counts)} · {unit_verdicts(v)}{extra}"))
    return out


def summary_lines(report, paint: _Paint) -> list[str]:
    where_ = ""
    cohort = getattr(report, "sections", {}).get("cohort")
    if cohort:
        kinds = [r["kind"] for r in cohort["submissions"]]
        n_sub, n_rf = kinds.count("submission"), kinds.count("run-folder")
        where_ = " in " + " and ".join(x for x in (plural(n_sub, "submission") if n_sub else "",
                                                   plural(n_rf, "run folder") if n_rf else "") if x)
    gate = gate_phrase(report)
    base = baseline_phrase(report)
    if base:
        gate += f" · {base}"
    out = [f"{counts_phrase(report.tally.counts)}{causes_phrase(report.tally)}{where_} · {checks_phrase(report)}"]
    out += fix_lines(report)
    return out + [_c(week0_phrase(report)), paint(gate, report.verdict)]


def fix_lines(report) -> list[str]:
    """'[*] 3 fixable with --fix (--diff shows the changes)', and what --fix or --diff did."""
    out = []
    done = getattr(report, "sections", {}).get("fix")
    if done:
        verb = "fixed" if done["mode"] == "fix" else "would fix"
        files = [f for f in done["files"] if f["status"] != "not-fixed"]
        line = f"--{done['mode']}: {verb} {plural(done['findings'], 'problem')} in {plural(len(files), 'file')}"
        if not files and not done["not_fixed"]:
            line = f"--{done['mode']}: nothing to fix (no problem has a fix whose right value is certain)"
        if done["not_fixed"]:
            line += f"; {plural(done['not_fixed'], 'file')} not fixed (left as they were, see above)"
        out.append(_c(line))
    n = report.tally.fixable
    if n and not (done and done["mode"] == "diff"):
        out.append(f"[*] {n} fixable with --fix (--diff shows the changes first)")
    return out


def render_plain(report, quiet: bool = False, verbose: bool = False, statistics: bool = False,
                 colour: bool = False) -> str:
    paint = _Paint(colour)
    lines = [paint(header_line(report), "dim")]
    baseline = bool(getattr(report, "sections", {}).get("baseline"))
    groups = report.tally.problems
    if groups:
        lines.append("")
    for g in groups:
        lines += group_lines(g, paint, details=not quiet, baseline=baseline)
    blocks = []
    if verbose:
        blocks.append(verbose_lines(report, paint))
    if statistics:
        blocks.append(statistics_lines(report))
    if not quiet:
        from checker.render.metrics_digest import digest_lines

        blocks.append(digest_lines(report))
    blocks += [resolved_lines(report), cohort_lines(report)]
    for block in blocks:
        if block:
            lines.append("")
            lines.extend(block)
    lines.append("")
    lines += summary_lines(report, paint)
    return "\n".join(lines) + "\n"


def use_colour(stream=None) -> bool:
    stream = stream or sys.stdout
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty()) and os.environ.get("TERM") != "dumb" and not os.environ.get("NO_COLOR")


def render(report, quiet: bool = False, tty: bool | None = None, verbose: bool = False, statistics: bool = False,
           **_options) -> str:
    colour = use_colour() if tty is None else (tty and not os.environ.get("NO_COLOR"))
    return render_plain(report, quiet=quiet, verbose=verbose, statistics=statistics, colour=colour)
