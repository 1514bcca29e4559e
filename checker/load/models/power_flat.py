"""The older flat shape of ``system_power.json`` (RULES.md §2.6, checker v1.0.1.0): still read and
recomputed, and reported as superseded by the Appendix E node-set shape (``checker.load.models.power``)."""
from __future__ import annotations

from checker.load.models.power import Component, PowerDoc, Sourced, _P

#: flat-shape group -> (count spellings, per-unit spellings)
FLAT_GROUPS = {
    "cpu": (("num_cpu", "count"), ("tdp_per_cpu", "tdp_per_unit")),
    "accelerator": (("num_accelerator", "count"), ("tdp_per_accelerator", "tdp_per_unit")),
    "compute": (("num_compute", "count"), ("tdp_per_compute", "tdp_per_unit")),
    "scale_up_network": (("num_switches", "count"), ("tdp_per_switch", "tdp_per_unit")),
    "scale_out_network": (("num_switches", "count"), ("tdp_per_switch", "tdp_per_unit")),
}


def parse_flat(data: dict, r: _P) -> PowerDoc:
    """Groups with `num_*`/`tdp_per_*` or `count`/`tdp_per_unit`, rack scaling, a declared total."""
    doc = PowerDoc("flat", system_desc_id=data.get("system_desc_id"), cooling=data.get("cooling"))
    w = r.num(data, "provisioned_power_w", ())
    if w is not None:
        doc.declared.append((("provisioned_power_w",), "provisioned_power_w", w))
    rack = [r.num(data, "rack_power_w", ()), r.count(data, "rack_nodes", (), 1), r.count(data, "submitted_nodes", (), 1)]
    if all(x is not None for x in rack):
        doc.rack = tuple(rack)
    elif any(data.get(k) is not None for k in ("rack_power_w", "rack_nodes", "submitted_nodes")):
        r.bad(("rack_power_w",), "rack scaling needs all of rack_power_w, rack_nodes and submitted_nodes "
                                 "(whole nodes)")
    for name, (counts, units) in FLAT_GROUPS.items():
        g = r.mapping(data.get(name), (name,))
        if g is None:
            continue
        ck = next((k for k in counts if k in g), counts[0])
        uk = next((k for k in units if k in g), units[0])
        comp = Component(name, (name,), count=r.count(g, ck, (name,)))
        x = r.num(g, uk, (name,))
        comp.unit = None if x is None else Sourced((name, uk), watts=x, source_type="flat",
                                                   source=g.get("link") or g.get("public_specification"))
        doc.groups[name] = comp
    if "compute" in doc.groups and ("cpu" in doc.groups or "accelerator" in doc.groups):
        r.bad(("compute",), "`compute` replaces `cpu` and `accelerator`; give one or the other")
    return doc
