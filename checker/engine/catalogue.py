"""The rule catalogue: the one module of the engine that imports ``rules``.

``rules.FAMILIES`` lists the family packages in evaluation order; each family's ``__init__`` names
its rule modules (``MODULES``) and the policy files it owns (``POLICIES``). The catalogue imports
exactly those, collects every function carrying ``@rule`` metadata in definition order, and gives
each rule its family's name. Nothing is registered by import side effects.
"""
from __future__ import annotations

import importlib
import os
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable

from checker.core.rule import Rule


@dataclass(frozen=True)
class Family:
    name: str
    package: str  # rules.<package>
    doc: str
    modules: tuple[str, ...]
    policies: dict[str, str] = field(default_factory=dict)  # policy name -> "module:Class"
    reporters: dict[str, str] = field(default_factory=dict)  # policy name -> rule id reporting it


@dataclass
class Catalogue:
    families: list[Family]
    rules: list[Rule]
    by_id: dict[str, Rule]
    #: policy name -> "rules.<package>.<module>:Class" (imported on first use)
    policy_models: dict[str, str]
    policy_reporters: dict[str, str]
    #: per-point metrics the reports show: the built-ins, then each family's (``@point_metric``)
    point_metrics: list = field(default_factory=list)

    def rule(self, rule_id: str) -> Rule | None:
        return self.by_id.get(rule_id)

    def family(self, name: str) -> Family | None:
        return next((f for f in self.families if f.name == name), None)

    def policy_model(self, name: str) -> Any:
        """The pydantic model of a policy file, or None when no family owns that file."""
        ref = self.policy_models.get(name)
        if ref is None:
            return None
        return _import_attr(ref)


def _import_attr(ref: str) -> Any:
    mod, _, attr = ref.partition(":")
    return getattr(importlib.import_module(mod), attr)


def _family(package: str) -> Family:
    pkg = importlib.import_module(f"rules.{package}")
    return Family(
        name=pkg.NAME,
        package=package,
        doc=(pkg.__doc__ or "").strip(),
        modules=tuple(pkg.MODULES),
        policies={n: ref if ref.startswith("rules.") else f"rules.{package}.{ref}"
                  for n, ref in getattr(pkg, "POLICIES", {}).items()},
        reporters=dict(getattr(pkg, "POLICY_REPORTERS", {})),
    )


@lru_cache(maxsize=None)
def load_catalogue() -> Catalogue:
    import rules

    families = [_family(p) for p in rules.FAMILIES]
    policy_models = dict(getattr(rules, "SHARED_POLICIES", {}))
    from checker.domain.point_metrics import BUILTIN_METRICS, collect

    reporters: dict[str, str] = {}
    metrics = list(BUILTIN_METRICS)
    out: list[Rule] = []
    by_id: dict[str, Rule] = {}
    for fam in families:
        for n, ref in fam.policies.items():
            if n in policy_models:
                raise ValueError(f"policy {n!r} is owned by two families")
            policy_models[n] = ref
        reporters.update(fam.reporters)
        for modname in fam.modules:
            mod = importlib.import_module(f"rules.{fam.package}.{modname}")
            metrics.extend(collect(vars(mod)))
            for obj in list(vars(mod).values()):
                spec = getattr(obj, "__rule__", None)
                if spec is None or getattr(obj, "__module__", None) != mod.__name__:
                    continue
                if spec.id in by_id:
                    raise ValueError(f"duplicate rule id {spec.id!r}")
                r = spec.bind(fam.name, obj)
                by_id[r.id] = r
                out.append(r)
    keys = [m[0] for m in metrics]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a point metric is declared twice: {sorted(k for k in keys if keys.count(k) > 1)}")
    return Catalogue(families, out, by_id, policy_models, reporters, metrics)


def all_rules() -> list[Rule]:
    return list(load_catalogue().rules)


def get_rule(rule_id: str) -> Rule | None:
    return load_catalogue().rule(rule_id)


def policy_root() -> str:
    """The bundled policy editions (``rules/policy/<edition>/``)."""
    import rules

    return os.path.join(os.path.dirname(os.path.abspath(rules.__file__)), "policy")


def select_matches(rule: Rule, tokens: Iterable[str]) -> bool:
    """True when a --select/--ignore token names this rule: its id, its family, or an id prefix."""
    for tok in tokens:
        tok = tok.strip()
        if not tok:
            continue
        if tok in ("ALL", "all"):
            return True
        if tok == rule.id or tok == rule.family or rule.id.startswith(tok):
            return True
    return False
