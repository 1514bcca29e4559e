"""What the HTML page is about: the name of what was checked, and a metrics digest per run folder.

The page title and heading name the package, submission or run folder (its folder name), so a
browser tab or a file list says which report it is. A run folder checked on its own gets the few
numbers a reviewer looks at first (system TPS, TTFT p90, TPOT p90, region, duration) beside its
problems; in a submission the points table opens with the same columns.
"""
from __future__ import annotations

import os

from checker.render import levels, svg
from checker.core.values import is_int


def _base(path: str) -> str:
    return os.path.basename(os.path.normpath(path)) or path


def checked(report) -> dict:
    """{"name": folder name(s), "kind": "Submission" | "Package" | "Run folder" | ..., "detail": text}."""
    pkg = report.package
    subs = list(getattr(pkg, "submissions", None) or [])
    rfs = list(getattr(pkg, "run_folders", None) or [])
    paths = list(report.paths) or ["(nothing)"]
    name = _base(paths[0]) + (f" and {len(paths) - 1} more" if len(paths) > 1 else "")
    if rfs and not subs:
        kind = "Run folder" if len(rfs) == 1 else "Run folders"
        detail = "" if len(rfs) == 1 else f"{len(rfs)} run folders"
    elif len(subs) == 1 and not rfs and len(paths) == 1:
        kind, detail = "Submission", ""
    elif subs or rfs:
        kind = "Package"
        parts = ([f"{len(subs)} submission{'s' if len(subs) != 1 else ''}"] if subs else []) + (
            [f"{len(rfs)} run folder{'s' if len(rfs) != 1 else ''}"] if rfs else [])
        detail = ", ".join(parts)
    else:
        kind, detail = "Check of", ""
    return {"name": name, "kind": kind, "detail": detail}


def _summary_model(rf):
    lf = rf.files.get("result_summary")
    if lf is not None and lf.model is not None:
        return lf.model
    flat = rf.files.get("flat_result_summary")  # validated by the loader into the same model
    return flat.model if flat is not None else None


def _get(obj, name):
    try:
        return getattr(obj, name)
    except Exception:
        return None


def _concurrency(rf):
    py = rf.files.get("point_yaml")
    c = _get(py.model, "concurrency") if py is not None and py.model is not None else None
    if is_int(c):
        return c
    from checker.load.models.client_config import config_load_pattern

    lp = config_load_pattern(rf.files.get("config"))
    if lp is None:
        return None
    return lp.target_concurrency if lp.target_concurrency is not None else lp.type


def run_folder_digest(rf, counts, anchor: str) -> dict:
    """One run folder's numbers (formatted) and its problems (the tally's counts), for the page's run-folder
    section."""
    s = _summary_model(rf)
    py = rf.files.get("point_yaml")
    region = _get(py.model, "region") if py is not None and py.model is not None else None
    conc = _concurrency(rf)
    cells = {
        "system_tps": svg.fmt_num(_get(s, "derived_system_tps")),
        "ttft_p90_ms": svg.fmt_num(_get(s, "ttft_p90_ms")),
        "tpot_p90_ms": svg.fmt_num(_get(s, "tpot_p90_ms")),
        "region": region if isinstance(region, str) and region else "—",
        "duration_s": svg.fmt_num(_get(s, "duration_s")),
        "concurrency": svg.fmt_num(conc) if not isinstance(conc, str) else conc,
        "state": str(_get(s, "state")) if _get(s, "state") is not None else "—",
    }
    return {"name": rf.name, "rel": rf.rel, "anchor": anchor, "cells": cells, "problems": levels.problems(counts.levels()),
            "region_why": "" if cells["region"] != "—" else "no point.yaml beside the folder (or --point)"}


#: digest columns: (key, header, unit)
DIGEST_COLUMNS = (("system_tps", "System TPS", "tok/s"), ("ttft_p90_ms", "TTFT p90", "ms"),
                  ("tpot_p90_ms", "TPOT p90", "ms"), ("region", "Region (declared)", ""),
                  ("duration_s", "Duration", "s"), ("concurrency", "Concurrency", ""), ("state", "State", ""))
