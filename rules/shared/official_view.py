"""The submission as the Week-0 check (endpoints-submission-cli 1.5.3.0) reads it, file by file.

Each accessor gives what the official gets from one file: whether its reader can read it (its
``json.loads`` refuses a byte-order mark; PyYAML reads YAML 1.1, ``rules.shared.yaml11``), the model
its schema validates it into (``rules.shared.official_schema``, lax pydantic) and each schema problem
with its rule id, data path, words and fix. Memoised on the package node, so the Week-0 predicates of
every family share one validation per file. Pure: no I/O.
"""
from __future__ import annotations

from checker.core.values import is_int

import copy
from typing import Any

import msgspec

from rules.shared import official_schema, yaml11
from rules.shared.official_checks import dotted, spell  # noqa: F401  (the predicates' words)


class Read(msgspec.Struct):
    """One file as the official reads it."""

    lf: Any = None  # the LoadedFile, None when there is no file
    data: Any = None  # the document as the official's reader gets it (None when unreadable or absent)
    unreadable: str = ""  # why its reader refuses the file ("" when it reads it)
    model: Any = None  # the validated model, None when absent, unreadable or invalid
    problems: list = msgspec.field(default_factory=list)  # [(rule, path, why, fix)]

    @property
    def present(self) -> bool:
        return self.lf is not None and self.lf.exists


def _schemas(policy):
    return policy.get("week0_schemas")


#: a file the official reads but we cannot see: a key written twice (its readers keep the last value; ours
#: refuses the file), so no Week-0 predicate judges it
UNSEEN = "unseen"


def read(lf) -> tuple[Any, str]:
    """(document, "") or (None, why the official's reader refuses it), or (None, UNSEEN). YAML is read the
    PyYAML way."""
    if lf is None or not lf.exists:
        return None, "missing"
    if lf.is_json and lf.bom:
        return None, "it starts with a byte-order mark, which the automated check's JSON reader refuses"
    if lf.error is not None and lf.error.code == "duplicate-key":
        return None, UNSEEN
    if lf.error is not None:
        return None, f"it cannot be parsed ({lf.error.message})"
    data = as_written(lf)
    return (data if lf.is_json else yaml11.view(lf, data)), ""


def as_written(lf) -> Any:
    """``lf.data`` with every loose spelling our loader read as its value put back as written (``"8"`` for a
    count stays text here): the official reads what the file holds."""
    notes = [s for s in lf.spellings if s.path and s.written is not None]
    if not notes:
        return lf.data
    data = copy.deepcopy(lf.data)
    for note in notes:
        cur = data
        for step in note.path[:-1]:
            cur = cur[step]
        cur[note.path[-1]] = note.written
    return data


def validate(lf, policy, kind: str) -> Read:
    """Read ``lf`` and validate it as the official's ``kind`` model."""
    data, why = read(lf)
    out = Read(lf=lf if lf is not None and lf.exists else None, data=data,
               unreadable="" if why in ("missing", UNSEEN) else why)
    if out.lf is None or why:
        return out
    if kind == "point_yaml" and not isinstance(data, dict):
        out.unreadable = f"it is not a YAML mapping (it holds {yaml11_type(data)})"
        return out
    out.model, out.problems = official_schema.validated(_schemas(policy), kind, data)
    return out


def yaml11_type(data) -> str:
    return {type(None): "nothing", list: "a list", str: "text"}.get(type(data), type(data).__name__)


def point_config(point, policy) -> Read:
    """point.yaml as the official's PointConfig."""
    return point.cached("week0:point_yaml", lambda: validate(point.files.get("point_yaml"), policy, "point_yaml"))


def summary(point, policy) -> Read:
    """result_summary.json as the official's PointSummary."""
    return point.cached("week0:result_summary",
                        lambda: validate(point.files.get("result_summary"), policy, "result_summary"))


def system_desc(point, policy) -> Read:
    """A point's system_desc.json, validated (the official validates only the curve's first readable one)."""
    return point.cached("week0:system_desc", lambda: validate(point.files.get("system_desc"), policy, "system_desc"))


def curve_desc(curve, policy):
    """(the point whose system_desc.json the official validates, its Read) or (None, None): the first
    point, in r<N> order, whose file parses as a JSON object."""
    for point in curve.points:
        lf = point.files.get("system_desc")
        data, why = read(lf)
        if why == UNSEEN:
            return None, None  # the official validates a file we cannot see
        if not why and isinstance(data, dict):
            return point, system_desc(point, policy)
    return None, None


def accuracy(point, policy) -> Read:
    """accuracy_results.json as the official's AccuracyResult (the client's list read as a mapping)."""
    return point.cached("week0:accuracy", lambda: validate(point.files.get("accuracy"), policy, "accuracy"))


def power(system, policy) -> Read:
    """system_power.json as the official's SystemPower."""
    return system.cached("week0:power", lambda: validate(system.power, policy, "power"))


def concurrency(point, policy) -> int | None:
    """The concurrency the official counts a point at: its validated point.yaml's, else the raw field when
    it is a positive int, else r<N>'s N."""
    cfg = point_config(point, policy)
    if cfg.model is not None:
        return cfg.model.concurrency
    raw = cfg.data.get("concurrency") if isinstance(cfg.data, dict) else None
    if is_int(raw) and raw > 0:
        return raw
    return point.dir_concurrency


def c_max(curve, policy) -> int | None:
    """The curve's C_max as the official reads it: its validated system description's, else the raw field of
    the first readable one when it is a positive int."""
    _point, desc = curve_desc(curve, policy)
    if desc is None:
        return None
    if desc.model is not None:
        return desc.model.max_supported_concurrency
    raw = desc.data.get("max_supported_concurrency")
    return raw if is_int(raw) and raw > 0 else None


def c_min_override(curve, policy) -> tuple[int | None, list]:
    """(the declared c_min_override, []) or (None, [(point, why)]): every copy declares it or none, each a JSON
    integer in range, one value, and (where C_max is known) the concurrency of a fixed-concurrency point."""
    low, high = policy.get("week0_schemas").params["c_min_override_range"]
    reads = [(p, read(p.files.get("system_desc"))) for p in curve.points]
    if any(why == UNSEEN for _p, (_d, why) in reads):
        return None, []
    docs = [(p, d if isinstance(d, dict) else None) for p, (d, _w) in reads]
    if not any(d is not None and "c_min_override" in d for _p, d in docs):
        return None, []
    values, problems = set(), []
    for point, d in docs:
        v = d.get("c_min_override") if d is not None else None
        if d is None or "c_min_override" not in d:
            problems.append((point, f"{point.name}/system_desc.json does not declare c_min_override while another "
                                    "point does"))
        elif type(v) is not int or not low <= v <= high:
            problems.append((point, f"system_desc.json c_min_override is {spell(v)}; the automated check wants a "
                                    f"whole number from {low} to {high}"))
        else:
            values.add(v)
    if len(values) > 1:
        problems.append((curve.points[0], f"the points declare c_min_override {sorted(values)}; the automated check "
                                          "wants one value"))
    if problems:
        return None, problems
    (value,) = values
    if c_max(curve, policy) is not None:
        fixed = {concurrency(p, policy) for p in curve.points
                 if getattr(point_config(p, policy).model, "offline", None) != "dedicated"}
        if value not in fixed:
            return None, [(curve.points[0], f"c_min_override is {value} but no fixed-concurrency point runs at "
                                            f"concurrency {value}")]
    return value, []


def hit(rule: str, subject, why: str, lf=None, path: tuple = (), fix: str = ""):
    """A Week-0 Hit located at the file the user edits (``lf``: its LoadedFile, or a display path)."""
    from checker.core.week0 import Hit

    rel = lf if isinstance(lf, str) else (lf.rel if lf is not None else "")
    return Hit(rule, subject, why, file=rel, path=tuple(path), fix=fix)


def file_hits(rule_of_file: str, subject, r: Read, what: str) -> list:
    """The Hits of one Read: its reader's refusal, or each schema problem (``what`` names the file)."""
    if r.unreadable:
        return [hit(rule_of_file, subject, f"{what}: {r.unreadable}", r.lf,
                    fix=f"write {what} as plain UTF-8 {'JSON' if r.lf.is_json else 'YAML'} the automated check can read")]
    return [hit(rule, subject, f"{what}: {why}", r.lf, path, fix) for rule, path, why, fix in r.problems]


def forget(sub) -> None:
    """Drop this view's memos from the package nodes (they hold pydantic models of classes built at run time,
    which a cohort worker could not send back): called once the prediction is made."""
    for system in sub.systems:
        system._cache.pop("week0:power", None)
        for curve in system.curves:
            for point in curve.points:
                for key in [k for k in point._cache if k.startswith("week0:")]:
                    del point._cache[key]
