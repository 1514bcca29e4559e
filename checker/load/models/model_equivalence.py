"""The ``model_equivalence`` block of ``point.yaml``: our convention for the R§2.9 disclosures.

The rules say techniques are "disclosed in the submission YAML" but publish no field names; this
module defines them (documented in ``schemas/point.schema.json``). ``parse(point)`` validates the
block once per point (memoised with ``point.cached``) and keeps every type problem, with its
path inside point.yaml, for the ``me-block-valid`` rule.
"""
from __future__ import annotations

import math
from typing import Any, Optional

import msgspec

from checker.core.values import show
from checker.core.models import Problem
from checker.load.models.lenient import validate_lenient
from checker.load.models.common import FileModel

BLOCK = "model_equivalence"
CACHE_KEY = "model_equivalence.parsed"


class Checkpoint(FileModel):
    source: Optional[str] = None  # canonical | derived | preapproved
    checksum: Optional[str] = None  # sha256:<64 hex> of the checkpoint actually served
    components_retained: Optional[bool] = None
    unused_components: Optional[list[Optional[str]]] = None


class Quantization(FileModel):
    method: Optional[str] = None
    formats: Optional[list[Optional[str]]] = None
    calibration_set: Optional[str] = None
    description_url: Optional[str] = None


class KvCache(FileModel):
    cross_query_reuse: Optional[bool] = None
    precision: Optional[str] = None
    quantization_method: Optional[str] = None
    compression: Optional[str] = None  # "none" or the name of a non-reference method
    disclosure_url: Optional[str] = None


class RuntimeSparsity(FileModel):
    method: Optional[str] = None
    source_url: Optional[str] = None
    threshold_parameter: Optional[str] = None
    value: Optional[float] = None  # the value at this point
    calibration: Optional[str] = None  # "data-independent" or the published calibration set id
    schedule: Any = None  # "fixed", or a mapping describing the distribution


class Sampling(FileModel):
    temperature: Optional[float] = None
    top_k: Optional[int] = None
    top_p: Optional[float] = None
    repetition_penalty: Optional[float] = None
    max_output_tokens: Optional[int] = None
    stop: Optional[list[Optional[str]]] = None
    decoding: Optional[str] = None  # greedy | stochastic (derived from the values when absent)
    logprobs: Any = None  # true / a count when the response returns logprobs or probabilities


class ModelEquivalence(FileModel):
    checkpoint: Optional[Checkpoint] = None
    quantization: Optional[Quantization] = None
    kv_cache: Optional[KvCache] = None
    runtime_sparsity: Optional[RuntimeSparsity] = None
    techniques: Optional[list[Any]] = None  # names, or {name, description, disclosure_url}
    sampling: Optional[Sampling] = None
    chat_template_flags: Optional[dict[str, Any]] = None
    softmax_elision: Optional[bool] = None


class Technique(msgspec.Struct):
    """One entry of ``techniques``: its index, normalised name and whether it carries a disclosure."""

    index: int
    name: str | None  # normalised (lowercase, hyphens); None when the entry is not usable
    raw: Any
    disclosed: bool


class Parsed(msgspec.Struct):
    present: bool  # the block exists (and is not null)
    model: ModelEquivalence | None
    problems: list[Problem] = msgspec.field(default_factory=list)
    techniques: list[Technique] = msgspec.field(default_factory=list)


def norm_name(value: Any) -> str | None:
    """Technique / identifier spelling normalised for comparison: 'Query Coalescing' -> 'query-coalescing'."""
    if not isinstance(value, str):
        return None
    s = "-".join(value.strip().lower().replace("_", " ").replace("/", " ").split())
    return s or None


def _techniques(raw: Any, problems: list[Problem]) -> list[Technique]:
    out: list[Technique] = []
    if raw is None:
        return out
    if not isinstance(raw, list):
        problems.append(Problem((BLOCK, "techniques"), f"field `{BLOCK}.techniques`: expected a list, got "
                                     f"{show(raw)}", raw))
        return out
    for i, item in enumerate(raw):
        if isinstance(item, str) and norm_name(item):
            out.append(Technique(i, norm_name(item), item, False))
        elif isinstance(item, dict) and norm_name(item.get("name")):
            url, desc = item.get("disclosure_url"), item.get("description")
            disclosed = (isinstance(url, str) and url.startswith(("http://", "https://"))) or (
                isinstance(desc, str) and bool(desc.strip()))
            out.append(Technique(i, norm_name(item["name"]), item, disclosed))
            for key in sorted(set(map(str, item)) - {"name", "description", "disclosure_url"}):
                problems.append(Problem((BLOCK, "techniques", i, key), f"field `{BLOCK}.techniques.{i}.{key}` is "
                                             "not defined (known: name, description, disclosure_url)", key))
        else:
            problems.append(Problem((BLOCK, "techniques", i),
                                         f"field `{BLOCK}.techniques.{i}`: expected a technique name or a mapping "
                                         f"with `name`, got {show(item)}", item))
            out.append(Technique(i, None, item, False))
    return out


def _non_finite(model: ModelEquivalence, problems: list[Problem]) -> None:
    """Strict float fields accept NaN/inf; they are never a real disclosure value."""
    checks = []
    if model.sampling is not None:
        checks += [(("sampling", k), getattr(model.sampling, k)) for k in ("temperature", "top_p", "repetition_penalty")]
    if model.runtime_sparsity is not None:
        checks.append((("runtime_sparsity", "value"), model.runtime_sparsity.value))
    for path, v in checks:
        if isinstance(v, float) and not math.isfinite(v):
            problems.append(Problem((BLOCK, *path), f"field `{BLOCK}.{'.'.join(path)}`: expected a finite "
                                         f"number, got {v!r}", v))
            obj = getattr(model, path[0])
            setattr(obj, path[1], None)


_SUBMODELS = {"checkpoint": Checkpoint, "quantization": Quantization, "kv_cache": KvCache,
              "runtime_sparsity": RuntimeSparsity, "sampling": Sampling}


def _unknown_keys(raw: dict, problems: list[Problem]) -> None:
    """Keys the convention does not define (typos such as `quantisation`) would be silently ignored."""
    from checker.core.models import keys_of as fields_of
    from checker.load.models.keys import closest

    levels = [((), raw, ModelEquivalence)] + [((k,), raw.get(k), cls) for k, cls in _SUBMODELS.items()]
    for prefix, data, cls in levels:
        if not isinstance(data, dict):
            continue
        for key in sorted(map(str, data)):
            if key not in fields_of(cls):
                dotted = ".".join((BLOCK, *prefix, key))
                guess = closest(key, fields_of(cls))
                mean = f"did you mean `{guess}`? " if guess else ""
                problems.append(Problem((BLOCK, *prefix, key), f"field `{dotted}` is not defined ({mean}known: "
                                             f"{', '.join(fields_of(cls))})", key))


def parse_block(raw: Any) -> Parsed:
    """Validate a raw ``model_equivalence`` value (None = absent)."""
    if raw is None:
        return Parsed(False, None)
    problems: list[Problem] = []
    if not isinstance(raw, dict):
        problems.append(Problem((BLOCK,), f"field `{BLOCK}`: expected a mapping, got {show(raw)}", raw))
        return Parsed(True, None, problems)
    model, inner = validate_lenient(ModelEquivalence, raw)
    for p in inner:
        problems.append(Problem((BLOCK, *p.path), p.message.replace("field `", f"field `{BLOCK}.", 1), p.observed))
    if model is None:
        return Parsed(True, None, problems)
    _non_finite(model, problems)
    techniques = _techniques(raw.get("techniques"), problems)
    _unknown_keys(raw, problems)
    return Parsed(True, model, problems, techniques)


def parse(point) -> Parsed:
    """The point's parsed block, computed once per point and shared by every rule."""

    def compute() -> Parsed:
        lf = point.files.get("point_yaml")
        if lf is None or not lf.ok or not isinstance(lf.data, dict):
            return Parsed(False, None)
        return parse_block(lf.data.get(BLOCK))

    return point.cached(CACHE_KEY, compute)
