"""The arithmetic of the older flat ``system_power.json`` shape (RULES.md §2.6), kept for the legacy flag.

provisioned_power_w as declared, else rack scaling (rack_power_w x submitted_nodes / rack_nodes),
else the groups x (1 + overhead), with the overhead from the system description's cooling (node
types cooled differently: the policy's mixed_cooling) or an explicit overhead_fraction.
"""
from __future__ import annotations

from rules.power.cooling import classify_cooling


def overhead_for(sysdesc, doc, pol) -> tuple[float | None, str]:
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
        frac = pol.overhead_fraction[pol.mixed_cooling]
        return frac, f"mixed cooling ({', '.join(kinds)}) in {origin}: {frac:g}"
    if kinds[0] not in pol.overhead_fraction:
        return None, f"{kinds[0]} cooling in {origin} has no overhead fraction; declare overhead_fraction"
    frac = pol.overhead_fraction[kinds[0]]
    return frac, f"{kinds[0]} cooling in {origin}: {frac:g}"


def _group_w(c, g) -> float | None:
    if g.count is None or g.unit is None or g.unit.watts is None:
        return None
    return g.count * g.unit.watts


def flat_total(c) -> None:
    out, doc, pol = c.out, c.out.doc, c.pol
    out.overhead, out.overhead_note = overhead_for(c.sysdesc, doc, pol)
    major, complete = 0.0, 0
    for name in ("compute", "cpu", "accelerator", "scale_up_network"):
        g = doc.groups.get(name)
        if g is None:
            if name in ("cpu", "accelerator") and "compute" not in doc.groups:
                c.est((name,), f"{name} group", "blank (left for MLCommons to fill)", None)
            continue
        w = _group_w(c, g)
        if w is None:
            c.est(g.path, f"{name} group", "no count or per-unit figure (left for MLCommons to fill)", None)
            continue
        major += w
        complete += 1
    if "scale_out_network" in doc.groups:
        w = _group_w(c, doc.groups["scale_out_network"])
        if w is not None:
            out.terms.append(("scale-out network (reported, not added)", w))
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
    out.estimated = c.pending
    declared = next((w for _p, label, w in doc.flat_declared if label == "provisioned_power_w"), None)
    if declared is not None and recomputed is None:
        out.recomputed_w = out.total_w = declared
        out.why_no_total = None
        out.terms.append(("declared provisioned_power_w", declared))
    else:
        out.recomputed_w = out.total_w = recomputed
        if recomputed is None and out.why_no_total is None:
            out.why_no_total = "no provisioned_power_w, rack scaling or complete component group"
        if recomputed is not None:
            for path, label, w in doc.flat_declared:
                if w != recomputed and abs(w - recomputed) > pol.tolerance_fraction * recomputed:
                    out.mismatches.append((path, label, w))
    if out.problems or out.mismatches:
        out.total_w = None
