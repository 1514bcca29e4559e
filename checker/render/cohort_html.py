"""Cohort HTML: an index page (one row per submission, combined Pareto charts per benchmark model)
plus each submission's own report page, written together into one output folder.

Takes per-submission Reports (what parallel workers produce) or one Report holding several
submissions (split here), so either way of running a cohort can write the same folder. Page file
names are derived from a running number and a sanitised name, never from raw submitter strings.
"""
from __future__ import annotations

import os
import re
from collections import Counter

import msgspec

from checker.core.findings import Status
from checker.domain.point_metrics import metrics_for
from checker.engine.catalogue import load_catalogue
from checker.render import levels, svg
from checker.render.view import baseline_view, uses_interactivity, waivers_view

MAX_WORST = 3
#: the index's verdict groups, most severe first (the filter's checkboxes and the header's counts)
VERDICT_RANK = {"reject": 0, "flag": 1, "warning": 2, "pass": 3}
VERDICT_WORDS = {"reject": "would be rejected", "flag": "accepted, flagged", "warning": "accepted, with warnings",
                 "pass": "accepted"}


def _slug(s: str, limit: int = 40) -> str:
    out = re.sub(r"[^A-Za-z0-9._-]+", "_", s or "").strip("._-")[:limit]
    return out or "x"


def _sub_id(sub) -> str:
    """The submission id without the ``<org>/`` that cohort mode puts in its subject label."""
    name, org = sub.name, sub.org or ""
    return name[len(org) + 1:] if org and name.startswith(org + "/") else name


def split_report(report) -> list:
    """One Report per submission: its findings, a Package holding only it, the same policy/context, and its
    verdicts and counts as the engine's tally holds them for that submission (never the cohort's)."""
    from checker.load.package_tree import Package

    pkg = report.package
    subs = list(getattr(pkg, "submissions", None) or [])
    if len(subs) <= 1:
        return [report] if subs else []
    tally = report.tally
    sections = {k: v for k, v in report.sections.items() if k != "cohort"}
    out = []
    for sub in subs:
        part = Package(paths=[sub.rel], missing_paths=[], unusable_paths=[], submissions=[sub],
                                       run_folders=[], junk=[])
        own = tally.of_unit(sub.name) if sub.name in tally.units else None  # None: its own findings' tally
        findings = own.findings if own is not None else [f for f in report.findings if f.subject.submission == sub.name]
        out.append(msgspec.structs.replace(report, findings=findings, package=part, paths=[sub.rel],
                                           input_error=False, sections=sections, week0_by_submission={},
                                           _tally=own))
    return out


def cohort_level_findings(report) -> list:
    """What the index lists as the cohort's own: the cross-submission findings (``cohort.cross_submission_findings``,
    the rules that compare units) and the findings about no single submission (package, run folders)."""
    from checker.engine.tally import cross_submission

    cross = {id(f) for f in cross_submission(report.findings, report.rules)}
    return [f for f in report.findings if id(f) in cross or not f.subject.submission]


def _division(sub) -> str:
    vals = sorted({p.yaml.division for c in sub.curves() for p in c.loaded_points
                   if isinstance(p.yaml.division, str) and p.yaml.division})
    return ", ".join(vals) or "—"


def _ctx(report):
    from checker.render.view import _context

    return _context(report)


def _series(sub_report, sub, href: str) -> list[tuple[str, bool, svg.Series]]:
    ctx = _ctx(sub_report)
    tally = sub_report.tally
    out = []
    for system in sub.systems:
        for curve in system.curves:
            agentic = uses_interactivity(curve, ctx)
            marks = []
            for p in curve.points:
                m = metrics_for(p, ctx, load_catalogue().point_metrics)
                x = m.get("tps_per_user")
                if agentic:
                    x = getattr(p.summary, "e2e_avg_interactivity", None) if p.summary is not None else None
                failing = bool(tally.counts_under(sub.name, system.name, curve.name, p.name).failed)
                label = f"{sub.org + '/' if sub.org else ''}{_sub_id(sub)}/{system.name} {p.name}"
                tip = (f"{label} · concurrency {svg.fmt_num(p.concurrency)}\nsystem TPS {svg.fmt_num(m.get('system_tps'))}"
                       f" · {'interactivity' if agentic else 'TPS/user'} {svg.fmt_num(x)}"
                       + (" · has an error, flag or warning" if failing else ""))
                marks.append(svg.Mark(p.name, x, m.get("system_tps"), "unknown",
                                      p.offline if p.offline in ("dedicated", "elected") else "", failing, tip))
            label = f"{sub.org + ' / ' if sub.org else ''}{_sub_id(sub)} / {system.name}"
            out.append((curve.name, agentic, svg.Series(label, marks, href)))
    return out


def index_view(reports: list, pages: list[str], cohort_report=None) -> dict:
    """The index page's view: rows, combined charts per model, cohort-level findings."""
    from checker.core.version import __version__
    from checker.render.view import finding_row, ordered, scoped
    from checker.engine.report import TOOL_NAME

    from checker.engine.tally import worst_first

    rows, by_model = [], {}
    units = []
    for i, (rep, page) in enumerate(zip(reports, pages)):
        sub = rep.package.submissions[0]
        v = rep.tally.report  # this submission's verdicts and counts, as the engine computed them
        units.append(v)
        badge = levels.verdict(v)
        fails = worst_first(f for f in rep.findings if f.status is Status.FAIL)
        rows.append({
            "i": i, "org": sub.org or "—", "name": _sub_id(sub), "rel": sub.rel, "page": page,
            "systems": [s.name for s in sub.systems],
            "models": sorted({cv.name for cv in sub.curves()}),
            "division": _division(sub), "verdict": v.gate, "week0_reject": v.week0_reject,
            "rules_verdict": v.rules, "week0": v.week0["verdict"] if v.week0 is not None else "",
            "badge": badge, "verdicts": levels.unit_verdicts(v), "vrank": VERDICT_RANK[badge["key"]],
            "problems": levels.problems(v.counts.levels()),
            "counts": v.counts.by_status(), "sev": v.counts.fail_by_severity(),
            "worst": [{"rule": f.rule_id, "level": levels.LEVEL_OF[f.severity.value], "subject": f.subject.label(),
                       "message": f.message if len(f.message) <= 160 else f.message[:159] + "…"}
                      for f in fails[:MAX_WORST]],
            "more": max(0, v.counts.failed - MAX_WORST),
        })
        for model, agentic, series in _series(rep, sub, page):
            by_model.setdefault(model, []).append((agentic, series))
    charts = []
    for mi, model in enumerate(sorted(by_model)):
        items = by_model[model]
        series = [s for _a, s in items]
        kinds = {a for a, _s in items}
        xlabel = ("Interactivity, e2e_avg_interactivity (tok/s)" if kinds == {True}
                  else "TPS per user (tok/s)" if kinds == {False} else "TPS per user / interactivity (mixed curves)")
        legend = []
        for si, s in enumerate(series):
            pts = [m for m in s.marks if svg.finite(m.x) and svg.finite(m.y) and m.offline != "dedicated"]
            legend.append({"swatch": svg.legend_swatch(si), "label": s.label, "href": s.href, "n": len(s.marks),
                           "front": len(svg.frontier([(m.x, m.y) for m in pts])),
                           "max_tps": svg.fmt_num(max((m.y for m in pts), default=None)),
                           "max_x": svg.fmt_num(max((m.x for m in pts), default=None)),
                           "points": [(m.label, svg.fmt_num(m.x), svg.fmt_num(m.y), m.failing) for m in s.marks]})
        charts.append({"model": model, "anchor": f"m{mi}", "xlabel": xlabel, "legend": legend,
                       "svg": svg.overlay_chart(series, f"m{mi}-overlay",
                                                f"Pareto curves for {model}, {len(series)} curves overlaid",
                                                xlabel, "System TPS (tok/s)")})
    verdicts = Counter(r["badge"]["key"] for r in rows)
    base = cohort_report or (reports[0] if reports else None)
    others = [finding_row(i, f) for i, f in enumerate(cohort_level_findings(cohort_report))] if cohort_report else []
    return {
        "tool": {"name": TOOL_NAME, "version": __version__},
        "policy": {"edition": getattr(base, "policy_edition", ""), "version": getattr(base, "policy_version", "")},
        "generated_at": getattr(base, "generated_at", ""),
        "paths": sorted({p for r in reports for p in r.paths}) if cohort_report is None else list(cohort_report.paths),
        "rows": rows,
        "verdicts": [(k, verdicts[k], VERDICT_WORDS[k]) for k in VERDICT_RANK if verdicts[k]],
        "tally": (f"{levels.counts_phrase(cohort_report.tally.counts)} · {levels.checks_phrase(cohort_report)}"
                  if cohort_report is not None else ""),
        "week0_rejects": sum(1 for u in units if u.week0_reject),
        "week0_checked": sum(1 for u in units if u.week0 is not None),
        "week0_name": levels.week0_name(*units),
        "checked": {"name": os.path.basename(os.path.normpath(base.paths[0])) if base is not None and base.paths
                    else "cohort"},
        "charts": charts,
        "other_findings": ordered(others),
        "other_scoped": scoped(others),
        "waivers": waivers_view(cohort_report) if cohort_report else None,
        "baseline": baseline_view(cohort_report) if cohort_report else None,
        "data": {"orgs": sorted({r["org"] for r in rows}), "divisions": sorted({r["division"] for r in rows}),
                 "models": sorted(by_model), "total": len(rows)},
    }


def _flatten(reports, cohort=None) -> tuple[list, object]:
    """Accept one Report or a list; split multi-submission Reports; sort by organisation and name.

    ``cohort`` is the Report whose submission-less findings (package, cohort rules, run folders) the
    index lists; by default the single Report given, if only one was.
    """
    if not isinstance(reports, (list, tuple)):
        reports = [reports]
    cohort_report = cohort if cohort is not None else (reports[0] if len(reports) == 1 else None)
    flat = [part for r in reports for part in split_report(r)]
    flat.sort(key=lambda r: (r.package.submissions[0].org, r.package.submissions[0].name,
                             r.package.submissions[0].rel))
    return flat, cohort_report


def render_cohort(reports, cohort=None) -> dict[str, str]:
    """File name -> HTML for the whole folder: ``index.html`` plus one page per submission."""
    from checker.render import html

    flat, cohort_report = _flatten(reports, cohort)
    pages = [f"{i + 1:03d}-{_slug(r.package.submissions[0].org)}-{_slug(_sub_id(r.package.submissions[0]))}.html"
             for i, r in enumerate(flat)]
    out = {page: html.render(rep, back_link="index.html") for rep, page in zip(flat, pages)}
    view = index_view(flat, pages, cohort_report)
    out["index.html"] = html.environment().get_template("cohort.html.j2").render(v=view, **html.page_assets())
    return out


def write_cohort(reports, outdir: str, cohort=None) -> list[str]:
    """Write the cohort folder (created if missing); return the written paths, index first."""
    os.makedirs(outdir, exist_ok=True)
    files = render_cohort(reports, cohort)
    written = []
    for name in ["index.html"] + sorted(n for n in files if n != "index.html"):
        path = os.path.join(outdir, name)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(files[name])
        written.append(path)
    return written
