"""The flat shape of ``system_power.json`` (superseded; ``checker.load.models.power_flat``) as the
figures its arithmetic reads: groups with their count and per-unit TDP, rack scaling, a declared total."""
from __future__ import annotations

from checker.load.models.power_flat import FLAT_GROUPS
from rules.power.doc import Component, PowerDoc, Sourced


def read_flat(m, f) -> PowerDoc:
    """``m``: a validated ``FlatPower``; ``f``: the file's ``rules.power.findings.Findings``."""
    doc = PowerDoc("flat", system_desc_id=m.system_desc_id, cooling=m.cooling)
    doc.overhead_fraction = f.num(m, "overhead_fraction", ())
    w = f.num(m, "provisioned_power_w", ())
    if w is not None:
        doc.flat_declared.append((("provisioned_power_w",), "provisioned_power_w", w))
    rack = [f.num(m, "rack_power_w", ()), f.whole(m, "rack_nodes", (), 1), f.whole(m, "submitted_nodes", (), 1)]
    if all(x is not None for x in rack):
        doc.rack = tuple(rack)
    elif any(f.given(m, k, ()) for k in ("rack_power_w", "rack_nodes", "submitted_nodes")):
        f.bad(("rack_power_w",), "rack scaling needs all of rack_power_w, rack_nodes and submitted_nodes "
                                 "(whole nodes)", observed=None, expected="rack_power_w, rack_nodes, submitted_nodes")
    for name, (counts, units) in FLAT_GROUPS.items():
        g = getattr(m, name)
        if g is None:
            continue
        p = (name,)
        ck = next((k for k in counts if f.given(g, k, p)), counts[0])
        uk = next((k for k in units if f.given(g, k, p)), units[0])
        comp = Component(name, p, count=f.whole(g, ck, p))
        x = f.num(g, uk, p)
        link = g.link if g.link is not None else g.public_specification
        comp.unit = None if x is None else Sourced((name, uk), watts=x, source_type="flat", source=link)
        doc.groups[name] = comp
    if "compute" in doc.groups and ("cpu" in doc.groups or "accelerator" in doc.groups):
        f.bad(("compute",), "`compute` replaces `cpu` and `accelerator`; give one or the other", observed="compute",
              expected="compute, or cpu and accelerator")
    return doc
