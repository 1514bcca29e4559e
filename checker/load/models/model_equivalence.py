"""The ``model_equivalence`` block of ``point.yaml``: our convention for the R§2.9 disclosures.

The rules say techniques are "disclosed in the submission YAML" but publish no field names; this
module defines them (generated into ``schemas/point.schema.json``). ``parse(point)`` validates the
block once per point (memoised with ``point.cached``) and keeps every type problem, with its
path inside point.yaml, for the ``me-block-valid`` rule.
"""
from __future__ import annotations

import math
from typing import Any, Optional

import msgspec
from pydantic import ConfigDict, Field

from checker.core.values import show
from checker.core.models import Problem
from checker.load.models.lenient import validate_lenient
from checker.load.models.common import FileModel
from checker.load.models.schema_types import YamlBool, any_of, as_schema, one_of, shown

BLOCK = "model_equivalence"
CACHE_KEY = "model_equivalence.parsed"


#: the convention's blocks refuse unknown keys in the schema (``me-block-valid`` reports them at run time)
_CLOSED = ConfigDict(json_schema_extra={"additionalProperties": False})
_URL = shown(str, pattern="^https?://")


class Checkpoint(FileModel):
    """Provenance of the served checkpoint (R§2.9.3)."""

    model_config = _CLOSED

    source: Optional[one_of("canonical", "derived", "preapproved")] = Field(
        None, description="where the served weights come from: the canonical weights, derived from them "
                          "(post-training quantization), or a checkpoint the Rules Task Force / WG pre-approved")
    checksum: Optional[shown(str, pattern="^sha256:[0-9a-fA-F]{64}$")] = Field(
        None, description="checksum of the checkpoint actually served, sha256:<64 hex digits>")
    components_retained: Optional[YamlBool] = Field(
        None, description="every component of the canonical checkpoint (MTP/EAGLE heads, auxiliary heads) is "
                          "kept in the derived artifact (R§2.9.3)")
    unused_components: Optional[list[Optional[str]]] = Field(
        None, description="components present in the artifact but not used at run time")


class Quantization(FileModel):
    """Post-training quantization; required when checkpoint.source is derived (R§2.9.3)."""

    model_config = _CLOSED

    method: Optional[str] = Field(None, description="the PTQ method: AWQ, GPTQ, bitsandbytes, FP8 dynamic, ...")
    formats: Optional[list[Optional[str]]] = Field(
        None, json_schema_extra=as_schema({"anyOf": [{"type": "array", "items": {"type": "string"}, "minItems": 1}, {"type": "null"}]}),
        description="the numerical formats used: INT8, INT4, FP8, ...")
    calibration_set: Optional[str] = Field(None, description="id of the benchmark's published calibration set")
    description_url: Optional[_URL] = Field(None, description="public description sufficient to reproduce the "
                                                              "quantization")


class KvCache(FileModel):
    """KV-cache disclosures (R§2.9.5)."""

    model_config = _CLOSED

    cross_query_reuse: Optional[YamlBool] = Field(None, description="KV state is shared across queries "
                                                                    "(prefix / prompt caching; permitted)")
    precision: Optional[str] = Field(None, description="KV-cache precision: BF16, FP16, FP32, auto (the "
                                                       "reference) or a reduced one (FP8, INT8, INT4)")
    quantization_method: Optional[str] = Field(None, description="how the KV cache is quantized; required when "
                                                                 "the precision is reduced")
    compression: Optional[str] = Field(None, description="`none`, or the name of a non-reference compression "
                                                         "method")
    disclosure_url: Optional[_URL] = Field(None, description="public write-up of the compression; required when "
                                                             "compression is not `none`")


class RuntimeSparsity(FileModel):
    """Run-time (dynamic approximate) sparsity; absent or null when not used (R§2.9.6.4, R§2.9.6.6)."""

    model_config = _CLOSED

    method: Optional[str] = Field(None, description="the method, e.g. attention-score or activation "
                                                    "thresholding")
    source_url: Optional[_URL] = Field(None, description="paper or code describing the method")
    threshold_parameter: Optional[str] = Field(None, description="name of the threshold parameter, e.g. lambda")
    value: Optional[float] = Field(None, description="the threshold's value at this point")
    calibration: Optional[str] = Field(None, description="`data-independent`, or the published calibration set "
                                                         "id")
    schedule: any_of({"const": "fixed"}, {"type": "object", "minProperties": 1}) = Field(
        None, description="`fixed`, or a mapping giving the distribution when the value varies within the run")


class Sampling(FileModel):
    """The sampling configuration used at this point; it must equal the benchmark's fixed values (R§2.9.1)."""

    model_config = _CLOSED

    temperature: Optional[shown(float, minimum=0)] = Field(None, description="sampling temperature")
    top_k: Optional[int] = Field(None, description="top-k sampling cut-off")
    top_p: Optional[shown(float, minimum=0, maximum=1)] = Field(None, description="nucleus (top-p) sampling "
                                                                                  "cut-off")
    repetition_penalty: Optional[float] = Field(None, description="repetition penalty")
    max_output_tokens: Optional[shown(int, minimum=1)] = Field(None, description="cap on generated tokens")
    stop: Optional[list[Optional[str]]] = Field(
        None, description="stop sequences")
    decoding: Optional[one_of("greedy", "stochastic")] = Field(None, description="greedy or stochastic; derived "
                                                                                 "from temperature / top_k when "
                                                                                 "absent")
    logprobs: any_of({"type": "boolean"}, {"type": "integer"}) = Field(
        None, description="the response returns logprobs or probabilities: true, or how many")


_NAME = {"type": "string", "minLength": 1, "description": "technique name, e.g. `fp8-kv-cache` or "
         "`query-coalescing` (compared lowercased, spaces and underscores as hyphens)"}
_TECHNIQUE = {"type": "object", "additionalProperties": False, "required": ["name"],
              "description": "a technique with its disclosure",
              "properties": {"name": {**_NAME, "description": "technique name"},
                             "description": {"type": "string",
                                             "description": "what was done (Serviced / RDI augmentation disclosure)"},
                             "disclosure_url": {"type": "string", "pattern": "^https?://",
                                                "description": "public write-up of the technique"}}}


class ModelEquivalence(FileModel):
    """Model-equivalence disclosures (R§2.9). The rules publish no field names: these are the checker's
    convention. Optional."""

    model_config = _CLOSED

    checkpoint: Optional[Checkpoint] = Field(None, description="provenance of the served checkpoint (R§2.9.3)")
    quantization: Optional[Quantization] = Field(None, description="post-training quantization; required when "
                                                                   "checkpoint.source is derived (R§2.9.3)")
    kv_cache: Optional[KvCache] = Field(None, description="KV-cache disclosures (R§2.9.5)")
    runtime_sparsity: Optional[RuntimeSparsity] = Field(None, description="run-time sparsity; absent or null when "
                                                                          "not used (R§2.9.6)")
    techniques: Optional[list[Any]] = Field(
        None, json_schema_extra=as_schema({"anyOf": [{"type": "array", "items": {"oneOf": [_NAME, _TECHNIQUE]}},
                                                {"type": "null"}]}),
        description="declared techniques: names, or {name, description, disclosure_url}; one on the disallowed "
                    "list fails in Standardized and needs a disclosure in Serviced / RDI (R§2.9.2)")
    sampling: Optional[Sampling] = Field(None, description="sampling configuration used at this point (R§2.9.1)")
    chat_template_flags: Optional[dict[str, Any]] = Field(
        None, description="chat-template flags sent (enable_thinking, clear_thinking, preserve_thinking, ...); "
                          "they must equal the benchmark's (R§2.9.7)")
    softmax_elision: Optional[YamlBool] = Field(None, description="vocabulary softmax elision is used: only under "
                                                                  "greedy decoding without logprobs (R§2.9.6.2, "
                                                                  "R§2.9.6.5)")


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
