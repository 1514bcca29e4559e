"""Shared pieces of the model-equivalence family: its policy schema and subject helpers.

The policy (``rules/policy/v1.0/model_equivalence.yaml``) holds the disallowed-technique list,
division gating and the per-benchmark fixed values; the helpers resolve a point's division and
benchmark and turn "the block is absent" into the same SKIP for every point rule.
"""
from __future__ import annotations

from pydantic import Field

from typing import Any, Literal, NamedTuple, Optional


from checker.load.models.model_equivalence import BLOCK, Parsed, norm_name, parse
from checker.core.policy import PolicyUnavailable
from checker.core.rule import Skipped
from rules.shared.strict import StrictModel as _Strict

POLICY = "model_equivalence"
NEEDS = ("point_yaml", "policy:model_equivalence")


class TechniqueInfo(_Strict):
    """One disallowed technique."""

    title: str = Field(description="what the technique is, in a line")
    clause: str = Field(description="the clause that disallows it")
    aliases: list[str] = Field([], description="other names point.yaml may use for it")


class BenchmarkSampling(_Strict):
    """A benchmark's fixed sampling values (R§2.9.1); absent = not published."""

    temperature: Optional[float] = Field(None, description="fixed temperature")
    top_k: Optional[int] = Field(None, description="fixed top-k")
    top_p: Optional[float] = Field(None, description="fixed top-p")
    repetition_penalty: Optional[float] = Field(None, description="fixed repetition penalty")
    max_output_tokens: Optional[int] = Field(None, description="fixed cap on generated tokens")
    stop: Optional[list[str]] = Field(None, description="fixed stop sequences")


class BenchmarkFixed(_Strict):
    """The values a benchmark fixes; only published ones are listed."""

    calibration_set: Optional[str] = Field(None, description="id of the published calibration set (R§2.9.3)")
    decoding: Optional[Literal["greedy", "stochastic"]] = Field(None, description="greedy or stochastic")
    sampling: Optional[BenchmarkSampling] = Field(None, description="fixed sampling values")
    chat_template_flags: Optional[dict[str, Any]] = Field(
        None, description="chat-template flags that must be sent as given (R§2.9.7)")


class ModelEquivalencePolicy(_Strict):
    """Disallowed techniques, division gating and per-benchmark fixed values (R§2.9)."""

    schema_version: int = Field(description="version of this file's layout")
    full_rules_divisions: list[str] = Field(description="divisions where model equivalence is required")
    disclosure_only_divisions: list[str] = Field(
        description="divisions that may augment with a disclosure (completeness rules only)")
    #: division -> techniques it may not use even with a disclosure (ids of disallowed_techniques)
    division_bans: dict[str, list[str]] = Field(
        {}, description="division -> techniques it may not use even with a disclosure")
    disallowed_techniques: dict[str, TechniqueInfo] = Field(
        description="technique id -> what it is and the clause disallowing it")
    checkpoint_sources: list[str] = Field(description="values checkpoint.source may take")
    preapproved_checkpoints: list[str] = Field(
        [], description="checksums of checkpoints the Rules Task Force / WG pre-approved (R§2.9.3)")
    kv_reference_precisions: list[str] = Field(description="KV-cache precisions that need no disclosure (R§2.9.5)")
    kv_reference_compression: list[str] = Field(description="KV-cache compression values that need no disclosure")
    data_independent_calibration: list[str] = Field(
        description="runtime_sparsity.calibration values that are not a dataset (R§2.9.6.4)")
    benchmarks: dict[str, BenchmarkFixed] = Field({}, description="canonical benchmark id -> its fixed values")
    config_keys: dict[str, str] = Field(
        {}, description="point.yaml sampling key -> client config.yaml model_params key")
    thinking_flags: list[str] = Field([], description="chat-template flags that switch reasoning")

    def disallowed(self, name: str | None) -> str | None:
        """The canonical id of a disallowed technique a (normalised) name refers to, or None."""
        if not name:
            return None
        for tid, info in self.disallowed_techniques.items():
            if name == tid or name in {norm_name(a) for a in info.aliases}:
                return tid
        return None


def policy(ctx) -> ModelEquivalencePolicy:
    return ctx.policy.get(POLICY)


def block(point) -> Parsed:
    return parse(point)


def lf(point):
    return point.files["point_yaml"]


def path(*keys) -> tuple:
    return (BLOCK, *keys)


def present_block(point) -> Parsed:
    """The point's parsed block when there is one to evaluate; else ``Skipped`` (every point rule's)."""
    parsed = block(point)
    if not parsed.present:
        raise Skipped("point.yaml has no model_equivalence block (me-disclosure-present reports it per curve)",
                      reason="missing-input")
    if parsed.model is None:
        raise Skipped("the model_equivalence block is not a valid mapping (see me-block-valid)",
                      reason="input-not-valid")
    return parsed


class Prepared(NamedTuple):
    parsed: Parsed
    pol: ModelEquivalencePolicy
    div: str
    full: bool
    note: str


def prepare(point, ctx, standardized_only: str | None = None):
    """What each rule starts from: the parsed block (``present_block``), the policy and the point's division.
    With ``standardized_only`` (the rule covering Serviced/RDI, or ""), a Serviced or RDI point is
    ``Skipped`` here: augmentation is allowed there with disclosure."""
    parsed = present_block(point)
    pol = policy(ctx)
    div, full, note = division(point, pol)
    if standardized_only is not None and not full:
        by = f" ({standardized_only})" if standardized_only else ""
        raise Skipped(f"{div}: augmentation is allowed with disclosure{by}", reason="not-applicable")
    return Prepared(parsed, pol, div, full, note)


def division(point, pol: ModelEquivalencePolicy) -> tuple[str, bool, str]:
    """(division name, full rules?, note). An undeclared or unknown division gets the full rules."""
    raw = point.yaml.division if point.yaml is not None else None
    if isinstance(raw, str):
        for d in pol.full_rules_divisions:
            if raw.strip().lower() == d.lower():
                return d, True, ""
        for d in pol.disclosure_only_divisions:
            if raw.strip().lower() == d.lower():
                return d, False, ""
    shown = "no division" if raw is None else f"division {raw!r}"
    return "Standardized", True, f" ({shown} declared: the Standardized rules apply)"


def benchmark(point, ctx) -> str | None:
    """Canonical benchmark id from point.yaml's model_name, else the curve directory name."""
    try:
        models = ctx.policy.get("models")
    except PolicyUnavailable:
        return None
    name = point.yaml.model_name if point.yaml is not None else None
    return models.canonical(name) or models.canonical(point.curve.name if point.curve is not None else None)


def dataset_names(point, ctx) -> set[str]:
    """Every spelling of the benchmark's performance and accuracy datasets (normalised)."""
    names: set[str] = set()
    try:
        models = ctx.policy.get("models")
    except PolicyUnavailable:
        return names
    bid = benchmark(point, ctx)
    m = models.models.get(bid) if bid else None
    if m is None:
        return names
    for d in (m.performance_dataset, m.accuracy_dataset):
        if d is not None:
            names |= {norm_name(x) for x in (d.name, *d.aliases) if norm_name(x)}
    return names


def is_url(v: Any) -> bool:
    return isinstance(v, str) and v.strip().startswith(("https://", "http://")) and len(v.strip()) > 10


def filled(v: Any) -> bool:
    return isinstance(v, str) and bool(v.strip())


def listing(items) -> str:
    return ", ".join(f"`{i}`" for i in items)
