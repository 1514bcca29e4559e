"""The scale-out fabric of system_power.json (R§4.5.2; POWER.md E.4): NICs, bandwidth, what joins the nodes.

The checks themselves run once per system with the recomputation (``rules/power/fabric.py``), since
a descriptor any of them rejects normalises nothing; these rules report them.
"""
from __future__ import annotations

from checker.core.rule import Skipped, rule
from rules.power.descriptor import appendix_e, check_outcome


def _fabric(system, ctx, need_nics: bool):
    """(LoadedFile, PowerCalc) of an Appendix E descriptor with a scale-out fabric to judge; else ``Skipped``."""
    lf, calc = appendix_e(system, ctx)
    so = calc.doc.scale_out
    if so is None or so.present is None or not calc.doc.node_sets:
        raise Skipped("no readable scale_out or node sets (see power-descriptor)", reason="input-not-valid")
    if need_nics and not so.present:
        raise Skipped("scale_out.present is false: no scale-out NICs", reason="not-applicable")
    if need_nics and not so.complete:
        raise Skipped("the scale-out fabric is not well formed (see power-descriptor)", reason="input-not-valid")
    return lf, calc


@rule(id="power-scale-out-nics", title="Scale-out NICs counted where they belong", clause="R§4.5.2",
      severity="reject", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_scale_out_nics(system, ctx):
    """The scale-out NICs are counted on component-built nodes, and not twice on published ones.

    What it checks: with scale_out.present true, `nics.counted` is true when any node set is
    component_sum; and, when every node set is published (published_system or node_scaling),
    counted is false unless `excluded_from_published_power` gives the evidence that the published
    figure leaves the NICs out. Counted NIC watts (tdp_per_nic, else the Appendix D.4 NIC
    default) are added per node to the major figure of each set that carries them.
    Why: E.4 (POWER.md): a node built from its components has no NIC term, so leaving its NICs
    uncounted understates the power; a published node figure already includes them.
    How to fix: Set counted: true for component-built nodes; for published figures set it false,
    or give the evidence in excluded_from_published_power.
    """
    lf, calc = _fabric(system, ctx, need_nics=True)
    n = calc.doc.scale_out.nics
    return check_outcome(lf, calc, "nics", f"{n.count_per_node} NIC(s) per node, counted: {n.counted}")


@rule(id="power-scale-out-bandwidth", title="Scale-out bandwidth covers the NICs", clause="R§4.5.2",
      severity="reject", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_scale_out_bandwidth(system, ctx):
    """The required scale-out bandwidth covers the NICs, and the switches offer it.

    What it checks: `required_bandwidth_tbps` is at least nodes x NICs per node x Gb/s per NIC
    / 1000 (a smaller figure rejects; a larger one is a warning), and the switches offer (sum of
    count x bandwidth_tbps) at least the requirement.
    Why: E.4 (POWER.md): fewer or smaller switches than the fabric needs would understate the
    switch power, which is added to the total as wall power.
    How to fix: Write the requirement the NICs give, and list every scale-out switch with its
    count and bandwidth.
    """
    lf, calc = _fabric(system, ctx, need_nics=True)
    so = calc.doc.scale_out
    offered = sum((s.count or 0) * (s.bandwidth_tbps or 0.0) for s in so.switches or [])
    return check_outcome(lf, calc, "bandwidth", f"switches offer {offered:g} Tb/s for a requirement of "
                                                f"{so.required_tbps if so.required_tbps is not None else '?'} Tb/s")


@rule(id="power-scale-out-fabric", title="Something joins the nodes", clause="R§4.5.2", severity="reject", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_scale_out_fabric(system, ctx):
    """A multi-node system declares what joins its nodes; a one-node system declares no scale-out fabric.

    What it checks: with scale_out.present false and more than one node, at least one node set
    has a scale-up network or a published figure (else nothing joins the nodes: reject; with one,
    a warning, since the file cannot say whether it spans the nodes). present true on one node,
    and NICs or switches listed under present false, are warnings.
    Why: E.4 (POWER.md): present false is for one node, or nodes joined only by a fabric counted
    in scale-up; leaving a scale-out fabric out drops its switch power from the total.
    How to fix: Declare the scale-out fabric (present: true, cabling, required_bandwidth_tbps,
    nics, switches), or the scale-up network that joins the nodes.
    """
    lf, calc = _fabric(system, ctx, need_nics=False)
    present = calc.doc.scale_out.present
    return check_outcome(lf, calc, "fabric", f"{calc.nodes} node(s), scale_out.present {str(present).lower()}")
