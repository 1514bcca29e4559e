"""E.4: the scale-out fabric of system_power.json, checked against the node sets (POWER.md E.4).

* NICs (check "nics"): component-built nodes have no NIC term, so with any component_sum set the
  NICs must be counted; published node figures include their NICs, so counting them where every
  set is published is wrong unless ``excluded_from_published_power`` gives the evidence.
* Bandwidth (check "bandwidth"): the requirement is at least nodes x NICs per node x Gb/s / 1000
  (Tb/s); a smaller ``required_bandwidth_tbps`` rejects, a larger one warns; the switches must offer
  (sum of count x bandwidth_tbps) at least the requirement.
* Fabric (check "fabric"): ``present: false`` suits one node, or nodes joined by a fabric counted in
  scale-up: a multi-node system of component_sum sets whose scale-up method is ``none`` has nothing
  joining its nodes (reject); with a published figure or a scale-up network it may (warning).
  ``present: true`` on one node is a warning.

Each finding is a ``PowerFinding`` tagged with its check; ``rules/power/scale_out.py`` reports them.
"""
from __future__ import annotations

from rules.power.doc import PowerFinding
from rules.power.policy import nic_default

_EPS = 1e-9


def carries_nics(doc, ns) -> bool:
    """Counted NIC watts go to this set's major figure: every component_sum set, and a published set
    whose figure is evidenced to leave the NICs out."""
    so = doc.scale_out
    nics = so.nics if so is not None and so.present else None
    if nics is None or not nics.counted or ns.nodes is None:
        return False
    return ns.method == "component_sum" or (ns.method in ("published_system", "node_scaling")
                                            and nics.excluded is not None)


def nic_watts_per_node(c) -> float | None:
    """Counted NIC power of one node (D.4 default when tdp_per_nic is absent), 0 when not counted."""
    so = c.out.doc.scale_out
    nics = so.nics if so is not None and so.present else None
    if nics is None or not nics.counted:
        return 0.0
    if nics.count_per_node is None:
        return None
    if nics.count_per_node == 0:
        return 0.0
    unit = c.figure(nics.tdp, nics.path + ("tdp_per_nic",), "scale-out NIC TDP", nic_default(c.pol))
    return None if unit is None else nics.count_per_node * unit


def check_fabric(c) -> None:
    out = c.out
    doc = out.doc
    so = doc.scale_out
    if so is None or so.present is None or not doc.node_sets:
        return
    nodes = out.nodes
    _fabric(out, so, nodes)
    if so.complete:  # present, with a well-formed fabric (else power-descriptor reports it)
        _nics(out, so)
        _bandwidth(out, so, nodes)


def _fabric(out, so, nodes: int) -> None:
    doc = out.doc
    if so.present:
        if nodes == 1:
            out.warnings.append(PowerFinding(("scale_out", "present"), "scale_out.present is true on a one-node system "
                                        "(E.4: present: false for a single node); its switches are still added",
                                        "fabric", observed=True, expected=False))
        return
    if so.nics is not None or so.switches:
        out.warnings.append(PowerFinding(("scale_out",), "scale_out.present is false, so the NICs and switches listed are "
                                    "not counted", "fabric", observed="present: false with nics/switches",
                                    expected="present: true, or no nics/switches"))
    if nodes <= 1:
        return
    sets = doc.node_sets
    unjoined = all(ns.method == "component_sum" and ns.scale_up is not None and ns.scale_up.method == "none"
                   for ns in sets)
    if unjoined:
        out.problems.append(PowerFinding(
            ("scale_out", "present"), f"{nodes} nodes and nothing joins them: scale_out.present is false and every "
            "node set is component_sum with scale_up_network.method none (E.4)", "fabric", observed=False,
            expected="present: true with the scale-out NICs and switches",
            fix="Declare the scale-out fabric (present: true, cabling, required_bandwidth_tbps, nics, switches), or "
                "the scale-up network that joins the nodes."))
    else:
        out.warnings.append(PowerFinding(
            ("scale_out", "present"), f"{nodes} nodes with scale_out.present false: the file cannot say whether the "
            "scale-up network or published figure spans the nodes (E.4); reviewers check it", "fabric",
            observed=False, expected="present: true, unless a fabric counted in scale-up joins the nodes"))


def _nics(out, so) -> None:
    nics = so.nics
    if nics.counted is None:
        return
    sets = out.doc.node_sets
    by_formula = any(ns.method == "component_sum" for ns in sets)
    path = nics.path + ("counted",)
    if nics.counted and not by_formula and nics.excluded is None:
        out.problems.append(PowerFinding(
            path, "scale_out.nics.counted is true but every node set is published: published node figures include "
            "their NICs (E.4), so counting them adds them twice", "nics", observed=True, expected=False,
            fix="Set counted: false, or give excluded_from_published_power: the evidence that the published figure "
                "leaves the NICs out."))
    elif not nics.counted and by_formula:
        names = [f"node_sets[{ns.path[-1]}]" for ns in sets if ns.method == "component_sum"]
        out.problems.append(PowerFinding(
            path, f"scale_out.nics.counted is false but {', '.join(names)} "
            f"{'is' if len(names) == 1 else 'are'} component_sum: component-built nodes have no NIC term, so "
            "their NICs must be counted (E.4)", "nics", observed=False, expected=True,
            fix="Set counted: true (with tdp_per_nic, or the Appendix D.4 default of the NIC applies)."))


def _bandwidth(out, so, nodes: int) -> None:
    nics = so.nics
    if nics.count_per_node is None or nics.bandwidth_gbps is None or so.required_tbps is None:
        return
    need = nodes * nics.count_per_node * nics.bandwidth_gbps / 1000.0
    how = f"{nodes} nodes x {nics.count_per_node} NICs x {nics.bandwidth_gbps:g} Gb/s = {need:g} Tb/s"
    req = so.required_tbps
    if req < need - _EPS * max(1.0, need):
        out.problems.append(PowerFinding(
            ("scale_out", "required_bandwidth_tbps"), f"required_bandwidth_tbps {req:g} is below what the NICs "
            f"require: {how} (E.4)", "bandwidth", observed=req, expected=f">= {need:g}",
            fix=f"Write required_bandwidth_tbps {need:g} (and switches that offer it)."))
    elif req > need + _EPS * max(1.0, need):
        out.warnings.append(PowerFinding(
            ("scale_out", "required_bandwidth_tbps"), f"required_bandwidth_tbps {req:g} is above what the NICs "
            f"require ({how}); the switches are held to {req:g}", "bandwidth", observed=req, expected=need))
    switches = so.switches or []
    if any(s.count is None or s.bandwidth_tbps is None for s in switches):
        return  # a malformed switch is reported by power-descriptor
    offered = sum(s.count * s.bandwidth_tbps for s in switches)
    target = max(req, need)
    if offered < target - _EPS * max(1.0, target):
        parts = " + ".join(f"{s.count} x {s.bandwidth_tbps:g}" for s in switches) or "no switch"
        out.problems.append(PowerFinding(
            ("scale_out", "switches"), f"the switches offer {offered:g} Tb/s ({parts}) but the fabric requires "
            f"{target:g} Tb/s (E.4)", "bandwidth", observed=offered, expected=f">= {target:g}",
            fix="List every scale-out switch with its count and bandwidth_tbps; the fabric must carry what the NICs "
                "require."))
