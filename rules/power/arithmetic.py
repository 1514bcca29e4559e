"""The provisioned-power arithmetic (R§4.5.2, RULES.md §2.6/§8), computed once per system and shared.

Appendix E: Total = Major x (1 + overhead) + Published + scale-out switches, where Major sums the
component_sum node sets (CPU + accelerators + scale-up network, and NICs when counted), Published
sums published_system (as published) and node_scaling (P_rack x nodes / rack nodes, whole nodes)
node sets. Flat shape: provisioned_power_w, else rack scaling, else groups x (1 + overhead). The
overhead comes from the system description's cooling. Missing values take Appendix D defaults
from policy, and every default used is recorded ("MLC Estimated Power").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from pydantic import BaseModel, ConfigDict

from checker.load.models.power import PowerDoc, Problem, parse_power


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)


class DefaultValue(_Strict):
    value_w: Optional[float] = None
    value_pj: Optional[float] = None
    subsection: str
    label: str


class AppendixD(_Strict):
    subsections: list[str]
    defaults: dict[str, DefaultValue]


class PowerPolicy(_Strict):
    """Overhead fractions, cooling vocabulary, tolerance and Appendix D defaults."""

    schema_version: int
    overhead_fraction: dict[str, float]
    cooling_classes: dict[str, list[str]]
    tolerance_fraction: float
    source_types: list[str]
    appendix_d: AppendixD
    optional_for_divisions: list[str]


#: component name -> Appendix D default key for its per-unit value
_UNIT_DEFAULTS = {"cpu": "cpu", "accelerator": "accelerator", "combined_cpu_accelerator": "combined_cpu_accelerator",
                  "compute": "compute", "scale_up_network": "scale_up_switch"}


@dataclass(slots=True)
class Estimated:
    path: tuple
    label: str
    value: str
    subsection: str | None


@dataclass
class PowerCalc:
    doc: PowerDoc
    problems: list = field(default_factory=list)
    estimated: list = field(default_factory=list)
    total_w: float | None = None
    why_no_total: str | None = None
    overhead: float | None = None
    overhead_note: str = ""
    terms: list = field(default_factory=list)  # [(label, watts)]
    set_power: list = field(default_factory=list)  # [(NodeSet, watts incl. overhead)]
    switches_w: float = 0.0
    mismatches: list = field(default_factory=list)  # [(path, label, declared_w)]


def classify_cooling(word, pol: PowerPolicy) -> str | None:
    """'liquid' | 'air' | 'passive' | 'unknown', or None when empty."""
    if not isinstance(word, str) or not word.strip():
        return None
    w = word.strip().lower()
    for cls, words in pol.cooling_classes.items():
        if any(x in w for x in words):
            return cls
    return "unknown"


def overhead_for(sysdesc, doc: PowerDoc, pol: PowerPolicy) -> tuple[float | None, str]:
    """The overhead fraction and where it came from (None with the reason when there is none)."""
    if doc.overhead_fraction is not None:
        return doc.overhead_fraction, f"explicit overhead_fraction {doc.overhead_fraction:g}"
    if sysdesc is not None and sysdesc.nodes:
        words = [(f"node_types[{i}]", n.cooling if n.cooling else sysdesc.cooling) for i, n in enumerate(sysdesc.nodes)]
        origin = "system_desc.json"
    elif sysdesc is not None and sysdesc.cooling:
        words, origin = [("system", sysdesc.cooling)], "system_desc.json"
    else:
        words, origin = [("system_power.json", doc.cooling)], "system_power.json (no readable system_desc.json)"
    classes = [(where, w, classify_cooling(w, pol)) for where, w in words]
    empty = [where for where, _w, c in classes if c is None]
    if empty:
        return None, f"cooling is empty in {origin} ({', '.join(empty)}); no overhead fraction applies"
    unknown = [f"{where} {w!r}" for where, w, c in classes if c == "unknown"]
    if unknown:
        return None, f"cooling {', '.join(unknown)} in {origin} is not one of {', '.join(pol.cooling_classes)}"
    kinds = sorted({c for _, _, c in classes})
    if len(kinds) > 1:
        frac = pol.overhead_fraction.get("mixed")
        return frac, f"mixed cooling ({', '.join(kinds)}) in {origin}: {frac:g}"
    if kinds[0] not in pol.overhead_fraction:
        return None, f"{kinds[0]} cooling in {origin} has no overhead fraction; declare overhead_fraction"
    frac = pol.overhead_fraction[kinds[0]]
    return frac, f"{kinds[0]} cooling in {origin}: {frac:g}"


class _Calc:
    def __init__(self, doc: PowerDoc, pol: PowerPolicy):
        self.pol = pol
        self.out = PowerCalc(doc=doc, problems=list(doc.problems))

    def unit_watts(self, sourced, default_key: str, path: tuple, label: str) -> float | None:
        """Per-unit power: the sourced value, or the Appendix D default (recorded); None when neither."""
        if sourced is not None:
            if sourced.watts is None:
                return None  # its problem is already recorded
            if sourced.is_default:
                self.est(sourced.path, label, f"{sourced.watts:g} W", sourced.source)
            return sourced.watts
        d = self.pol.appendix_d.defaults.get(default_key)
        if d is None or d.value_w is None:
            self.out.problems.append(Problem(path, f"{label}: no value given and Appendix D has no default for it"))
            return None
        self.est(path, label, f"{d.value_w:g} W", d.subsection)
        return d.value_w

    def est(self, path, label, value, subsection) -> None:
        if all(e.path != path for e in self.out.estimated):
            self.out.estimated.append(Estimated(path, label, value, subsection))

    def component(self, comp) -> float | None:
        """Power of one component for one node (Appendix E) or the whole system (flat groups)."""
        if comp.name == "scale_up_network" and comp.method is not None and comp.method != "declared_tdp" \
                and self.out.doc.shape == "appendix-e":
            if comp.method == "none":
                return 0.0
            if comp.bandwidth_tbps is None:
                return None
            if comp.energy is not None:
                if comp.energy.pj is None:
                    return None
                if comp.energy.is_default:
                    self.est(comp.energy.path, "scale-up energy per bit", f"{comp.energy.pj:g} pJ/bit",
                             comp.energy.source)
                return comp.bandwidth_tbps * comp.energy.pj  # Tb/s x pJ/bit = W
            d = self.pol.appendix_d.defaults.get("scale_up_energy_per_bit")
            if d is None or d.value_pj is None:
                self.out.problems.append(Problem(comp.path + ("energy_per_bit",), "scale-up energy per bit: no value "
                                                 "given and Appendix D has no default for it"))
                return None
            self.est(comp.path + ("energy_per_bit",), d.label, f"{d.value_pj:g} pJ/bit", d.subsection)
            return comp.bandwidth_tbps * d.value_pj
        if comp.count is None:
            return None
        unit_path = comp.unit.path if comp.unit is not None else comp.path + ("tdp_per_unit",)
        unit = self.unit_watts(comp.unit, _UNIT_DEFAULTS.get(comp.name, comp.name), unit_path,
                               f"{comp.name.replace('_', ' ')} power per unit")
        return None if unit is None else comp.count * unit


def compute_power(data, sysdesc, pol: PowerPolicy) -> PowerCalc:
    """Parse ``data`` (either shape) and recompute its provisioned total."""
    doc = parse_power(data, pol.source_types, pol.appendix_d.subsections)
    c = _Calc(doc, pol)
    out = c.out
    out.overhead, out.overhead_note = overhead_for(sysdesc, doc, pol)
    if doc.shape == "flat":
        _flat(c)
    else:
        _appendix_e(c)
    if out.total_w is not None:
        for path, label, w in doc.declared:
            if doc.shape == "flat" and label == "provisioned_power_w" and out.total_w == w:
                continue
            if abs(w - out.total_w) > pol.tolerance_fraction * out.total_w:
                out.mismatches.append((path, label, w))
    return out


def _appendix_e(c: _Calc) -> None:
    out, doc = c.out, c.out.doc
    majors, published, missing = [], [], []
    for ns in doc.node_sets:
        where = f"node_sets[{ns.path[-1]}]"
        if ns.method is None or ns.nodes is None:
            missing.append(where)
            continue
        nic_w = _nic_per_node(c, ns)
        if ns.method == "component_sum":
            parts = [c.component(comp) for comp in ns.components.values()]
            if not ns.components or any(p is None for p in parts) or nic_w is None:
                missing.append(where)
                continue
            majors.append((ns, (sum(parts) + (nic_w if doc.nics and doc.nics.counted else 0.0)) * ns.nodes))
        else:
            if ns.published is None or ns.published.watts is None or nic_w is None:
                missing.append(where)
                continue
            if ns.published.is_default:
                c.est(ns.published.path, "published system power", f"{ns.published.watts:g} W", ns.published.source)
            p = ns.published.watts
            if ns.method == "node_scaling":
                if not ns.nodes_in_published:
                    missing.append(where)
                    continue
                p = p * ns.nodes / ns.nodes_in_published
            if doc.nics and doc.nics.counted and doc.nics.excluded_from_published:
                p += nic_w * ns.nodes
            published.append((ns, p))
    sw = 0.0
    for s in doc.switches:
        unit = c.unit_watts(s.power, "scale_out_switch", s.path + ("power_per_switch",), "scale-out switch power")
        if unit is None or s.count is None:
            missing.append(f"scale_out.switches[{s.path[-1]}]")
            continue
        sw += s.count * unit
    out.switches_w = sw
    if missing:
        out.why_no_total = f"incomplete: {', '.join(missing)}"
        return
    if not doc.node_sets:
        out.why_no_total = "no node set"
        return
    if majors and out.overhead is None:
        out.why_no_total = out.overhead_note
        return
    oh = out.overhead or 0.0
    major = sum(w for _, w in majors)
    out.set_power = [(ns, w * (1 + oh)) for ns, w in majors] + published
    out.set_power.sort(key=lambda t: doc.node_sets.index(t[0]))
    if majors:
        out.terms += [("major (CPU + accelerators + scale-up)", major), (f"overhead x{oh:g}", major * oh)]
    if published:
        out.terms.append(("published / node-scaled", sum(w for _, w in published)))
    if doc.switches:
        out.terms.append(("scale-out switches", sw))
    out.total_w = major * (1 + oh) + sum(w for _, w in published) + sw


def _nic_per_node(c: _Calc, ns) -> float | None:
    nics = c.out.doc.nics
    if nics is None or not nics.counted:
        return 0.0
    if ns.method != "component_sum" and not nics.excluded_from_published:
        return 0.0
    if nics.count_per_node is None:
        return None
    unit = c.unit_watts(nics.tdp, "nic", nics.path + ("tdp_per_nic",), "scale-out NIC power")
    return None if unit is None else nics.count_per_node * unit


def _flat(c: _Calc) -> None:
    out, doc = c.out, c.out.doc
    major, complete = 0.0, 0
    for name in ("compute", "cpu", "accelerator", "scale_up_network"):
        g = doc.groups.get(name)
        if g is None:
            if name in ("cpu", "accelerator") and "compute" not in doc.groups:
                c.est((name,), f"{name} group", "blank (left for MLCommons to fill)", None)
            continue
        if g.count is None:
            c.est(g.path, f"{name} group", "no count (left for MLCommons to fill)", None)
            continue
        w = c.component(g)
        if w is not None:
            major += w
            complete += 1
    if "scale_out_network" in doc.groups:
        g = doc.groups["scale_out_network"]
        if g.count is not None and g.unit is not None and g.unit.watts is not None:
            out.terms.append(("scale-out network (reported, not added)", g.count * g.unit.watts))
    recomputed = None
    if doc.rack is not None:
        rp, rn, sn = doc.rack
        recomputed = rp * sn / rn
        out.terms.append((f"rack scaling {rp:g} W x {sn}/{rn} nodes", recomputed))
    elif complete:
        if out.overhead is None:
            out.why_no_total = out.overhead_note
        else:
            recomputed = major * (1 + out.overhead)
            out.terms += [("major (CPU + accelerators + scale-up)", major),
                          (f"overhead x{out.overhead:g}", major * out.overhead)]
    declared = next((w for _p, label, w in doc.declared if label == "provisioned_power_w"), None)
    if declared is not None and recomputed is None:
        out.total_w = declared
        out.why_no_total = None
        out.terms.append(("declared provisioned_power_w", declared))
        return
    out.total_w = recomputed
    if recomputed is None and out.why_no_total is None:
        out.why_no_total = "no provisioned_power_w, rack scaling or complete component group"
