"""The rule catalogue: the one module of the engine that imports ``rules``.

``rules.FAMILIES`` lists the family packages in evaluation order; each family's ``__init__`` names
its rule modules (``MODULES``) and the policy files it owns (``POLICIES``). The catalogue imports
exactly those, collects every function carrying ``@rule`` metadata in definition order, and gives
each rule its family's name. Nothing is registered by import side effects.

A check that selects rules (``--select``) imports only the families holding a selected rule
(``rules_for``): every other rule is known from ``rules/index.json`` (its metadata, written by
``make docs`` and held equal to the code by tests/engine/test_engine.py) and SKIPs as deselected without
its module being imported. ``complete_rules`` swaps such index entries for the real rules where a
renderer needs their documentation.
"""
from __future__ import annotations

import importlib
import json
import os
from functools import lru_cache
from typing import Any, Iterable

import msgspec

from checker.core.findings import Severity
from checker.core.rule import Rule


class Family(msgspec.Struct, frozen=True):
    name: str
    package: str  # rules.<package>
    doc: str
    modules: tuple[str, ...]
    policies: dict[str, str] = msgspec.field(default_factory=dict)  # policy name -> "module:Class"
    reporters: dict[str, str] = msgspec.field(default_factory=dict)  # policy name -> rule id reporting it


class FamilyTable(msgspec.Struct):
    """The families and the policy files they own: what ``rules/*/__init__.py`` say, no rule imported."""

    families: list[Family]
    #: policy name -> "rules.<package>.<module>:Class" (imported on first use)
    policy_models: dict[str, str]
    policy_reporters: dict[str, str]

    def policy_model(self, name: str) -> Any:
        """The pydantic model of a policy file, or None when no family owns that file."""
        ref = self.policy_models.get(name)
        if ref is None:
            return None
        return _import_attr(ref)


class Catalogue(msgspec.Struct):
    """Every rule of the families of ``table``, by id (``load_catalogue``); the policy files they own are the
    table's (``FamilyTable.policy_model``)."""

    table: FamilyTable
    rules: list[Rule]
    by_id: dict[str, Rule]
    #: per-point metrics the reports show: the built-ins, then each family's (``@point_metric``)
    point_metrics: list = msgspec.field(default_factory=list)

    @property
    def families(self) -> list[Family]:
        return self.table.families

    def rule(self, rule_id: str) -> Rule | None:
        return self.by_id.get(rule_id)

    def family(self, name: str) -> Family | None:
        return next((f for f in self.families if f.name == name), None)


def _import_attr(ref: str) -> Any:
    mod, _, attr = ref.partition(":")
    return getattr(importlib.import_module(mod), attr)


@lru_cache(maxsize=None)
def family_table() -> FamilyTable:
    import rules

    families = [_family(p) for p in rules.FAMILIES]
    policy_models = dict(getattr(rules, "SHARED_POLICIES", {}))
    reporters: dict[str, str] = {}
    for fam in families:
        for n, ref in fam.policies.items():
            if n in policy_models:
                raise ValueError(f"policy {n!r} is owned by two families")
            policy_models[n] = ref
        reporters.update(fam.reporters)
    return FamilyTable(families, policy_models, reporters)


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


def _family_rules(fam: Family) -> tuple[list[Rule], list]:
    """Import one family's rule modules: its rules in definition order, and its point metrics."""
    from checker.domain.point_metrics import collect

    out: list[Rule] = []
    metrics: list = []
    for modname in fam.modules:
        mod = importlib.import_module(f"rules.{fam.package}.{modname}")
        metrics.extend(collect(vars(mod)))
        for obj in list(vars(mod).values()):
            spec = getattr(obj, "__rule__", None)
            if spec is None or getattr(obj, "__module__", None) != mod.__name__:
                continue
            out.append(spec.bind(fam.name, obj))
    return out, metrics


def _by_id(rules: list[Rule]) -> dict[str, Rule]:
    by_id: dict[str, Rule] = {}
    for r in rules:
        if r.id in by_id:
            raise ValueError(f"duplicate rule id {r.id!r}")
        by_id[r.id] = r
    return by_id


@lru_cache(maxsize=None)
def load_catalogue() -> Catalogue:
    from checker.domain.point_metrics import BUILTIN_METRICS

    table = family_table()
    metrics = list(BUILTIN_METRICS)
    out: list[Rule] = []
    for fam in table.families:
        fam_rules, fam_metrics = _family_rules(fam)
        out.extend(fam_rules)
        metrics.extend(fam_metrics)
    by_id = _by_id(out)
    keys = [m[0] for m in metrics]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a point metric is declared twice: {sorted(k for k in keys if keys.count(k) > 1)}")
    return Catalogue(table, out, by_id, metrics)


# --- the rule index: every rule's metadata without importing its module -------------------------

INDEX_FIELDS = ("id", "title", "clause", "severity", "scope", "needs", "official", "after_waivers")


def index_path() -> str:
    import rules

    return os.path.join(os.path.dirname(os.path.abspath(rules.__file__)), "index.json")


def index_text() -> str:
    """``rules/index.json`` as ``make docs`` writes it: per family, each rule's metadata and home."""
    cat = load_catalogue()
    fams = []
    for fam in cat.families:
        entries = []
        for r in cat.rules:
            if r.family == fam.name:
                e = {k: getattr(r, k) for k in INDEX_FIELDS}
                e["severity"] = r.severity.value
                e["needs"] = list(r.needs)
                e["function"] = f"{r.func.__module__}:{r.func.__name__}"
                if r.consequence_of:
                    e["consequence_of"] = list(r.consequence_of)
                entries.append(e)
        fams.append((fam, entries))
    one = lambda v: json.dumps(v, ensure_ascii=False)  # noqa: E731 - one rule per line: readable diffs
    parts = [f' {{"package": {one(fam.package)}, "family": {one(fam.name)}, "rules": [\n'
             + ",\n".join("  " + one(e) for e in entries) + "]}" for fam, entries in fams]
    return '{"version": 1, "families": [\n' + ",\n".join(parts) + "]}\n"


class _Deferred:
    """The function of a rule known from the index: imported the first time it is called."""

    def __init__(self, ref: str):
        self.ref = ref
        self.__module__, _, self.__name__ = ref.partition(":")

    def __call__(self, *args: Any, **kw: Any) -> Any:
        return _import_attr(self.ref)(*args, **kw)


@lru_cache(maxsize=None)
def _index() -> dict | None:
    try:
        with open(index_path(), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def rules_for(select: Iterable[str] | None, ignore: Iterable[str] | None = None) -> list[Rule]:
    """The rules of one check, in catalogue order. With ``select``, only the families holding a
    selected rule are imported; the others' rules come from the index (they SKIP as deselected,
    so their functions are never called). Without an index, or without ``select``: every rule."""
    select, ignore = list(select or ()), list(ignore or ())
    idx = _index()
    table = family_table()
    if not select or idx is None or [f["package"] for f in idx["families"]] != [f.package for f in table.families]:
        return all_rules()
    out: list[Rule] = []
    for fam, entry in zip(table.families, idx["families"]):
        stubs = [Rule(id=e["id"], title=e["title"], clause=e["clause"], family=fam.name,
                      severity=Severity(e["severity"]), scope=e["scope"], func=_Deferred(e["function"]),
                      needs=tuple(e["needs"]), official=e["official"], doc="", after_waivers=e["after_waivers"],
                      consequence_of=tuple(e.get("consequence_of", ())))
                 for e in entry["rules"]]
        if any(is_selected(r, select, ignore) for r in stubs):
            out.extend(_family_rules(fam)[0])
        else:
            out.extend(stubs)
    _by_id(out)
    return out


def complete_rules(rules_: list[Rule]) -> list[Rule]:
    """The same rules with every index entry swapped for the real rule (its documentation, its
    module): for renderers that print rule docs."""
    if all(not isinstance(r.func, _Deferred) for r in rules_):
        return list(rules_)
    cat = load_catalogue()
    return [cat.rule(r.id) or r if isinstance(r.func, _Deferred) else r for r in rules_]


def all_rules() -> list[Rule]:
    return list(load_catalogue().rules)


def get_rule(rule_id: str) -> Rule | None:
    return load_catalogue().rule(rule_id)


def policy_root() -> str:
    """The bundled policy editions (``rules/policy/<edition>/``)."""
    import rules

    return os.path.join(os.path.dirname(os.path.abspath(rules.__file__)), "policy")


def is_selected(rule: Rule, select: Iterable[str] | None, ignore: Iterable[str] | None) -> bool:
    """Does a check with ``--select``/``--ignore`` evaluate this rule? Selected (every rule without ``select``)
    and not ignored: the one definition; a rule not selected SKIPs as deselected."""
    return (not select or select_matches(rule, select)) and not (ignore and select_matches(rule, ignore))


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


def week0_decide():
    """The Week-0 prediction's decide function (rules/week0/predict.py): imported here, the one importer of rules."""
    from rules.week0.predict import decide

    return decide
