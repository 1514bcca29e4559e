"""The Appendix E shape of ``system_power.json`` (POWER.md E.1-E.4), read field by field.

Objects other than a sourced value tolerate extra keys (E.2), but a required field written under
the name of an earlier draft (``count_per_node``/``tdp_per_unit`` for a scale-up switch,
``bandwidth_tbps``/``energy_per_bit``, a ``{count_per_node, tdp_per_unit}`` combined figure) is
reported with the Appendix E name to use, because the field it stands for is then missing.
"""
from __future__ import annotations

from typing import Any

from checker.load.models.lenient import dotted
from checker.load.models.power import Component, Nics, NodeSet, PowerDoc, ScaleOut, ScaleUp, Switch, _P, brief

POWER_METHODS = ("component_sum", "published_system", "node_scaling")
SCALE_UP_METHODS = ("declared_tdp", "bandwidth_estimate", "none")
COOLINGS = ("liquid", "air")
CABLINGS = ("passive", "active_optical")
COMPUTED_FIGURES = ("major_components_w", "overhead_fraction", "other_components_w", "published_node_power_w",
                    "scale_out_switch_power_w", "total_system_power_w")

TOP_KEYS = ("system_desc_id", "cooling", "node_sets", "scale_out", "declared_provisioned_power", "computed",
            "provisioned_power_kw", "mlc_estimated_power", "notes")
NODE_SET_KEYS = ("node_set_id", "system_node_ensemble_id", "nodes_provisioned", "power_method", "published_power",
                 "nodes_in_published_rack", "components")
COMPONENT_KEYS = ("cpu", "accelerator", "combined_cpu_accelerator", "scale_up_network")
UNIT_KEYS = ("model", "count_per_node", "tdp_per_unit", "below_rated_tdp")
SCALE_UP_KEYS = ("method", "switch_count", "tdp_per_switch", "aggregate_bandwidth_tbps", "energy_per_bit_pj")
SCALE_OUT_KEYS = ("present", "cabling", "required_bandwidth_tbps", "nics", "switches")
NIC_KEYS = ("count_per_node", "bandwidth_per_nic_gbps", "counted", "tdp_per_nic", "excluded_from_published_power")
SWITCH_KEYS = ("model", "count", "bandwidth_tbps", "power_per_switch")

#: scale_up_network method -> {name of an earlier draft: Appendix E name}
SCALE_UP_LEGACY = {
    "declared_tdp": {"count_per_node": "switch_count", "num_switches": "switch_count", "count": "switch_count",
                     "tdp_per_unit": "tdp_per_switch"},
    "bandwidth_estimate": {"bandwidth_tbps": "aggregate_bandwidth_tbps", "energy_per_bit": "energy_per_bit_pj"},
}
#: computed keys of our earlier reading -> the Appendix E figure
COMPUTED_LEGACY = {"total_w": "total_system_power_w", "total_kw": "total_system_power_w",
                   "provisioned_power_w": "total_system_power_w",
                   "provisioned_power_kw": "provisioned_power_kw (top level)"}


def parse_appendix_e(data: dict, r: _P) -> PowerDoc:
    c = data.get("cooling")
    doc = PowerDoc("appendix-e", system_desc_id=data.get("system_desc_id"),
                   cooling=c if isinstance(c, str) and c in COOLINGS else None)
    if data.get("system_desc_id") is None:
        r.missing(data, "system_desc_id", (), TOP_KEYS, "the results/<system> directory name",
                  fix="Add \"system_desc_id\": the name of the system directory.")
    else:
        r.string(data, "system_desc_id", (), nonempty=True)
    _cooling(data, r)
    sets = data.get("node_sets")
    if sets is None:
        r.missing(data, "node_sets", (), TOP_KEYS, "a list of at least one node set (E.3)")
        sets = []
    elif not isinstance(sets, list) or not sets:
        r.bad(("node_sets",), f"`node_sets` must be a list of at least one node set, got {brief(sets)}",
              observed=sets if not isinstance(sets, (dict, list)) else brief(sets), expected="a non-empty list")
        sets = []
    seen: dict = {}
    for i, raw in enumerate(sets):
        ns = _node_set(raw, ("node_sets", i), r)
        if ns is None:
            continue
        if ns.node_set_id is not None:
            if ns.node_set_id in seen:
                r.bad(ns.path + ("node_set_id",), f"node_set_id {ns.node_set_id} is used twice (node_sets["
                      f"{seen[ns.node_set_id]}] and node_sets[{i}])", observed=ns.node_set_id,
                      expected="a node_set_id of its own")
            seen.setdefault(ns.node_set_id, i)
        doc.node_sets.append(ns)
    doc.scale_out = _scale_out(data, r)
    doc.declared = r.sourced(data, "declared_provisioned_power", ())
    _computed(data, doc, r)
    doc.overhead_fraction = r.num(data, "overhead_fraction", ())  # not Appendix E: compared with cooling
    mlc = data.get("mlc_estimated_power")
    if mlc is not None and not isinstance(mlc, bool):  # E.2: ignored, the checker decides the tag
        r.warn(("mlc_estimated_power",), f"`mlc_estimated_power` is true or false (and ignored: the checker "
               f"decides the tag), got {brief(mlc)}", observed=mlc, expected="true or false")
    if data.get("notes") is not None and not isinstance(data["notes"], str):
        r.bad(("notes",), f"`notes` must be a string, got {brief(data['notes'])}", observed=data["notes"],
              expected="a string")
    return doc


def _cooling(data: dict, r: _P) -> None:
    c = data.get("cooling")
    if c is None:
        r.missing(data, "cooling", (), TOP_KEYS, f"{' or '.join(COOLINGS)} (E.2: it selects the overhead fraction)")
    elif c not in COOLINGS:
        low = c.strip().lower() if isinstance(c, str) else None
        hint = f"; write it in lower case: \"{low}\"" if low in COOLINGS else ""
        r.bad(("cooling",), f"`cooling` must be exactly {' or '.join(COOLINGS)} (E.2), got {brief(c)}{hint}",
              observed=c, expected=" | ".join(COOLINGS),
              fix="Write \"liquid\" or \"air\"; details of the cooling belong in system_desc.json.")


def _id(d: dict, key: str, path: tuple, r: _P, what: str) -> Any:
    v = d.get(key)
    if v is None:
        r.missing(d, key, path, NODE_SET_KEYS, what)
        return None
    if isinstance(v, str):
        r.bad(path + (key,), f"`{dotted(path + (key,))}` must be an integer (E.3), got {brief(v)}", observed=v,
              expected="an integer", fix=f"Write {key} as a number (node sets are numbered 1, 2, ...).")
        return None
    return r.whole(d, key, path)


def _node_set(raw: Any, path: tuple, r: _P) -> NodeSet | None:
    d = r.mapping(raw, path)
    if d is None:
        if raw is None:
            r.bad(path, f"`{dotted(path)}` is empty", observed=None, expected="a node set object")
        return None
    n0 = len(r.problems)
    ns = NodeSet(path)
    ns.node_set_id = _id(d, "node_set_id", path, r, "a whole number naming this node set")
    ns.ensemble_id = _id(d, "system_node_ensemble_id", path, r, "the system_node_ensemble_id of system_desc.json")
    if d.get("nodes_provisioned") is None:
        r.missing(d, "nodes_provisioned", path, NODE_SET_KEYS, "the whole nodes provisioned (>= 1)")
    ns.nodes = r.whole(d, "nodes_provisioned", path, minimum=1)
    method = d.get("power_method")
    if method is None:
        r.missing(d, "power_method", path, NODE_SET_KEYS, " | ".join(POWER_METHODS))
    elif method not in POWER_METHODS:
        r.bad(path + ("power_method",), f"`{dotted(path)}.power_method` must be one of {', '.join(POWER_METHODS)}, "
              f"got {brief(method)}", observed=method, expected=" | ".join(POWER_METHODS))
    else:
        ns.method = method
    ns.nodes_in_published = r.whole(d, "nodes_in_published_rack", path, minimum=1)
    ns.published = r.sourced(d, "published_power", path)
    if ns.method in ("published_system", "node_scaling") and d.get("published_power") is None:
        r.missing(d, "published_power", path, NODE_SET_KEYS, f"{ns.method} takes the published figure "
                  + ("of one node" if ns.method == "published_system" else "of a rack of N nodes"))
    if ns.method == "node_scaling":
        if d.get("nodes_in_published_rack") is None:
            r.missing(d, "nodes_in_published_rack", path, NODE_SET_KEYS, "node_scaling needs N, the nodes of the "
                      "published rack")
        elif ns.nodes_in_published is not None and ns.nodes is not None and ns.nodes_in_published <= ns.nodes:
            r.bad(path + ("nodes_in_published_rack",), f"node_scaling scales a partial rack: nodes_in_published_rack "
                  f"N = {ns.nodes_in_published} must be greater than nodes_provisioned Y = {ns.nodes} (E.3)",
                  observed=ns.nodes_in_published, expected=f"> {ns.nodes}",
                  fix="For a whole published system use published_system with the figure of one node "
                      "(nodes x node power); node_scaling is P_rack x Y / N for Y < N nodes.")
    elif ns.method == "published_system" and ns.nodes_in_published not in (None, 1):
        r.warn(path + ("nodes_in_published_rack",), f"published_system multiplies published_power by "
               f"nodes_provisioned ({ns.nodes}): it is the figure of one node; nodes_in_published_rack "
               f"({ns.nodes_in_published}) is read only by node_scaling", observed=ns.nodes_in_published,
               expected="a per-node published_power (or node_scaling for a rack figure)")
    if ns.method == "component_sum":
        if d.get("components") is None:
            r.missing(d, "components", path, NODE_SET_KEYS, "component_sum builds the node from its parts")
        else:
            comps = r.mapping(d.get("components"), path + ("components",))
            if comps is not None:
                _components(comps, path + ("components",), ns, r)
    ns.complete = len(r.problems) == n0
    return ns


def _unit(c: dict, p: tuple, name: str, r: _P) -> Component:
    comp = Component(name, p, count=r.whole(c, "count_per_node", p), unit=r.sourced(c, "tdp_per_unit", p),
                     model=r.string(c, "model", p))
    if c.get("count_per_node") is None:
        r.missing(c, "count_per_node", p, UNIT_KEYS, f"how many {name}s one node holds")
    if name == "accelerator" and c.get("below_rated_tdp") is not None:
        r.mapping(c.get("below_rated_tdp"), p + ("below_rated_tdp",))
    return comp


def _components(comps: dict, path: tuple, ns: NodeSet, r: _P) -> None:
    combined = comps.get("combined_cpu_accelerator")
    cp = path + ("combined_cpu_accelerator",)
    if isinstance(combined, dict) and {"count_per_node", "tdp_per_unit"} & set(combined):
        r.bad(cp, f"`{dotted(cp)}` is one sourced value, the published figure of a node's CPUs and accelerators "
              "together (E.3: {value_w | value_kw, source_type, source}), not a {count_per_node, tdp_per_unit} group",
              observed=sorted(k for k in combined if isinstance(k, str)),
              expected="value_w | value_kw, source_type, source",
              fix="Write the per-node figure as a sourced value, e.g. {\"value_w\": 5600, \"source_type\": "
                  "\"vendor_spec\", \"source\": \"https://...\"}; counts belong in cpu and accelerator.")
    elif combined is not None:
        ns.combined = r.sourced(comps, "combined_cpu_accelerator", path)
    for name in ("cpu", "accelerator"):
        p = path + (name,)
        if comps.get(name) is None:
            if combined is None:
                r.missing(comps, name, path, COMPONENT_KEYS, "component_sum needs cpu and accelerator, or "
                          "combined_cpu_accelerator")
            continue
        c = r.mapping(comps.get(name), p)
        if c is None:
            continue
        comp = _unit(c, p, name, r)
        ns.components[name] = comp
        if combined is not None and c.get("tdp_per_unit") is not None:
            r.bad(p + ("tdp_per_unit",), f"`{dotted(p)}.tdp_per_unit` and combined_cpu_accelerator both give the "
                  "power of the node's CPUs and accelerators (E.3: give one or the other)",
                  observed="tdp_per_unit", expected="no tdp_per_unit beside combined_cpu_accelerator")
    ns.scale_up = _scale_up(comps, path, r)


def _scale_up(comps: dict, path: tuple, r: _P) -> ScaleUp | None:
    p = path + ("scale_up_network",)
    if comps.get("scale_up_network") is None:
        r.missing(comps, "scale_up_network", path, COMPONENT_KEYS, "write {\"method\": \"none\"} when the nodes "
                  "have no scale-up network")
        return None
    c = r.mapping(comps.get("scale_up_network"), p)
    if c is None:
        return None
    up = ScaleUp(p)
    method = c.get("method")
    if method is None:
        r.missing(c, "method", p, SCALE_UP_KEYS, " | ".join(SCALE_UP_METHODS))
        return up
    if method not in SCALE_UP_METHODS:
        r.bad(p + ("method",), f"`{dotted(p)}.method` must be one of {', '.join(SCALE_UP_METHODS)}, got "
              f"{brief(method)}", observed=method, expected=" | ".join(SCALE_UP_METHODS))
        return up
    up.method = method
    up.legacy = {k: v for k, v in SCALE_UP_LEGACY.get(method, {}).items() if k in c}
    if method == "declared_tdp":
        up.switch_count = r.whole(c, "switch_count", p)
        up.tdp_per_switch = r.sourced(c, "tdp_per_switch", p)
        if c.get("switch_count") is None:
            r.missing(c, "switch_count", p, SCALE_UP_KEYS, "declared_tdp is switch_count x tdp_per_switch"
                      + legacy_note(up.legacy, "switch_count"), fix=legacy_fix(up.legacy),
                      at=legacy_key(up.legacy, "switch_count"))
    elif method == "bandwidth_estimate":
        up.aggregate_tbps = r.num(c, "aggregate_bandwidth_tbps", p)
        up.energy = r.sourced(c, "energy_per_bit_pj", p, want="energy")
        if c.get("aggregate_bandwidth_tbps") is None:
            r.missing(c, "aggregate_bandwidth_tbps", p, SCALE_UP_KEYS, "bandwidth_estimate is "
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


def _scale_out(data: dict, r: _P) -> ScaleOut | None:
    p = ("scale_out",)
    if data.get("scale_out") is None:
        r.missing(data, "scale_out", (), TOP_KEYS, "write {\"present\": false} when there is no scale-out fabric")
        return None
    so = r.mapping(data.get("scale_out"), p)
    if so is None:
        return None
    n0 = len(r.problems)
    out = ScaleOut(p)
    if so.get("present") is None:
        r.missing(so, "present", p, SCALE_OUT_KEYS, "true or false")
    out.present = r.boolean(so, "present", p)
    cab = so.get("cabling")
    if cab is not None and cab not in CABLINGS:
        r.bad(p + ("cabling",), f"`scale_out.cabling` must be one of {', '.join(CABLINGS)}, got {brief(cab)}",
              observed=cab, expected=" | ".join(CABLINGS))
    elif cab is not None:
        out.cabling = cab
    out.required_tbps = r.num(so, "required_bandwidth_tbps", p)
    nd = r.mapping(so.get("nics"), p + ("nics",))
    if nd is not None:
        out.nics = _nics(nd, p + ("nics",), r)
    sw = so.get("switches")
    if sw is not None:
        if not isinstance(sw, list):
            r.bad(p + ("switches",), f"`scale_out.switches` must be a list, got {brief(sw)}", observed=brief(sw),
                  expected="a list of switches")
        else:
            out.switches = [s for s in (_switch(x, p + ("switches", i), r) for i, x in enumerate(sw)) if s]
    if out.present:
        need = [k for k in ("cabling", "required_bandwidth_tbps", "nics", "switches") if so.get(k) is None]
        if need:
            r.bad(p + ("present",), f"scale_out.present is true but {', '.join(need)} "
                  f"{'is' if len(need) == 1 else 'are'} missing (E.4: a scale-out fabric declares cabling, "
                  "required_bandwidth_tbps, nics and switches)", observed=sorted(k for k in so if isinstance(k, str)),
                  expected="cabling, required_bandwidth_tbps, nics, switches",
                  fix="Declare the whole fabric, or write {\"present\": false} when the nodes have none.")
    out.complete = bool(out.present) and len(r.problems) == n0
    return out


def _nics(d: dict, p: tuple, r: _P) -> Nics:
    n = Nics(p, count_per_node=r.whole(d, "count_per_node", p), bandwidth_gbps=r.num(d, "bandwidth_per_nic_gbps", p),
             counted=r.boolean(d, "counted", p), tdp=r.sourced(d, "tdp_per_nic", p))
    for k, what in (("count_per_node", "NICs per node"), ("bandwidth_per_nic_gbps", "Gb/s of one NIC"),
                    ("counted", "true when the NICs' power is added (component-built nodes have no NIC term)")):
        if d.get(k) is None:
            r.missing(d, k, p, NIC_KEYS, what)
    ex = d.get("excluded_from_published_power")
    if ex is not None and not isinstance(ex, str):
        r.bad(p + ("excluded_from_published_power",), "`scale_out.nics.excluded_from_published_power` is the "
              f"evidence (a URL or statement) that the published figure leaves the NICs out, got {brief(ex)}",
              observed=ex, expected="a string: the evidence")
    elif isinstance(ex, str) and ex.strip():
        n.excluded = ex
    return n


def _switch(raw: Any, p: tuple, r: _P) -> Switch | None:
    d = r.mapping(raw, p)
    if d is None:
        if raw is None:
            r.bad(p, f"`{dotted(p)}` is empty", observed=None, expected="a switch object")
        return None
    s = Switch(p, model=r.string(d, "model", p), count=r.whole(d, "count", p, minimum=1),
               bandwidth_tbps=r.num(d, "bandwidth_tbps", p), power=r.sourced(d, "power_per_switch", p))
    for k, what in (("model", "the switch model"), ("count", "how many (>= 1)"),
                    ("bandwidth_tbps", "the Tb/s one switch offers")):
        if d.get(k) is None:
            r.missing(d, k, p, SWITCH_KEYS, what)
    return s


def _computed(data: dict, doc: PowerDoc, r: _P) -> None:
    if data.get("provisioned_power_kw") is not None:
        v = r.num(data, "provisioned_power_kw", (), minimum=None)
        if v is not None:
            doc.provisioned_kw = (("provisioned_power_kw",), v)
    comp = r.mapping(data.get("computed"), ("computed",))
    if comp is None:
        return
    for key in COMPUTED_FIGURES:
        if comp.get(key) is not None:
            v = r.num(comp, key, ("computed",), minimum=None)
            if v is not None:
                doc.computed[key] = (("computed", key), v)
    for key, name in COMPUTED_LEGACY.items():
        if key in comp:
            r.warn(("computed", key), f"`computed.{key}` is not an Appendix E figure and is not compared; "
                   f"Appendix E names it {name}", observed=key, expected=name, check="computed",
                   fix=f"Write it as {name}.")
