"""A metrics digest for the terminal: one row per point or run folder (concurrency, region,
system TPS, TTFT p90, TPOT p90, duration), so a reader sees what was measured next to the verdict.

Values come from the typed result_summary.json model and the registered point metrics; anything
that cannot be computed shows as ``-``, never as an error.
"""
from __future__ import annotations

from checker.domain.regions import REGION_LABELS
from checker.render.as_written import printable
from checker.core.values import is_int, loaded_mapping

COLUMNS = ("", "conc.", "region", "system TPS", "TTFT p90", "TPOT p90", "duration")

_REGION_WORD = {**REGION_LABELS, "out of range": "out of range"}


def _num(v, unit: str = "", digits: int = 1) -> str:
    if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v:
        return "-"
    return f"{v:,.{digits}f}{unit}"


def _row(name, conc, region, summary) -> tuple:
    s = summary
    return (name, "-" if conc is None else printable(conc), printable(region or "-"),
            _num(s.derived_system_tps if s else None),
            _num(s.ttft_p90_ms if s else None, " ms"),
            _num(s.tpot_p90_ms if s else None, " ms", 2),
            _num(s.duration_s if s else None, " s", 0))


def point_rows(curve, ctx) -> list[tuple]:
    from checker.domain.point_metrics import metrics_for
    from checker.engine.catalogue import load_catalogue

    metrics = load_catalogue().point_metrics
    rows = []
    for p in curve.points:
        m = metrics_for(p, ctx, metrics) if ctx is not None else {}
        region = m.get("region_computed") or m.get("region_declared")
        rows.append(_row(p.name, p.concurrency, _REGION_WORD.get(region, region), p.summary))
    return rows


def _run_folder_summary(rf):
    lf = rf.files.get("result_summary")
    if lf is None or not lf.exists:
        lf = rf.files.get("flat_result_summary")
    if loaded_mapping(lf) is None:
        return None
    return lf.model  # both kinds validate into ResultSummary (checker.load.file_kinds.FILE_KINDS)


def _load_pattern(rf) -> tuple:
    for kind, path in (("config", ("settings", "load_pattern")), ("result_summary", ("run_config", "load_pattern")),
                       ("flat_result_summary", ("run_config", "load_pattern"))):
        lf = rf.files.get(kind)
        if loaded_mapping(lf) is not None:
            lp = lf.data
            for key in path:
                lp = lp.get(key) if isinstance(lp, dict) else None
            if isinstance(lp, dict):
                return lp.get("type"), lp.get("target_concurrency")
    return None, None


def _run_folder_region(rf, ctx, kind, conc) -> str:
    py = rf.files.get("point_yaml")
    if py is not None and py.model is not None and getattr(py.model, "offline", None) == "dedicated":
        return REGION_LABELS["offline"]
    if kind not in (None, "concurrency"):
        return f"none ({kind})"
    if not isinstance(conc, int) or isinstance(conc, bool) or conc < 1:
        return "-"
    cmax = ctx.opt("max_concurrency") if ctx is not None else None
    sd = rf.files.get("system_desc")
    model = sd.model if sd is not None else None
    if cmax is None and model is not None:
        cmax = model.max_supported_concurrency
    if not isinstance(cmax, int) or isinstance(cmax, bool):
        return "?" if conc > 32 else REGION_LABELS["ultra_low"]
    cmin = getattr(model, "c_min_override", None) if model is not None else None
    from checker.domain.regions import RegionInputError, compute_regions

    try:
        r = compute_regions(cmax, cmin if is_int(cmin) else 1)
    except (RegionInputError, OverflowError, ValueError):
        return "-"
    name = r.region_of(conc) or "out of range"
    return _REGION_WORD.get(name, name)


def run_folder_row(rf, ctx) -> tuple:
    kind, conc = _load_pattern(rf)
    return _row(printable(rf.name), conc, _run_folder_region(rf, ctx, kind, conc), _run_folder_summary(rf))


def table(rows: list[tuple], indent: str = "  ") -> list[str]:
    """Right-aligned numeric columns under a header row; nothing is cut."""
    allrows = [COLUMNS] + rows
    widths = [max(len(str(r[i])) for r in allrows) for i in range(len(COLUMNS))]
    out = []
    for r in allrows:
        cells = [str(r[0]).ljust(widths[0]), str(r[1]).rjust(widths[1]), str(r[2]).ljust(widths[2])]
        cells += [str(r[i]).rjust(widths[i]) for i in range(3, len(COLUMNS))]
        out.append(indent + "  ".join(cells).rstrip())
    return out


def digest_lines(report) -> list[str]:
    """Digest blocks for every curve and run folder of a single-package report (cohorts: none)."""
    pkg = report.package
    ctx = getattr(report, "context", None)
    if pkg is None or getattr(report, "sections", {}).get("cohort"):
        return []
    out: list[str] = []
    try:
        for sub in pkg.submissions:
            for curve in sub.curves():
                if curve.points:
                    out.append(printable(f"metrics of {curve.rel}:"))
                    out += table(point_rows(curve, ctx))
        if pkg.run_folders:
            out.append("metrics of the run folder:" if len(pkg.run_folders) == 1 else "metrics of the run folders:")
            out += table([run_folder_row(rf, ctx) for rf in pkg.run_folders])
    except Exception:  # a digest never breaks the report
        return []
    return out
