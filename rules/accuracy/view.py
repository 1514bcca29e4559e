"""The accuracy rules' view of ``accuracy_results.json``: scored entries read from the validated model.

``checker.load.models.accuracy`` checks each value's type (pydantic, problems located); this module
adds what needs several fields (unique dataset names, a score or a metric per entry, alias spellings
that agree, ``total_samples`` = unit x repeats, at most one inline ``dataset_type: performance``
entry) and gives the rules entries by dataset name with their metrics and paths. Pure: no I/O.
"""
from __future__ import annotations

from typing import Any

import msgspec

from checker.core.models import Problem
from checker.core.values import is_int, show
from checker.load.models.accuracy import BOOKKEEPING, AccuracyResults, DatasetMap, ScoresFile, is_number
from checker.load.models.legacy_results import carries_scores
from checker.load.models.lenient import validate_lenient


class AccuracyEntry(msgspec.Struct):
    """One scored dataset. ``path`` locates the entry in the file; metric paths extend it."""

    name: str
    path: tuple
    raw: dict
    dataset_type: str | None
    inline: bool
    metrics: dict[str, Any]  # metric name -> value as written (may be NaN, a string...)
    metric_paths: dict[str, tuple]
    scalar: bool  # the score was one unnamed number (key "score")
    unit_samples: Any = None
    num_repeats: Any = None
    total_samples: Any = None
    complete: Any = None

    @property
    def sample_count(self) -> int | None:
        """Samples scored, repeats included: unit x repeats, else total_samples; None when unstated."""
        u, r = self.unit_samples, self.num_repeats
        if is_int(u):
            if r is None:
                return u
            if is_int(r):
                return u * r
            return None
        if is_int(self.total_samples):
            return self.total_samples
        return None

    def key_path(self, key: str) -> tuple:
        return self.path + (key,)


class AccuracyFile(msgspec.Struct):
    shape: str  # "list" | "keyed list" | "mapping" | "invalid"
    entries: list[AccuracyEntry] = msgspec.field(default_factory=list)
    problems: list[Problem] = msgspec.field(default_factory=list)

    @property
    def runs(self) -> list[AccuracyEntry]:
        """Accuracy-dataset entries (what makes the file an accuracy run)."""
        return [e for e in self.entries if not e.inline]

    @property
    def inline(self) -> AccuracyEntry | None:
        found = [e for e in self.entries if e.inline]
        return found[0] if found else None

    def entry(self, name: str) -> AccuracyEntry | None:
        for e in self.entries:
            if e.name == name:
                return e
        return None


def _alias(s, a: str, b: str, path: tuple, problems: list) -> Any:
    """Value of field ``a`` or its older spelling ``b``; both given and different is a problem."""
    va, vb = getattr(s, a), getattr(s, b)
    if va is not None and vb is not None and va != vb:
        problems.append(Problem(path + (b,), f"`{a}` ({show(va)}) and `{b}` ({show(vb)}) disagree", vb))
    return va if va is not None else vb


def _entry(s, raw: dict, name: str, path: tuple, problems: list) -> AccuracyEntry:
    dtype = s.dataset_type
    inline = dtype == "performance" or (dtype is None and name == "performance")
    metrics: dict[str, Any] = {}
    mpaths: dict[str, tuple] = {}
    scalar = False
    if isinstance(s.score, dict):
        for k, v in s.score.items():
            metrics[k] = v
            mpaths[k] = path + ("score", k)
    elif s.score is not None:
        metrics["score"] = s.score
        mpaths["score"] = path + ("score",)
        scalar = True
    elif "score" not in raw:  # no score: the entry's numeric keys that are not bookkeeping are its metrics
        for k, v in (s.model_extra or {}).items():
            if k not in BOOKKEEPING and is_number(v):
                metrics[k] = v
                mpaths[k] = path + (k,)
        if not metrics:
            problems.append(Problem(path, f"entry {name!r} has no `score` and no numeric metric"))
    # a `score: null` (a scorer that produced nothing) leaves no metric: the gate reports the missing ones
    unit = _alias(s, "unit_samples", "num_samples", path, problems)
    reps = _alias(s, "num_repeats", "n_repeats", path, problems)
    total = s.total_samples
    if not inline and is_int(unit) and is_int(reps) and is_int(total) and unit * reps != total:
        problems.append(Problem(path + ("total_samples",),
                                f"`total_samples` {total} is not unit_samples x num_repeats = {unit} x {reps} = "
                                f"{unit * reps}", total))
    return AccuracyEntry(name=name, path=path, raw=raw, dataset_type=dtype, inline=inline, metrics=metrics,
                         metric_paths=mpaths, scalar=scalar, unit_samples=unit, num_repeats=reps,
                         total_samples=total, complete=s.complete)


def _keyed(items: dict, raw_items: dict, prefix: tuple, out: AccuracyFile) -> None:
    """Entries keyed by dataset name (the key is the name unless the entry states `dataset_name`)."""
    names: dict[str, str] = {}
    for key in sorted(items, key=str):
        s, path = items[key], prefix + (key,)
        name = s.dataset_name or str(key)
        if name in names:
            out.problems.append(Problem(path + ("dataset_name",),
                                        f"dataset {name!r} appears twice (keys {names[name]!r} and {str(key)!r})", name))
            continue
        names[name] = str(key)
        out.entries.append(_entry(s, raw_items[key], name, path, out.problems))


def _listed(items: list, raw_items: list, bad: set, out: AccuracyFile) -> None:
    seen: dict[str, int] = {}
    for i, s in enumerate(items):
        path = ("accuracy_scores", i)
        if s is None:  # dropped as invalid (already a problem), or written as null
            if path not in bad:
                out.problems.append(Problem(path, f"entry {i} must be a mapping, got null"))
            continue
        name = s.dataset_name
        if not name:
            if path + ("dataset_name",) not in bad:
                out.problems.append(Problem(path + ("dataset_name",), f"entry {i} has no `dataset_name`", name))
            continue
        if name in seen:
            out.problems.append(Problem(path + ("dataset_name",),
                                        f"dataset {name!r} appears twice (entries {seen[name]} and {i})", name))
            continue
        seen[name] = i
        if "score" not in raw_items[i]:
            out.problems.append(Problem(path, f"entry {name!r} has no `score`"))
        out.entries.append(_entry(s, raw_items[i], name, path, out.problems))


def accuracy_view(data: Any, model: AccuracyResults | None, problems: list) -> AccuracyFile:
    """The entries of a validated file (``model`` and its located ``problems``, as ``validate_lenient`` gives)."""
    problems = list(problems)
    if not isinstance(data, dict):
        return AccuracyFile("invalid", problems=problems)
    root = model.root if model is not None else None
    if "accuracy_scores" in data:
        # only accuracy_scores can be at fault in this shape; lenient validation retries without a wrong
        # accuracy_scores, which reads the other top-level keys as dataset entries: those are not problems
        problems = [p for p in problems if tuple(p.path[:1]) in ((), ("accuracy_scores",))]
        raw = data["accuracy_scores"]
        out = AccuracyFile("keyed list" if isinstance(raw, dict) else "list", problems=problems)
        bad = {tuple(p.path) for p in problems}
        scores = root.accuracy_scores if isinstance(root, ScoresFile) else None
        if isinstance(scores, dict) and isinstance(raw, dict):
            _keyed(scores, raw, ("accuracy_scores",), out)
        elif isinstance(scores, list) and isinstance(raw, list):
            _listed(scores, raw, bad, out)
    else:
        out = AccuracyFile("mapping", problems=problems)
        if isinstance(root, DatasetMap):
            _keyed(dict(root.model_extra or {}), data, (), out)
    if not out.entries and not out.problems:
        out.problems.append(Problem(("accuracy_scores",) if out.shape != "mapping" else (),
                                    "the file holds no scored dataset"))
    inl = [e for e in out.entries if e.inline]
    if len(inl) > 1:
        out.problems.append(Problem(inl[1].path, f"{len(inl)} inline (dataset_type: performance) entries; at most "
                                                 "one is allowed", [e.name for e in inl]))
    return out


def read_accuracy(data: Any) -> AccuracyFile:
    """Validate ``data`` (either shape) and read its entries; never raises."""
    model, problems = validate_lenient(AccuracyResults, data)
    return accuracy_view(data, model, problems)


def view_of(lf) -> AccuracyFile:
    """The view of a loaded file: from the model the loader attached (accuracy_results.json, or a results.json
    carrying ``accuracy_scores``: ``checker.load.models.legacy_results``), else validated here."""
    modelled = lf.kind == "accuracy" or (lf.kind == "accuracy_legacy" and carries_scores(lf.data))
    if modelled and (lf.model is not None or lf.field_errors):
        return accuracy_view(lf.data, lf.model, lf.field_errors)
    return read_accuracy(lf.data)


def accuracy_file(point):
    """The point's accuracy LoadedFile: accuracy_results.json, else a results.json carrying accuracy_scores."""
    files = getattr(point, "files", {}) or {}
    lf = files.get("accuracy")
    if lf is not None and lf.exists:
        return lf
    legacy = files.get("accuracy_legacy")
    if legacy is not None and legacy.exists and (legacy.error is not None
                                                 or isinstance(legacy.get("accuracy_scores"), (list, dict))):
        return legacy
    return None


def point_accuracy(point) -> tuple[Any, AccuracyFile | None]:
    """(LoadedFile or None, its AccuracyFile or None when absent/unloadable), memoised on the point."""

    def compute():
        lf = accuracy_file(point)
        if lf is None or not lf.ok:
            return lf, None
        return lf, view_of(lf)

    return point.cached("accuracy:parsed", compute)


def has_accuracy_run(point) -> bool:
    """True when the point carries an accuracy run (a loadable file with an accuracy-dataset entry,
    or a file that exists but cannot be read: it is meant as one)."""
    lf, acc = point_accuracy(point)
    if lf is None:
        return False
    if acc is None:
        return True
    return bool(acc.runs) or not acc.entries
