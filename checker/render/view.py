"""The report view model: plain dicts the HTML templates (single and cohort) render.

Built once from a Report: header facts, findings rows, the submission > system > curve tree
with per-point metrics (``checker.domain.point_metrics``), computed regions and charts, and the rule
catalogue. Templates only format; escaping is Jinja's (autoescape) except for the SVG strings,
which ``checker.render.svg`` escapes itself.
"""
from __future__ import annotations

import json
from collections import Counter
from types import SimpleNamespace
from typing import Any

from checker.core.findings import Finding, Status, json_safe, point_sort_key
from checker.core.values import is_int
from checker.domain.benchmark import is_agentic, models_or_none
from checker.domain.point_metrics import metrics_for
from checker.domain.regions import REGION_ORDER, RegionInputError, compute_regions, derive_c_min
from checker.engine.catalogue import complete_rules, load_catalogue
from checker.render import levels, page, svg
from checker.core.values import is_int

STATUS_RANK = {"FAIL": 0, "SKIP": 1, "PASS": 2}

#: the points table opens with these (a run folder's digest), then the other metrics in registry order
KEY_METRICS = ("region_computed", "system_tps", "tps_per_user", "ttft_p90_ms", "tpot_p90_ms", "duration_s",
               "concurrency")

#: metrics whose values are words (left-aligned in the points table)
TEXT_METRICS = ("region_declared", "region_computed", "offline")

#: point metric key -> data-path keys whose FAIL marks that cell (a rule may also set extra={"metric": key})
METRIC_FIELDS = {
    "concurrency": {"concurrency", "max_supported_concurrency"},
    "region_declared": {"region"},
    "region_computed": {"region", "max_supported_concurrency"},
    "offline": {"offline"},
    "duration_s": {"duration_ns", "duration_s", "min_duration_ms"},
    "samples": {"n_samples_completed", "n_samples_issued", "min_sample_count"},
    "system_tps": {"system_tps", "output_sequence_lengths", "tps"},
    "tps_per_user": {"tpot", "tps_per_user"},
    "ttft_p90_ms": {"ttft", "ttft_p90_ms"},
    "provisioned_power_kw": {"provisioned_power_kw", "node_sets", "components"},
    "system_tps_per_kw": {"system_tps_per_kw"},
    "accuracy": {"accuracy_scores", "average_accuracy", "score"},
}


def _short(v: Any, limit: int = 300) -> str | None:
    if v is None:
        return None
    s = v if isinstance(v, str) else json.dumps(json_safe(v), ensure_ascii=False, sort_keys=False)
    return s if len(s) <= limit else s[: limit - 1] + "…"


def finding_row(i: int, f: Finding) -> dict:
    s = f.subject
    return {
        "i": i,
        "status": f.status.value,
        "level": levels.level_of(f.status.value, f.severity.value),
        "srank": STATUS_RANK[f.status.value],
        "severity": f.severity.value,
        "rank": f.severity.rank,
        "family": f.family,
        "rule": f.rule_id,
        "title": f.title,
        "subject": s.label(),
        "kind": s.kind,
        "message": f.message,
        "loc": f.location.short() if f.location is not None else "",
        "observed": _short(f.observed),
        "expected": _short(f.expected),
        "fix": f.fix if f.status is Status.FAIL else None,
        "official": levels.official_words(f),
        "reason": f.reason,
        "why": levels.skip_why(f.reason) if f.status is Status.SKIP else "",
        "baseline": levels.baseline_mark(f) if f.status is not Status.PASS else "",
        "key": (s.submission, s.system, s.model, s.point),
        "own_severity": f.severity.value != _default_severity(f.rule_id),
        "also": ", ".join(dict.fromkeys(a["rule_id"] for a in f.also)),  # named on the cause's row
        "caused_by": f"{f.caused_by['rule_id']} at {f.caused_by['subject']}" if f.caused_by else "",
    }


def _default_severity(rule_id: str) -> str | None:
    from checker.engine.catalogue import get_rule

    r = get_rule(rule_id)
    return r.severity.value if r is not None else None


def _line_levels(findings: list[Finding], rows: list[dict], problems) -> None:
    """A cause's row takes its problem line's level: the highest of the FAILs that follow from it."""
    index = {id(f): i for i, f in enumerate(findings)}
    for p in problems:
        if not p.consequences:
            continue
        for f in p.findings:
            r = rows[index[id(f)]]
            r["level"], r["rank"] = levels.level_of("FAIL", p.severity.value), p.severity.rank


def ordered(rows: list[dict]) -> list[dict]:
    """FAIL first, most severe first, then the report's subject order."""
    return sorted(rows, key=lambda r: (r["srank"], -r["rank"] if r["status"] == "FAIL" else 0, r["i"]))


def scoped(rows: list[dict], under=None, nested: str = "") -> dict:
    """A section's findings split for the page: problems shown, reviewer-relevant skips collapsed, the
    rest counted (passes and not-applicable skips are listed only in "all findings"). ``under``: the tally's
    counts of everything under the section (its badge), so a section whose problems sit in ``nested`` parts
    below says so instead of "no errors"."""
    rows = ordered(rows)
    fails = [r for r in rows if r["status"] == "FAIL" and not r["caused_by"]]  # a consequence: on its cause's row
    follow = sum(1 for r in rows if r["status"] == "FAIL" and r["caused_by"])
    skips = [r for r in rows if r["status"] == "SKIP" and r["reason"] != "not-applicable"]
    passed = sum(1 for r in rows if r["status"] == "PASS")
    reasons = Counter(r["why"] for r in skips)
    none = "No errors, flags or warnings."
    if not fails and under is not None and under.failed:
        none = f"None here: {levels.short_counts(under)} in {nested or 'the parts'} below."
    if not fails and follow:
        none = (f"None of its own: {levels.plural(follow, 'finding')} here follow from a problem shown with its "
                "cause.")
    return {"fails": fails, "skips": skips, "skip_reasons": sorted(reasons.items()), "passed": passed,
            "na": len(rows) - len(fails) - follow - len(skips) - passed, "none": none}


def _context(report):
    ctx = getattr(report, "context", None)
    if ctx is not None:
        return ctx
    return SimpleNamespace(package=report.package, policy=None, options={}, opt=lambda n, d=None: d)


def curve_regions(curve):
    """(Regions or None, why-not): C_max from point.yaml max_supported_concurrency, C_min derived."""
    declared = (p.yaml.max_supported_concurrency for p in curve.loaded_points)
    cmaxes = Counter(c if is_int(c) else None for c in declared)
    cmaxes.pop(None, None)
    if not cmaxes:
        return None, "no point declares max_supported_concurrency"
    c_max = sorted(cmaxes.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    c_min = derive_c_min([p.concurrency for p in curve.points if not p.is_dedicated_offline])
    if c_min is None:
        return None, "no fixed-concurrency point to derive C_min from"
    try:
        return compute_regions(c_max, c_min), ""
    except RegionInputError as exc:
        return None, str(exc)


def _marked_cells(findings: list[Finding]) -> set[str]:
    cells = set()
    for f in findings:
        if f.status is not Status.FAIL:
            continue
        if isinstance(f.extra, dict) and isinstance(f.extra.get("metric"), str):
            cells.add(f.extra["metric"])
        path = {str(p) for p in (f.location.path if f.location is not None else ())}
        for key, fields in METRIC_FIELDS.items():
            if path & fields:
                cells.add(key)
    return cells


def uses_interactivity(curve, ctx) -> bool:
    """Agentic curves plot e2e_avg_interactivity when their summaries report it, else TPS/user."""
    if not is_agentic(curve, models_or_none(ctx)):
        return False
    return any(p.summary is not None and svg.finite(p.summary.e2e_avg_interactivity) for p in curve.points)


def point_checks(fails: list[Finding]) -> list[dict]:
    """One entry per failing rule, most severe first: {"level": "error", "rule": id}."""
    seen: dict[str, Finding] = {}
    for f in sorted(fails, key=lambda f: (-f.severity.rank, f.rule_id)):
        seen.setdefault(f.rule_id, f)
    return [{"level": levels.LEVEL_OF[f.severity.value], "rule": rid} for rid, f in seen.items()]


def ordered_metrics(metrics: list) -> list:
    """(key, label, unit) rows: the run-folder digest first (KEY_METRICS order), then the rest."""
    first = {k: i for i, k in enumerate(KEY_METRICS)}
    return sorted(metrics, key=lambda m: (first.get(m[0], len(first)), metrics.index(m)))


def point_view(point, ctx, regions, findings: list[Finding], agentic: bool, verdicts=None) -> dict:
    m = metrics_for(point, ctx, load_catalogue().point_metrics)
    c = point.concurrency
    if point.is_dedicated_offline:
        region = "offline"
    elif regions is not None and is_int(c):
        region = regions.region_of(c) or "out_of_range"
    else:
        region = "unknown"
    fails = [f for f in findings if f.status is Status.FAIL]
    summ = point.summary
    x = m.get("tps_per_user")
    if agentic:
        x = getattr(summ, "e2e_avg_interactivity", None) if summ is not None else None
    checks = point_checks(fails)
    verdict = "; ".join(f"{c['level']}: {c['rule']}" for c in checks) if checks else "no errors, flags or warnings"
    week0 = levels.point_week0(verdicts)
    if week0:
        verdict += f"\n{week0}"
    cells = {k: svg.fmt_num(v) if not isinstance(v, str) else v for k, v in m.items()}
    tip = (f"{point.name} · concurrency {svg.fmt_num(c)} · region {svg.REGION_LABELS.get(region, region)}"
           + (f" (declared {m.get('region_declared')})" if m.get("region_declared") else "")
           + f"\nsystem TPS {svg.fmt_num(m.get('system_tps'))} · "
           + (f"interactivity {svg.fmt_num(x)}" if agentic else f"TPS/user {svg.fmt_num(x)}")
           + f" · TTFT p90 {svg.fmt_num(m.get('ttft_p90_ms'))} ms\n{verdict}")
    offline = point.offline if point.offline in ("dedicated", "elected") else ""
    return {
        "name": point.name,
        "region": region,
        "region_label": svg.REGION_LABELS.get(region, region),
        "cells": cells,
        "marked": _marked_cells(fails),
        "failing": bool(fails),
        "checks": checks,
        "week0": week0,
        "verdict": verdict,
        "x_text": svg.fmt_num(x),
        "mark": svg.Mark(point.name, x, m.get("system_tps"), region, offline, bool(fails), tip),
        "cmark": svg.Mark(point.name, c, m.get("system_tps"), region, offline, bool(fails), tip),
        "tmark": svg.Mark(point.name, c, m.get("ttft_p90_ms"), region, offline, bool(fails), tip),
    }


def curve_view(curve, ctx, by_key: dict, rows_by_key: dict, anchor: str, tally) -> dict:
    regions, why = curve_regions(curve)
    agentic = is_agentic(curve, models_or_none(ctx))
    inter = uses_interactivity(curve, ctx)
    sub, system = curve.system.submission.name, curve.system.name
    points = sorted(curve.points, key=lambda p: point_sort_key(p.name))
    pviews = [point_view(p, ctx, regions, by_key.get((sub, system, curve.name, p.name), []), inter,
                         (tally.point(sub, system, curve.name, p.name), tally.units.get(sub)))
              for p in points]
    xlabel = ("Interactivity, e2e_avg_interactivity (tok/s)" if inter else
              "TPS per user (tok/s; no e2e_avg_interactivity reported)" if agentic else "TPS per user (tok/s)")
    bands = [(n, *regions.bounds[n]) for n in REGION_ORDER] if regions is not None else []
    label = f"{system} / {curve.name}"
    charts = {
        "pareto": svg.pareto_chart([p["mark"] for p in pviews], f"{anchor}-pareto",
                                   f"Pareto curve, {label}: system TPS against "
                                   + ("interactivity" if inter else "TPS per user"),
                                   xlabel, "System TPS (tok/s)"),
        "tps": svg.concurrency_chart([p["cmark"] for p in pviews], f"{anchor}-tps",
                                     f"System TPS against concurrency, {label}", "System TPS (tok/s)", bands),
        "ttft": svg.concurrency_chart([p["tmark"] for p in pviews], f"{anchor}-ttft",
                                      f"TTFT p90 against concurrency, {label}", "TTFT p90 (ms)", bands),
    }
    rows = []
    for key, rs in rows_by_key.items():
        if key[:3] == (sub, system, curve.name):
            rows.extend(rs)
    present = {r["region"] for r in pviews}
    return {
        "name": curve.name,
        "anchor": anchor,
        "agentic": agentic,
        "interactivity": inter,
        "regions": regions.as_rows() if regions is not None else [],
        "c_max": regions.c_max if regions is not None else None,
        "c_min": regions.c_min if regions is not None else None,
        "regions_why": why,
        "points": pviews,
        # the metric columns some point of the curve has a value for (an agentic metric on a single-turn curve
        # is a column of dashes: left out, so the table fits a 1400 px page)
        "metric_keys": {k for p in pviews for k, v in p["cells"].items() if v not in (None, "", "—")},
        "charts": charts,
        "legend": [(r, svg.REGION_LABELS[r], svg.region_swatch(r))
                   for r in list(REGION_ORDER) + ["offline", "out_of_range", "unknown"] if r in present],
        "findings": ordered(rows),
        "scoped": scoped(rows),
        "problems": levels.problems(tally.counts_under(sub, system, curve.name).levels()),
        "n_failing_points": sum(1 for p in pviews if p["failing"]),
        "series_marks": [p["mark"] for p in pviews],
    }


def waivers_view(report) -> dict | None:
    """--waivers: every waiver of the file with its state in words (in force, expiring, expired, ...)."""
    ws = getattr(report, "sections", {}).get("waivers")
    if not ws:
        return None
    rows = [{**e, "state": levels.waiver_state(e)} for e in ws["entries"]]
    return {"file": ws["file"], "today": ws["today"], "rows": rows,
            "active": sum(1 for e in ws["entries"] if not e["expired"])}


def baseline_view(report, limit: int = 200) -> dict | None:
    """--baseline: the counts in words and the problems resolved since the baseline."""
    base = getattr(report, "sections", {}).get("baseline")
    if not base:
        return None
    resolved = [{"rule": d["rule_id"], "subject": "/".join(v for v in d["subject"].values() if v) or "(package)",
                 "what": d.get("part") or d.get("message") or ""} for d in base["resolved"][:limit]]
    return {"file": base["file"], "phrase": levels.baseline_phrase(report), "resolved": resolved,
            "more": base["counts"]["resolved"] - len(resolved)}


def build_view(report, back_link: str | None = None) -> dict:
    """Everything the report template needs, in display order."""
    from checker.core.version import __version__
    from checker.engine.report import TOOL_NAME

    ctx = _context(report)
    tally = report.tally
    rows = [finding_row(i, f) for i, f in enumerate(report.findings)]
    _line_levels(report.findings, rows, tally.problems)
    by_key: dict = {}
    rows_by_key: dict = {}
    for f, r in zip(report.findings, rows):
        by_key.setdefault(r["key"], []).append(f)
        rows_by_key.setdefault(r["key"], []).append(r)
    subs = []
    pkg = report.package
    for si, sub in enumerate(getattr(pkg, "submissions", []) or []):
        systems = []
        for yi, system in enumerate(sub.systems):
            curves = [curve_view(c, ctx, by_key, rows_by_key, f"s{si}-y{yi}-c{ci}", tally)
                      for ci, c in enumerate(system.curves)]
            own = [r for r in rows_by_key.get((sub.name, system.name, "", ""), [])]
            under = tally.counts_under(sub.name, system.name)
            systems.append({"name": system.name, "anchor": f"s{si}-y{yi}", "curves": curves,
                            "findings": ordered(own), "scoped": scoped(own, under, "its curves"),
                            "problems": levels.problems(under.levels())})
        own = [r for r in rows if r["key"][0] == sub.name and not r["key"][1]]
        under = tally.counts_under(sub.name)
        subs.append({"name": sub.name, "org": sub.org, "rel": sub.rel, "anchor": f"s{si}", "systems": systems,
                     "findings": ordered(own), "scoped": scoped(own, under, "its systems"),
                     "levels": under.levels()})
    run_folders = []
    for ri, rf in enumerate(getattr(pkg, "run_folders", []) or []):
        rf_rows = rows_by_key.get(("", "", "", rf.name), [])
        run_folders.append(page.run_folder_digest(rf, tally.counts_under("", "", "", rf.name), f"rf{ri}")
                           | {"findings": ordered(rf_rows), "scoped": scoped(rf_rows)})
    rf_names = {rf["name"] for rf in run_folders}
    others = [r for r in rows if not r["key"][0] and not (r["key"][3] in rf_names and not any(r["key"][1:3]))]
    counts = report.counts()
    lv = tally.counts.levels()
    families = sorted({r["family"] for r in rows if r["family"]})
    by_rule = tally.by_rule
    from checker.core.rule_pages import rule_url

    docs_url = getattr(report, "docs_url", "")
    catalogue = [{
        "id": r.id, "title": r.title, "family": r.family, "severity": r.severity.value, "scope": r.scope,
        "url": rule_url(r.family, r.id, docs_url),
        "clause": r.clause, "official": r.official, "summary": r.summary, "what": r.section("What it checks"),
        "why": r.section("Why"), "fix": r.section("How to fix"),
        "problems": levels.problems(by_rule[r.id].levels()) if r.id in by_rule else [],
    } for r in sorted(complete_rules(report.rules), key=lambda r: r.id)]
    metrics = ordered_metrics([(k, label, unit) for k, label, unit, _f in load_catalogue().point_metrics])
    return {
        "tool": {"name": TOOL_NAME, "version": __version__},
        "policy": {"edition": report.policy_edition, "version": report.policy_version,
                   "overrides": sorted(report.policy_overrides.items())},
        "paths": list(report.paths),
        "generated_at": report.generated_at,
        "verdict": report.verdict,
        "week0_reject": report.week0_reject,
        "week0": report.week0, "rules_verdict": report.rules_verdict,
        "badge": levels.verdict(tally.report),
        "levels": lv,
        "problems": levels.problems(lv),
        "level_meaning": levels.MEANING,
        "checked": page.checked(report),
        "fail_on": report.fail_on,
        "exit_code": report.exit_code(),
        "counts": counts,
        "findings": ordered(rows),
        "submissions": subs,
        "other_findings": ordered(others),
        "other_scoped": scoped(others),
        "run_folders": run_folders,
        "digest_columns": page.DIGEST_COLUMNS,
        "metrics": metrics,
        "text_metrics": TEXT_METRICS,
        "own_region": not any(k == "region_computed" for k, _l, _u in metrics),  # until the region family adds it
        "catalogue": [c for c in catalogue if c["problems"]],
        "catalogue_rest": [c for c in catalogue if not c["problems"]],
        "back_link": back_link,
        "waivers": waivers_view(report),
        "baseline": baseline_view(report),
        "data": {
            "statuses": ["FAIL", "SKIP", "PASS"],
            "severities": [s for s in counts["fail_by_severity"]],
            "families": families,
            "rules": sorted({r["rule"] for r in rows}),
            "rule_family": {r: f for r, f in sorted({(r["rule"], r["family"]) for r in rows})},
            "rule_severity": {r["rule"]: _default_severity(r["rule"]) for r in rows},
            "total": len(rows),
        },
    }
