"""The checks of ``system_power.json`` that are not types (POWER.md E.1-E.4), on the validated model.

pydantic (``checker.load.models.power``) has checked every type; its problems arrive here as
``FieldProblem`` records and become ``power-descriptor`` findings. What stays rule logic: what each
power method requires (a missing field named with its Appendix E key, or with the misspelling that
stands for it), the enumerations and ranges with their Appendix E sentence, the policy's source
types and Appendix D subsections, exactly one value per sourced value, the http(s) evidence (these
three in ``rules/power/findings.py``, which both shapes' readings share), unique node-set ids, N > Y
for node_scaling, and a present fabric declared whole. The result is the ``PowerDoc`` the arithmetic
reads (``rules/power/doc.py``).
"""
from __future__ import annotations

from typing import Any

from checker.load.models.lenient import dotted
from checker.load.models.power_fields import (CABLINGS, COMPONENT_KEYS, COMPUTED_FIGURES, COMPUTED_LEGACY,
                                                  COOLINGS, NIC_KEYS, NODE_SET_KEYS, POWER_METHODS, SCALE_OUT_KEYS,
                                                  SCALE_UP_KEYS, SCALE_UP_LEGACY, SCALE_UP_METHODS,
                                                  SWITCH_KEYS, TOP_KEYS, UNIT_KEYS)
from rules.power.doc import Component, Nics, NodeSet, PowerDoc, ScaleOut, ScaleUp, Switch
from rules.power.findings import Findings, brief


def read_power(model, field_errors: list, data: Any, source_types: list[str], subsections: list[str]) -> PowerDoc:
    """The ``PowerDoc`` of a validated ``AppendixE`` or ``FlatPower`` (``model`` None when it did not
    validate), with every finding: the model's type problems first, then the Appendix E checks."""
    from checker.load.models.power import shape_of

    f = Findings(field_errors, source_types, subsections)
    if shape_of(data) == "flat":
        from rules.power.flat_reading import read_flat

        doc = read_flat(model, f) if model is not None else PowerDoc("flat")
    else:
        doc = read_appendix_e(model, f) if model is not None else PowerDoc("appendix-e")
    doc.problems, doc.warnings = f.problems, f.warnings
    return doc


def read_appendix_e(m, f: Findings) -> PowerDoc:
    doc = PowerDoc("appendix-e", system_desc_id=m.system_desc_id,
                   cooling=m.cooling if m.cooling in COOLINGS else None)
    if not f.given(m, "system_desc_id", ()):
        f.missing(m, "system_desc_id", (), TOP_KEYS, "the results/<system> directory name",
                  fix="Add \"system_desc_id\": the name of the system directory.")
    elif m.system_desc_id == "":
        f.bad(("system_desc_id",), "`system_desc_id` must be a non-empty string, got ''", observed="",
              expected="a non-empty string")
    _cooling(m, f)
    sets = m.node_sets
    if not f.given(m, "node_sets", ()):
        f.missing(m, "node_sets", (), TOP_KEYS, "a list of at least one node set (E.3)")
        sets = []
    elif sets is not None and not sets:
        f.bad(("node_sets",), "`node_sets` must be a list of at least one node set, got []", observed="[]",
              expected="a non-empty list")
    seen: dict = {}
    for i, raw in enumerate(sets or []):
        path = ("node_sets", i)
        if raw is None:
            if path not in f.refused:
                f.bad(path, f"`{dotted(path)}` is empty", observed=None, expected="a node set object")
            continue
        ns = _node_set(raw, path, f)
        if ns.node_set_id is not None:
            if ns.node_set_id in seen:
                f.bad(ns.path + ("node_set_id",), f"node_set_id {ns.node_set_id} is used twice (node_sets["
                      f"{seen[ns.node_set_id]}] and node_sets[{i}])", observed=ns.node_set_id,
                      expected="a node_set_id of its own")
            seen.setdefault(ns.node_set_id, i)
        doc.node_sets.append(ns)
    doc.scale_out = _scale_out(m, f)
    doc.declared = f.sourced(m, "declared_provisioned_power", ())
    _computed(m, doc, f)
    doc.overhead_fraction = f.num(m, "overhead_fraction", ())  # not Appendix E: compared with cooling
    mlc = m.mlc_estimated_power
    if mlc is not None and not isinstance(mlc, bool):  # E.2: ignored, the checker decides the tag
        f.warn(("mlc_estimated_power",), f"`mlc_estimated_power` is true or false (and ignored: the checker "
               f"decides the tag), got {brief(mlc)}", observed=mlc, expected="true or false")
    return doc


def _cooling(m, f: Findings) -> None:
    c = m.cooling
    if not f.given(m, "cooling", ()):
        f.missing(m, "cooling", (), TOP_KEYS, f"{' or '.join(COOLINGS)} (E.2: it selects the overhead fraction)")
    elif c is not None and c not in COOLINGS:
        low = c.strip().lower()
        hint = f"; write it in lower case: \"{low}\"" if low in COOLINGS else ""
        f.bad(("cooling",), f"`cooling` must be exactly {' or '.join(COOLINGS)} (E.2), got {brief(c)}{hint}",
              observed=c, expected=" | ".join(COOLINGS),
              fix="Write \"liquid\" or \"air\"; details of the cooling belong in system_desc.json.")


def _node_set(d, path: tuple, f: Findings) -> NodeSet:
    ns = NodeSet(path)
    for key, what in (("node_set_id", "a whole number naming this node set"),
                      ("system_node_ensemble_id", "the system_node_ensemble_id of system_desc.json")):
        if not f.given(d, key, path):
            f.missing(d, key, path, NODE_SET_KEYS, what)
    ns.node_set_id = f.whole(d, "node_set_id", path)
    ns.ensemble_id = f.whole(d, "system_node_ensemble_id", path)
    if not f.given(d, "nodes_provisioned", path):
        f.missing(d, "nodes_provisioned", path, NODE_SET_KEYS, "the whole nodes provisioned (>= 1)")
    ns.nodes = f.whole(d, "nodes_provisioned", path, minimum=1)
    method = d.power_method
    if not f.given(d, "power_method", path):
        f.missing(d, "power_method", path, NODE_SET_KEYS, " | ".join(POWER_METHODS))
    elif method is not None and method not in POWER_METHODS:
        f.bad(path + ("power_method",), f"`{dotted(path)}.power_method` must be one of {', '.join(POWER_METHODS)}, "
              f"got {brief(method)}", observed=method, expected=" | ".join(POWER_METHODS))
    else:
        ns.method = method
    ns.nodes_in_published = f.whole(d, "nodes_in_published_rack", path, minimum=1)
    ns.published = f.sourced(d, "published_power", path)
    if ns.method in ("published_system", "node_scaling") and not f.given(d, "published_power", path):
        f.missing(d, "published_power", path, NODE_SET_KEYS, f"{ns.method} takes the published figure "
                  + ("of one node" if ns.method == "published_system" else "of a rack of N nodes"))
    if ns.method == "node_scaling":
        if not f.given(d, "nodes_in_published_rack", path):
            f.missing(d, "nodes_in_published_rack", path, NODE_SET_KEYS, "node_scaling needs N, the nodes of the "
                      "published rack")
        elif ns.nodes_in_published is not None and ns.nodes is not None and ns.nodes_in_published <= ns.nodes:
            f.bad(path + ("nodes_in_published_rack",), f"node_scaling scales a partial rack: nodes_in_published_rack "
                  f"N = {ns.nodes_in_published} must be greater than nodes_provisioned Y = {ns.nodes} (E.3)",
                  observed=ns.nodes_in_published, expected=f"> {ns.nodes}",
                  fix="For a whole published system use published_system with the figure of one node "
                      "(nodes x node power); node_scaling is P_rack x Y / N for Y < N nodes.")
    elif ns.method == "published_system" and ns.nodes_in_published not in (None, 1):
        f.warn(path + ("nodes_in_published_rack",), f"published_system multiplies published_power by "
               f"nodes_provisioned ({ns.nodes}): it is the figure of one node; nodes_in_published_rack "
               f"({ns.nodes_in_published}) is read only by node_scaling", observed=ns.nodes_in_published,
               expected="a per-node published_power (or node_scaling for a rack figure)")
    if ns.method == "component_sum":
        if not f.given(d, "components", path):
            f.missing(d, "components", path, NODE_SET_KEYS, "component_sum builds the node from its parts")
        elif d.components is not None:
            _components(d.components, path + ("components",), ns, f)
    ns.complete = f.clean(path)
    return ns


def _unit(c, p: tuple, name: str, f: Findings) -> Component:
    comp = Component(name, p, count=f.whole(c, "count_per_node", p), unit=f.sourced(c, "tdp_per_unit", p),
                     model=c.model or None)
    if not f.given(c, "count_per_node", p):
        f.missing(c, "count_per_node", p, UNIT_KEYS, f"how many {name}s one node holds")
    return comp


def _components(comps, path: tuple, ns: NodeSet, f: Findings) -> None:
    combined = comps.combined_cpu_accelerator
    cp = path + ("combined_cpu_accelerator",)
    group = {"count_per_node", "tdp_per_unit"} & set(combined.model_extra or {}) if combined is not None else set()
    has_combined = f.given(comps, "combined_cpu_accelerator", path)
    if group:
        f.bad(cp, f"`{dotted(cp)}` is one sourced value, the published figure of a node's CPUs and accelerators "
              "together (E.3: {value_w | value_kw, source_type, source}), not a {count_per_node, tdp_per_unit} group",
              observed=sorted(k for k in combined.model_extra if isinstance(k, str)),
              expected="value_w | value_kw, source_type, source",
              fix="Write the per-node figure as a sourced value, e.g. {\"value_w\": 5600, \"source_type\": "
                  "\"vendor_spec\", \"source\": \"https://...\"}; counts belong in cpu and accelerator.")
    elif has_combined:
        ns.combined = f.sourced(comps, "combined_cpu_accelerator", path)
    for name in ("cpu", "accelerator"):
        p = path + (name,)
        c = getattr(comps, name)
        if not f.given(comps, name, path):
            if not has_combined:
                f.missing(comps, name, path, COMPONENT_KEYS, "component_sum needs cpu and accelerator, or "
                          "combined_cpu_accelerator")
            continue
        if c is None:
            continue
        ns.components[name] = _unit(c, p, name, f)
        if has_combined and f.given(c, "tdp_per_unit", p):
            f.bad(p + ("tdp_per_unit",), f"`{dotted(p)}.tdp_per_unit` and combined_cpu_accelerator both give the "
                  "power of the node's CPUs and accelerators (E.3: give one or the other)",
                  observed="tdp_per_unit", expected="no tdp_per_unit beside combined_cpu_accelerator")
    ns.scale_up = _scale_up(comps, path, f)


def _scale_up(comps, path: tuple, f: Findings) -> ScaleUp | None:
    p = path + ("scale_up_network",)
    if not f.given(comps, "scale_up_network", path):
        f.missing(comps, "scale_up_network", path, COMPONENT_KEYS, "write {\"method\": \"none\"} when the nodes "
                  "have no scale-up network")
        return None
    c = comps.scale_up_network
    if c is None:
        return None
    up = ScaleUp(p)
    method = c.method
    if not f.given(c, "method", p):
        f.missing(c, "method", p, SCALE_UP_KEYS, " | ".join(SCALE_UP_METHODS))
        return up
    if method is None:
        return up
    if method not in SCALE_UP_METHODS:
        f.bad(p + ("method",), f"`{dotted(p)}.method` must be one of {', '.join(SCALE_UP_METHODS)}, got "
              f"{brief(method)}", observed=method, expected=" | ".join(SCALE_UP_METHODS))
        return up
    up.method = method
    extra = c.model_extra or {}
    up.legacy = {k: v for k, v in SCALE_UP_LEGACY.get(method, {}).items() if k in extra}
    if method == "declared_tdp":
        up.switch_count = f.whole(c, "switch_count", p)
        up.tdp_per_switch = f.sourced(c, "tdp_per_switch", p)
        if not f.given(c, "switch_count", p):
            f.missing(c, "switch_count", p, SCALE_UP_KEYS, "declared_tdp is switch_count x tdp_per_switch"
                      + legacy_note(up.legacy, "switch_count"), fix=legacy_fix(up.legacy),
                      at=legacy_key(up.legacy, "switch_count"))
    elif method == "bandwidth_estimate":
        up.aggregate_tbps = f.num(c, "aggregate_bandwidth_tbps", p)
        up.energy = f.sourced(c, "energy_per_bit_pj", p, want="energy")
        if not f.given(c, "aggregate_bandwidth_tbps", p):
            f.missing(c, "aggregate_bandwidth_tbps", p, SCALE_UP_KEYS, "bandwidth_estimate is "
                      "aggregate_bandwidth_tbps (TB/s) x 8 bit/B x energy_per_bit_pj"
                      + legacy_note(up.legacy, "aggregate_bandwidth_tbps"), fix=legacy_fix(up.legacy),
                      at=legacy_key(up.legacy, "aggregate_bandwidth_tbps"))
    return up


def legacy_key(legacy: dict, wanted: str) -> str | None:
    """The key of an earlier draft written where ``wanted`` belongs, if any."""
    return next((k for k, v in legacy.items() if v == wanted), None)


def legacy_note(legacy: dict, wanted: str) -> str:
    """'; `count_per_node` is the name of an earlier draft: ...' when a legacy key stands for ``wanted``."""
    old = legacy_key(legacy, wanted)
    if old is None:
        return ""
    names = sorted(set(legacy.values()))
    return (f"; `{old}` is the name of an earlier draft, not an Appendix E field: Appendix E names "
            f"{' and '.join(names)}")


def legacy_fix(legacy: dict) -> str | None:
    if not legacy:
        return None
    return "Rename " + ", ".join(f"{k} to {v}" for k, v in legacy.items()) + " (Appendix E.3)."


def _scale_out(m, f: Findings) -> ScaleOut | None:
    p = ("scale_out",)
    if not f.given(m, "scale_out", ()):
        f.missing(m, "scale_out", (), TOP_KEYS, "write {\"present\": false} when there is no scale-out fabric")
        return None
    so = m.scale_out
    if so is None:
        return None
    out = ScaleOut(p)
    if not f.given(so, "present", p):
        f.missing(so, "present", p, SCALE_OUT_KEYS, "true or false")
    out.present = so.present
    cab = so.cabling
    if cab is not None and cab not in CABLINGS:
        f.bad(p + ("cabling",), f"`scale_out.cabling` must be one of {', '.join(CABLINGS)}, got {brief(cab)}",
              observed=cab, expected=" | ".join(CABLINGS))
    elif cab is not None:
        out.cabling = cab
    out.required_tbps = f.num(so, "required_bandwidth_tbps", p)
    if so.nics is not None:
        out.nics = _nics(so.nics, p + ("nics",), f)
    if so.switches is not None:
        out.switches = []
        for i, x in enumerate(so.switches):
            sp = p + ("switches", i)
            if x is None:
                if sp not in f.refused:
                    f.bad(sp, f"`{dotted(sp)}` is empty", observed=None, expected="a switch object")
                continue
            out.switches.append(_switch(x, sp, f))
    if out.present:
        need = [k for k in ("cabling", "required_bandwidth_tbps", "nics", "switches") if not f.given(so, k, p)]
        if need:
            f.bad(p + ("present",), f"scale_out.present is true but {', '.join(need)} "
                  f"{'is' if len(need) == 1 else 'are'} missing (E.4: a scale-out fabric declares cabling, "
                  "required_bandwidth_tbps, nics and switches)",
                  observed=sorted(k for k in [*type(so).model_fields, *(so.model_extra or {})]
                                  if f.given(so, k, p) or k in (so.model_extra or {})),
                  expected="cabling, required_bandwidth_tbps, nics, switches",
                  fix="Declare the whole fabric, or write {\"present\": false} when the nodes have none.")
    out.complete = bool(out.present) and f.clean(p)
    return out


def _nics(d, p: tuple, f: Findings) -> Nics:
    n = Nics(p, count_per_node=f.whole(d, "count_per_node", p), bandwidth_gbps=f.num(d, "bandwidth_per_nic_gbps", p),
             counted=d.counted, tdp=f.sourced(d, "tdp_per_nic", p))
    for k, what in (("count_per_node", "NICs per node"), ("bandwidth_per_nic_gbps", "Gb/s of one NIC"),
                    ("counted", "true when the NICs' power is added (component-built nodes have no NIC term)")):
        if not f.given(d, k, p):
            f.missing(d, k, p, NIC_KEYS, what)
    ex = d.excluded_from_published_power
    if isinstance(ex, str) and ex.strip():
        n.excluded = ex
    return n


def _switch(d, p: tuple, f: Findings) -> Switch:
    s = Switch(p, model=d.model or None, count=f.whole(d, "count", p, minimum=1),
               bandwidth_tbps=f.num(d, "bandwidth_tbps", p), power=f.sourced(d, "power_per_switch", p))
    for k, what in (("model", "the switch model"), ("count", "how many (>= 1)"),
                    ("bandwidth_tbps", "the Tb/s one switch offers")):
        if not f.given(d, k, p):
            f.missing(d, k, p, SWITCH_KEYS, what)
    return s


def _computed(m, doc: PowerDoc, f: Findings) -> None:
    v = f.num(m, "provisioned_power_kw", (), minimum=None)
    if v is not None:
        doc.provisioned_kw = (("provisioned_power_kw",), v)
    comp = m.computed
    if comp is None:
        return
    for key in COMPUTED_FIGURES:
        v = f.num(comp, key, ("computed",), minimum=None)
        if v is not None:
            doc.computed[key] = (("computed", key), v)
    for key, name in COMPUTED_LEGACY.items():
        if key in (comp.model_extra or {}):
            f.warn(("computed", key), f"`computed.{key}` is not an Appendix E figure and is not compared; "
                   f"Appendix E names it {name}", observed=key, expected=name, check="computed",
                   fix=f"Write it as {name}.")

