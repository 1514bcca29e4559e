"""``accuracy_results.json`` (RUN-FOLDER.md §1.6; OFFICIAL-CHECKER.md §2.5), read in both shapes.

Shapes: the client's ``{"accuracy_scores": [entry, ...]}`` list (indexed by ``dataset_name``, never
by position), the same entries keyed by dataset (``{"accuracy_scores": {dataset: entry}}``, shape
"keyed list") and a top-level dataset-keyed mapping ``{dataset: {score, num_samples, n_repeats, ...}}``. The
entry with ``dataset_type: performance`` (or an untyped entry named ``performance``) is the inline
score of the performance run, not an accuracy run. Parsing never raises: every oddity becomes a
``problem`` (path, message, observed) that ``accuracy-valid`` reports with its line.
"""
from __future__ import annotations

import math
from typing import Any

import msgspec

from checker.core.values import show

#: entry keys that are bookkeeping, never a metric (for entries without a ``score``)
BOOKKEEPING = frozenset({
    "dataset_name", "extractor", "ground_truth_column", "unit_samples", "num_samples", "num_repeats",
    "n_repeats", "total_samples", "duration_s", "complete", "dataset_type", "response_counts",
    "output_sequence_lengths", "osl_tokenize_s", "breakdown", "responses",
})
#: top-level keys of the mapping shape that are not datasets
TOP_LEVEL_META = frozenset({"average_accuracy", "osl_tokenization_s", "accuracy_scores"})


def is_number(v: Any) -> bool:
    """A JSON number (bool is not a number here)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def finite(v: Any) -> bool:
    return is_number(v) and math.isfinite(v)


class Problem(msgspec.Struct):
    path: tuple
    message: str
    observed: Any = None


class AccuracyEntry(msgspec.Struct):
    """One scored dataset. ``path`` locates the entry in the file; metric paths extend it."""

    name: str
    path: tuple
    raw: dict
    dataset_type: str | None
    inline: bool
    metrics: dict[str, Any]  # metric name -> raw value (may be NaN, a string...)
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
        if is_count(u):
            if r is None:
                return u
            if is_count(r):
                return u * r
            return None
        if is_count(self.total_samples):
            return self.total_samples
        return None

    def key_path(self, key: str) -> tuple:
        return self.path + (key,)


class AccuracyFile(msgspec.Struct):
    shape: str  # "list" | "mapping" | "invalid"
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


def _alias(d: dict, a: str, b: str, path: tuple, problems: list) -> Any:
    """Value of key ``a`` or its alias ``b``; both present and different is a problem."""
    if a in d and b in d and d[a] != d[b]:
        problems.append(Problem(path + (b,), f"`{a}` ({show(d[a])}) and `{b}` ({show(d[b])}) disagree", d[b]))
    return d[a] if a in d else d.get(b)


def _entry(d: dict, name: str, path: tuple, problems: list) -> AccuracyEntry:
    dtype = d.get("dataset_type")
    if dtype is not None and not isinstance(dtype, str):
        problems.append(Problem(path + ("dataset_type",), f"`dataset_type` must be a string, got {show(dtype)}", dtype))
        dtype = None
    inline = dtype == "performance" or (dtype is None and name == "performance")
    metrics: dict[str, Any] = {}
    mpaths: dict[str, tuple] = {}
    scalar = False
    if "score" in d:
        s = d["score"]
        if isinstance(s, dict):
            for k, v in s.items():
                metrics[str(k)] = v
                mpaths[str(k)] = path + ("score", k)
        elif s is None:
            pass  # a scorer that produced nothing: the gate reports the missing metrics
        elif is_number(s):
            metrics["score"] = s
            mpaths["score"] = path + ("score",)
            scalar = True
        else:
            problems.append(Problem(path + ("score",), f"`score` must be a number or a mapping of metrics, got {show(s)}", s))
    else:
        for k, v in d.items():
            if k not in BOOKKEEPING and is_number(v):
                metrics[str(k)] = v
                mpaths[str(k)] = path + (k,)
        if not metrics:
            problems.append(Problem(path, f"entry {name!r} has no `score` and no numeric metric", None))
    unit = _alias(d, "unit_samples", "num_samples", path, problems)
    reps = _alias(d, "num_repeats", "n_repeats", path, problems)
    total = d.get("total_samples")
    for key, v in (("unit_samples", unit), ("num_repeats", reps), ("total_samples", total)):
        if v is not None and (not is_count(v) or v < 0):
            problems.append(Problem(path + (key,), f"`{key}` must be a non-negative integer, got {show(v)}", v))
    if not inline and is_count(unit) and is_count(reps) and is_count(total) and unit * reps != total:
        problems.append(Problem(path + ("total_samples",),
                                f"`total_samples` {total} is not unit_samples x num_repeats = {unit} x {reps} = {unit * reps}",
                                total))
    complete = d.get("complete")
    if complete is not None and not isinstance(complete, bool):
        problems.append(Problem(path + ("complete",), f"`complete` must be true or false, got {show(complete)}", complete))
    return AccuracyEntry(name=name, path=path, raw=d, dataset_type=dtype, inline=inline, metrics=metrics,
                         metric_paths=mpaths, scalar=scalar, unit_samples=unit, num_repeats=reps,
                         total_samples=total, complete=complete)


def _keyed(items: dict, prefix: tuple, out: AccuracyFile) -> None:
    """Entries keyed by dataset name (the key is the name unless the entry states `dataset_name`)."""
    names: dict[str, str] = {}
    for key in sorted(items, key=str):
        v = items[key]
        path = prefix + (key,)
        if not isinstance(v, dict):
            out.problems.append(Problem(path, f"dataset {str(key)!r} must map to an entry, got {show(v)}", v))
            continue
        name = v.get("dataset_name", key)
        if not isinstance(name, str) or not name:
            name = str(key)
        if name in names:
            out.problems.append(Problem(path + ("dataset_name",),
                                        f"dataset {name!r} appears twice (keys {names[name]!r} and {str(key)!r})", name))
            continue
        names[name] = str(key)
        out.entries.append(_entry(v, name, path, out.problems))


def parse_accuracy(data: Any) -> AccuracyFile:
    """Read either shape into an AccuracyFile; never raises."""
    if not isinstance(data, dict):
        got = "empty" if data is None else type(data).__name__
        return AccuracyFile("invalid", problems=[Problem((), f"the file must hold a mapping at the top level, not {got}")])
    items = data.get("accuracy_scores")
    if isinstance(items, dict):
        # the same entries keyed by dataset: {"accuracy_scores": {"cnn_dailymail": {...}}}
        out = AccuracyFile("keyed list")
        _keyed(items, ("accuracy_scores",), out)
    elif "accuracy_scores" in data:
        out = AccuracyFile("list")
        if not isinstance(items, list):
            out.problems.append(Problem(("accuracy_scores",), "`accuracy_scores` must be a list of entries or a "
                                        f"mapping keyed by dataset, got {show(items)}", items))
            return out
        seen: dict[str, int] = {}
        for i, item in enumerate(items):
            path = ("accuracy_scores", i)
            if not isinstance(item, dict):
                out.problems.append(Problem(path, f"entry {i} must be a mapping, got {show(item)}", item))
                continue
            name = item.get("dataset_name")
            if not isinstance(name, str) or not name:
                out.problems.append(Problem(path + ("dataset_name",), f"entry {i} has no `dataset_name`", name))
                continue
            if name in seen:
                out.problems.append(Problem(path + ("dataset_name",),
                                            f"dataset {name!r} appears twice (entries {seen[name]} and {i})", name))
                continue
            seen[name] = i
            if "score" not in item:
                out.problems.append(Problem(path, f"entry {name!r} has no `score`", None))
            out.entries.append(_entry(item, name, path, out.problems))
    else:
        out = AccuracyFile("mapping")
        _keyed({k: v for k, v in data.items() if k not in TOP_LEVEL_META}, (), out)
    if not out.entries and not out.problems:
        out.problems.append(Problem(("accuracy_scores",) if out.shape != "mapping" else (), "the file holds no scored dataset"))
    inl = [e for e in out.entries if e.inline]
    if len(inl) > 1:
        out.problems.append(Problem(inl[1].path, f"{len(inl)} inline (dataset_type: performance) entries; at most one is allowed",
                                    [e.name for e in inl]))
    return out


def score_items(scores: Any) -> list[tuple[Any, Any]]:
    """(index or dataset key, entry) of an `accuracy_scores` value in either shape (list, or keyed by dataset)."""
    if isinstance(scores, list):
        return list(enumerate(scores))
    if isinstance(scores, dict):
        return [(k, scores[k]) for k in sorted(scores, key=str)]
    return []


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
    """(LoadedFile or None, parsed AccuracyFile or None when absent/unloadable), memoised on the point."""

    def compute():
        lf = accuracy_file(point)
        if lf is None or not lf.ok:
            return lf, None
        return lf, parse_accuracy(lf.data)

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
