"""``results/<system>/system_power.json`` (R§4.5.2): both shapes, parsed into one neutral structure.

* Appendix E (current): ``node_sets[]`` with a power method each (component_sum, published_system,
  node_scaling), sourced values (exactly one of value_w / value_kw / value_pj, a source_type and an
  http(s) source, or an Appendix D subsection for mlc_default), and ``scale_out`` NICs and switches.
* The older flat group shape (``provisioned_power_w``, ``cpu``/``accelerator``/``compute``/
  ``scale_up_network`` groups, ``overhead_fraction``), still read but superseded.

Parsing never raises: each problem is recorded with its path so findings point at the line. Absent
values stay None; ``rules/power_calc.py`` fills Appendix D defaults and does the arithmetic.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from checker.load.models import dotted, is_http_url

FLAT_KEYS = ("provisioned_power_w", "rack_power_w", "rack_nodes", "submitted_nodes", "cpu", "accelerator",
             "compute", "scale_up_network", "scale_out_network")
SOURCED_KEYS = {"value_w", "value_kw", "value_pj", "source_type", "source"}
POWER_METHODS = ("component_sum", "published_system", "node_scaling")
SCALE_UP_METHODS = ("declared_tdp", "bandwidth_estimate", "none")


@dataclass(slots=True)
class Problem:
    path: tuple
    message: str


@dataclass(slots=True)
class Sourced:
    """A sourced value: watts (from value_w or value_kw) or picojoules per bit (value_pj)."""

    path: tuple
    watts: float | None = None
    pj: float | None = None
    source_type: str | None = None
    source: str | None = None

    @property
    def is_default(self) -> bool:
        return self.source_type == "mlc_default"


@dataclass(slots=True)
class Component:
    """One power component: a count (per node, or per system in the flat shape) times a per-unit value."""

    name: str
    path: tuple
    count: int | None = None
    unit: Sourced | None = None  # power per unit
    method: str | None = None  # scale-up network: declared_tdp | bandwidth_estimate | none
    bandwidth_tbps: float | None = None
    energy: Sourced | None = None  # pJ per bit, for bandwidth_estimate


@dataclass(slots=True)
class NodeSet:
    path: tuple
    node_set_id: Any = None
    ensemble_id: Any = None
    nodes: int | None = None
    method: str | None = None
    published: Sourced | None = None
    nodes_in_published: int | None = None
    components: dict = field(default_factory=dict)  # name -> Component


@dataclass(slots=True)
class Nics:
    path: tuple
    count_per_node: int | None = None
    bandwidth_gbps: float | None = None
    counted: bool = False
    tdp: Sourced | None = None
    excluded_from_published: bool = False


@dataclass(slots=True)
class Switch:
    path: tuple
    model: str | None = None
    count: int | None = None
    bandwidth_tbps: float | None = None
    power: Sourced | None = None


@dataclass
class PowerDoc:
    shape: str  # "appendix-e" | "flat"
    problems: list = field(default_factory=list)
    system_desc_id: Any = None
    cooling: Any = None
    overhead_fraction: float | None = None
    node_sets: list = field(default_factory=list)
    scale_out_present: bool | None = None
    nics: Nics | None = None
    switches: list = field(default_factory=list)
    declared: list = field(default_factory=list)  # [(path, label, watts)] totals the submitter wrote
    groups: dict = field(default_factory=dict)  # flat shape: name -> Component (counts per system)
    rack: tuple | None = None  # flat shape: (rack_power_w, rack_nodes, submitted_nodes)


class _P:
    """Field readers that record a problem instead of raising."""

    def __init__(self, source_types: list[str], subsections: list[str]):
        self.problems: list[Problem] = []
        self.source_types = source_types
        self.subsections = subsections

    def bad(self, path: tuple, msg: str) -> None:
        self.problems.append(Problem(path, msg))

    def num(self, d: dict, key: str, path: tuple, what: str = "a number >= 0") -> float | None:
        v = d.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be {what}, got {_brief(v)}")
            return None
        return float(v)

    def count(self, d: dict, key: str, path: tuple, minimum: int = 0) -> int | None:
        v = d.get(key)
        if v is None:
            return None
        if isinstance(v, bool) or not isinstance(v, int) or v < minimum:
            self.bad(path + (key,), f"`{dotted(path + (key,))}` must be a whole number >= {minimum}, got {_brief(v)}")
            return None
        return v

    def mapping(self, d: Any, path: tuple) -> dict | None:
        if d is None:
            return None
        if not isinstance(d, dict):
            self.bad(path, f"`{dotted(path)}` must be a mapping, got {_brief(d)}")
            return None
        return d

    def sourced(self, d: dict, key: str, path: tuple, want: str = "power") -> Sourced | None:
        p = path + (key,)
        v = self.mapping(d.get(key), p)
        if v is None:
            return None
        extra = sorted(set(v) - SOURCED_KEYS, key=str)
        if extra:
            self.bad(p, f"`{dotted(p)}` has unknown key(s) {', '.join(map(str, extra))}; a sourced value holds "
                        "one of value_w/value_kw/value_pj, source_type and source")
        vals = [k for k in ("value_w", "value_kw", "value_pj") if v.get(k) is not None]
        out = Sourced(p)
        if len(vals) != 1:
            self.bad(p, f"`{dotted(p)}` must give exactly one of value_w, value_kw, value_pj (found "
                        f"{', '.join(vals) or 'none'})")
        else:
            x = self.num(v, vals[0], p)
            if vals[0] == "value_pj":
                out.pj = x
                if want == "power":
                    self.bad(p + ("value_pj",), f"`{dotted(p)}` is a power: give value_w or value_kw, not energy per bit")
            else:
                out.watts = None if x is None else (x * 1000.0 if vals[0] == "value_kw" else x)
                if want == "energy":
                    self.bad(p + (vals[0],), f"`{dotted(p)}` is an energy per bit: give value_pj")
        st, src = v.get("source_type"), v.get("source")
        out.source_type = st if isinstance(st, str) else None
        out.source = src if isinstance(src, str) else None
        if st not in self.source_types:
            self.bad(p + ("source_type",), f"`{dotted(p)}.source_type` must be one of {', '.join(self.source_types)}, "
                                           f"got {_brief(st)}")
        elif st == "mlc_default":
            if src not in self.subsections:
                self.bad(p + ("source",), f"`{dotted(p)}.source` must name an Appendix D subsection "
                                          f"({', '.join(self.subsections)}) for mlc_default, got {_brief(src)}")
        elif not is_http_url(src):
            self.bad(p + ("source",), f"`{dotted(p)}.source` must be an http(s) URL of the evidence, got {_brief(src)}")
        return out


def parse_power(data: Any, source_types: list[str], subsections: list[str]) -> PowerDoc:
    """Parse either shape; ``problems`` holds every structural problem found."""
    r = _P(source_types, subsections)
    if not isinstance(data, dict):
        doc = PowerDoc("appendix-e")
        doc.problems.append(Problem((), f"the file must hold a JSON object, not {_brief(data)}"))
        return doc
    if "node_sets" not in data and any(k in data for k in FLAT_KEYS):
        from checker.load.models.power_flat import parse_flat

        doc = parse_flat(data, r)
    else:
        doc = _parse_appendix_e(data, r)
    doc.overhead_fraction = r.num(data, "overhead_fraction", (), "a number >= 0")
    doc.problems = r.problems
    return doc


def _parse_appendix_e(data: dict, r: _P) -> PowerDoc:
    doc = PowerDoc("appendix-e", system_desc_id=data.get("system_desc_id"), cooling=data.get("cooling"))
    sets = data.get("node_sets")
    if not isinstance(sets, list) or not sets:
        r.bad(("node_sets",), "`node_sets` must be a non-empty list of node sets")
        sets = []
    seen: dict = {}
    for i, raw in enumerate(sets):
        ns = _node_set(raw, ("node_sets", i), r)
        if ns is None:
            continue
        if ns.node_set_id is not None:
            if ns.node_set_id in seen:
                r.bad(ns.path + ("node_set_id",), f"node_set_id {ns.node_set_id!r} is used twice "
                                                  f"(node_sets[{seen[ns.node_set_id]}] and node_sets[{i}])")
            seen.setdefault(ns.node_set_id, i)
        doc.node_sets.append(ns)
    _scale_out(data, doc, r)
    _declared_totals(data, doc, r)
    return doc


def _node_set(raw: Any, path: tuple, r: _P) -> NodeSet | None:
    d = r.mapping(raw, path)
    if d is None:
        if raw is None:
            r.bad(path, f"`{dotted(path)}` is empty")
        return None
    ns = NodeSet(path, node_set_id=d.get("node_set_id"), ensemble_id=d.get("system_node_ensemble_id"))
    if not isinstance(ns.node_set_id, (str, int)) or isinstance(ns.node_set_id, bool) or ns.node_set_id == "":
        r.bad(path + ("node_set_id",), f"`{dotted(path)}.node_set_id` must be a non-empty id")
        ns.node_set_id = None
    ns.nodes = r.count(d, "nodes_provisioned", path, minimum=1)
    if d.get("nodes_provisioned") is None:
        r.bad(path + ("nodes_provisioned",), f"`{dotted(path)}.nodes_provisioned` is missing (whole nodes, >= 1)")
    ns.method = d.get("power_method")
    if ns.method not in POWER_METHODS:
        r.bad(path + ("power_method",), f"`{dotted(path)}.power_method` must be one of {', '.join(POWER_METHODS)}, "
                                        f"got {_brief(ns.method)}")
        ns.method = None
    if ns.method in ("published_system", "node_scaling"):
        ns.published = r.sourced(d, "published_power", path)
        if ns.published is None:
            r.bad(path + ("published_power",), f"`{dotted(path)}.published_power` is required by {ns.method}")
        ns.nodes_in_published = r.count(d, "nodes_in_published_rack", path, minimum=1)
        if ns.method == "node_scaling" and d.get("nodes_in_published_rack") is None:
            r.bad(path + ("nodes_in_published_rack",), f"`{dotted(path)}.nodes_in_published_rack` is required by "
                                                       "node_scaling")
        if (ns.method == "published_system" and ns.nodes_in_published is not None and ns.nodes is not None
                and ns.nodes_in_published != ns.nodes):
            r.bad(path + ("nodes_in_published_rack",), f"published_system covers {ns.nodes_in_published} node(s) but "
                  f"{ns.nodes} are provisioned; use node_scaling to scale a published rack by whole nodes")
    elif ns.method == "component_sum":
        comps = r.mapping(d.get("components"), path + ("components",))
        if comps is None:
            r.bad(path + ("components",), f"`{dotted(path)}.components` is required by component_sum")
        else:
            _components(comps, path + ("components",), ns, r)
    return ns


def _components(comps: dict, path: tuple, ns: NodeSet, r: _P) -> None:
    if "combined_cpu_accelerator" in comps and ("cpu" in comps or "accelerator" in comps):
        r.bad(path + ("combined_cpu_accelerator",), "combined_cpu_accelerator replaces cpu and accelerator; give "
                                                    "one or the other, not both")
    names = ("combined_cpu_accelerator",) if "combined_cpu_accelerator" in comps else ("cpu", "accelerator")
    for name in names:
        p = path + (name,)
        c = r.mapping(comps.get(name), p)
        if c is None:
            r.bad(p, f"`{dotted(p)}` is missing")
            continue
        comp = Component(name, p, count=r.count(c, "count_per_node", p), unit=r.sourced(c, "tdp_per_unit", p))
        if c.get("count_per_node") is None:
            r.bad(p + ("count_per_node",), f"`{dotted(p)}.count_per_node` is missing")
        ns.components[name] = comp
    p = path + ("scale_up_network",)
    c = r.mapping(comps.get("scale_up_network"), p)
    if c is None:
        r.bad(p, f"`{dotted(p)}` is missing (write {{\"method\": \"none\"}} when the nodes have no scale-up switch)")
        return
    comp = Component("scale_up_network", p, method=c.get("method"))
    if comp.method not in SCALE_UP_METHODS:
        r.bad(p + ("method",), f"`{dotted(p)}.method` must be one of {', '.join(SCALE_UP_METHODS)}, "
                               f"got {_brief(comp.method)}")
        comp.method = None
    elif comp.method == "declared_tdp":
        comp.count = r.count(c, "count_per_node", p)
        if c.get("count_per_node") is None:
            r.bad(p + ("count_per_node",), f"`{dotted(p)}.count_per_node` is required by declared_tdp")
        comp.unit = r.sourced(c, "tdp_per_unit", p)
    elif comp.method == "bandwidth_estimate":
        comp.bandwidth_tbps = r.num(c, "bandwidth_tbps", p)
        if c.get("bandwidth_tbps") is None:
            r.bad(p + ("bandwidth_tbps",), f"`{dotted(p)}.bandwidth_tbps` (per node) is required by bandwidth_estimate")
        comp.energy = r.sourced(c, "energy_per_bit", p, want="energy")
    ns.components["scale_up_network"] = comp


def _scale_out(data: dict, doc: PowerDoc, r: _P) -> None:
    so = r.mapping(data.get("scale_out"), ("scale_out",))
    if so is None:
        if "scale_out" not in data:
            r.bad(("scale_out",), "`scale_out` is missing (write {\"present\": false} when there is no scale-out "
                                  "network)")
        return
    present = so.get("present")
    if not isinstance(present, bool):
        r.bad(("scale_out", "present"), f"`scale_out.present` must be true or false, got {_brief(present)}")
        return
    doc.scale_out_present = present
    nics, switches = so.get("nics"), so.get("switches")
    if not present:
        if nics or switches:
            r.bad(("scale_out",), "`scale_out.present` is false but NICs or switches are listed")
        return
    if nics is not None:
        d = r.mapping(nics, ("scale_out", "nics"))
        if d is not None:
            p = ("scale_out", "nics")
            doc.nics = Nics(p, count_per_node=r.count(d, "count_per_node", p),
                            bandwidth_gbps=r.num(d, "bandwidth_per_nic_gbps", p), counted=d.get("counted") is True,
                            tdp=r.sourced(d, "tdp_per_nic", p),
                            excluded_from_published=d.get("excluded_from_published_power") is True)
            for k in ("counted", "excluded_from_published_power"):
                if k in d and not isinstance(d[k], bool):
                    r.bad(p + (k,), f"`scale_out.nics.{k}` must be true or false, got {_brief(d[k])}")
            if doc.nics.counted and doc.nics.count_per_node is None:
                r.bad(p + ("count_per_node",), "`scale_out.nics.count_per_node` is required when the NICs are counted")
    if switches is None:
        return
    if not isinstance(switches, list):
        r.bad(("scale_out", "switches"), f"`scale_out.switches` must be a list, got {_brief(switches)}")
        return
    for i, raw in enumerate(switches):
        p = ("scale_out", "switches", i)
        d = r.mapping(raw, p)
        if d is None:
            continue
        sw = Switch(p, model=d.get("model") if isinstance(d.get("model"), str) else None,
                    count=r.count(d, "count", p), bandwidth_tbps=r.num(d, "bandwidth_tbps", p),
                    power=r.sourced(d, "power_per_switch", p))
        if d.get("count") is None:
            r.bad(p + ("count",), f"`{dotted(p)}.count` is missing")
        doc.switches.append(sw)


def _declared_totals(data: dict, doc: PowerDoc, r: _P) -> None:
    kw = r.num(data, "provisioned_power_kw", ())
    if kw is not None:
        doc.declared.append((("provisioned_power_kw",), "provisioned_power_kw", kw * 1000.0))
    dec = r.sourced(data, "declared_provisioned_power", ())
    if dec is not None and dec.watts is not None:
        doc.declared.append((dec.path, "declared_provisioned_power", dec.watts))
    comp = data.get("computed")
    if isinstance(comp, dict):
        for key, scale in (("total_w", 1.0), ("provisioned_power_w", 1.0), ("total_kw", 1000.0),
                           ("provisioned_power_kw", 1000.0)):
            v = r.num(comp, key, ("computed",))
            if v is not None:
                doc.declared.append((("computed", key), f"computed.{key}", v * scale))
    elif comp is not None:
        r.bad(("computed",), f"`computed` must be a mapping (e.g. {{\"total_kw\": ...}}), got {_brief(comp)}")


def _brief(v: Any) -> str:
    if isinstance(v, dict):
        return f"a mapping of {len(v)} keys"
    if isinstance(v, list):
        return f"a list of {len(v)} items"
    if v is None:
        return "nothing"
    s = repr(v)
    return s if len(s) <= 50 else s[:47] + "..."
