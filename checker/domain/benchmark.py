"""Which benchmark a curve measures and whether it is agentic: one definition for rules and renderers.

The fact, from the rules text (/work/shared/spec/RULES.md):

- The benchmark's type belongs to its model: RULES.md §11 lists every benchmark with its Type
  (legacy/single-turn or agentic); §4.1 makes the point count and the Offline point depend on it,
  §4.4 "Offline is out of scope (forbidden) for agentic benchmarks", and §5 applies the agentic
  accuracy targets to three named models ("For these three models `accuracy-gate` stands aside").
  The models policy (``models.yaml``, ``type``) holds the §11 table.
- RULES.md §4.1 says how the reference checker tells when nothing names the type: "a curve whose
  points **all** use `agentic_inference` is agentic; anything else is single-turn; mixed ->
  `benchmark-type-consistency` flag and checked as single-turn".

Precedence: the model's type when the curve's model is one the models policy knows; the load-pattern
detection of §4.1 otherwise (an unknown model, or no models policy where a renderer has none). A
curve whose load patterns disagree with its model's type is judged as the benchmark it is; the
disagreement itself is `load-pattern`'s (and `benchmark-type-consistency`'s) to report.

The curve's model is its results directory (``results/<system>/<model_name>/``, RULES.md §1.3, which
``model-name-consistency`` holds equal to point.yaml ``model_name``), else the first of its points'
``model_name`` values (sorted) that the policy knows.
"""
from __future__ import annotations

from typing import Any

#: the load pattern of an agentic benchmark's fixed-concurrency points (RULES.md §2.1, `load_pattern`)
AGENTIC_PATTERN = "agentic_inference"


def curve_model(curve, models) -> str | None:
    """The canonical model id of a curve (see the module doc), or None when the policy knows none."""
    if models is None:
        return None
    mid = models.canonical(curve.name)
    if mid is not None:
        return mid
    for name in sorted({p.yaml.model_name for p in curve.points if p.yaml is not None and p.yaml.model_name}):
        mid = models.canonical(name)
        if mid is not None:
            return mid
    return None


def agentic_by_load_pattern(curve) -> bool:
    """RULES.md §4.1 detection: every readable point but a dedicated Offline run uses agentic_inference."""
    pats = [p.load_pattern for p in curve.points if p.yaml is not None and not p.is_dedicated_offline]
    return bool(pats) and all(x == AGENTIC_PATTERN for x in pats)


def is_agentic(curve, models) -> bool:
    """Is this curve an agentic benchmark? ``models``: the models policy (``ctx.policy.get("models")``),
    or None where there is none (the load pattern decides). The precedence is the module doc's."""
    return curve.cached(("agentic", id(models)), lambda: _is_agentic(curve, models))


def _is_agentic(curve, models) -> bool:
    mid = curve_model(curve, models)
    if mid is not None:
        return models.models[mid].type == "agentic"
    return agentic_by_load_pattern(curve)


def models_or_none(ctx: Any):
    """The models policy of a run's context, or None (renderers: draw without it rather than fail)."""
    policy = getattr(ctx, "policy", None)
    if policy is None or not policy.available("models"):
        return None
    return policy.get("models")
