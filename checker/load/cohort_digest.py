"""What a cohort rule reads of each unit: a small picklable digest of one submission or run folder.

A worker builds the digest (seed sets, target cohorts, divisions, hardware descriptions, with the
file positions) from the loaded submission; the cross-submission rules (``rules/cohort``) read the
digests only, so they need neither the packages nor any file I/O.
"""
from __future__ import annotations

import msgspec

from checker.core.findings import Subject, json_safe
from checker.load.reader import LoadedFile


class Unit(msgspec.Struct, frozen=True):
    kind: str  # "submission" | "run-folder"
    path: str  # absolute path, storage URL or run archive (checker.load.mirror)
    rel: str  # display path
    org: str
    sid: str  # raw submission id (directory name) or run folder name
    label: str  # subject label in the report



def base_digest(unit: Unit, crashed: str | None = None) -> dict:
    return {"label": unit.label, "kind": unit.kind, "org": unit.org, "id": unit.sid, "rel": unit.rel,
            "crashed": crashed, "systems": [], "models": [], "divisions": [], "seed_sets": {},
            "target_cohorts": {}, "hardware": {}}


def _loc(lf: LoadedFile, path: tuple, subject: Subject) -> dict:
    line, col = lf.position(path) if lf.exists else (None, None)
    return {"file": lf.rel, "path": list(path), "line": line, "column": col, "subject": subject}


def digest_submission(sub, unit: Unit) -> dict:
    """What the cross-submission rules need from one loaded submission: plain, picklable values."""
    d = base_digest(unit)
    d["systems"] = [s.name for s in sub.systems]
    d["models"] = sorted({c.name for c in sub.curves()})
    divisions = set()
    for p in sub.points():
        y = p.yaml
        if y is None:
            continue
        lf = p.files["point_yaml"]
        if isinstance(y.seed_set, str) and y.seed_set not in d["seed_sets"]:
            d["seed_sets"][y.seed_set] = _loc(lf, ("seed_set",), p.subject)
        if isinstance(y.target_cohort, str) and y.target_cohort not in d["target_cohorts"]:
            d["target_cohorts"][y.target_cohort] = _loc(lf, ("target_cohort",), p.subject)
        div = getattr(y, "division", None)
        if isinstance(div, str) and div:
            divisions.add(div)
    d["divisions"] = sorted(divisions)
    for s in sub.systems:
        for c in s.curves:
            desc = next((p.files["system_desc"] for p in c.points
                         if p.files.get("system_desc") is not None and p.files["system_desc"].ok
                         and isinstance(p.files["system_desc"].data, dict)), None)
            if desc is None:
                continue
            name = desc.data.get("system_name")
            nodes = desc.data.get("node_types")
            paths = [(k,) for k in desc.data] + [("node_types", i, k) for i, n in enumerate(nodes or [])
                                                  if isinstance(n, dict) for k in n] if isinstance(nodes, list) \
                else [(k,) for k in desc.data]
            d["hardware"][s.name] = {
                "key": name if isinstance(name, str) and name.strip() else s.name,
                "data": json_safe({k: v for k, v in desc.data.items() if k != "node_types"}),
                "node_types": json_safe(nodes),
                "loc": _loc(desc, ("node_types",), s.subject),
                "positions": [(p, *desc.position(p)) for p in paths],
            }
            break
    return d


def loc_file(loc: dict, positions=()) -> LoadedFile:
    """A stand-in LoadedFile resolving the positions the digest kept (rules need no file I/O)."""
    lf = LoadedFile(kind="digest", rel=loc["file"], abspath=loc["file"], exists=True)
    lf._positions = {tuple(p): (line, col) for p, line, col in positions if line}
    if loc.get("line"):
        lf._positions[tuple(loc["path"])] = (loc["line"], loc["column"])
    return lf


def failed_unit_digest(unit: Unit, why: str) -> dict:
    return base_digest(unit, crashed=why)
