"""Provisioned power (``results/<system>/system_power.json``, R§4.5.2): the system-level rules.

The file is parsed and its total recomputed once per system (``power_calc``); the point rules
(nodes used, engagement, TPS per kW) are in ``rules/power_points.py``.
"""
from __future__ import annotations

from checker.load.models import dotted
from checker.core.rule import Fail, Pass, Skip, rule
from rules.power.arithmetic import PowerCalc, classify_cooling, compute_power


def system_sysdesc(system):
    """The system's first readable system description (curves and points in order), or None."""
    def find():
        for curve in sorted(system.curves, key=lambda c: c.name):
            for p in curve.points:
                if p.sysdesc is not None:
                    return p.sysdesc
        return None
    return system.cached("first_sysdesc", find)


def power_calc(system, ctx) -> PowerCalc | None:
    """The parsed and recomputed system_power.json, or None when it did not load."""
    pol = ctx.policy.get("power")

    def make():
        lf = system.power
        if lf is None or not lf.ok:
            return None
        return compute_power(lf.data, system_sysdesc(system), pol)
    return system.cached("power_calc", make)


def _divisions(system) -> set[str]:
    out = set()
    for c in system.curves:
        for p in c.points:
            for m in (p.sysdesc, p.yaml):
                d = getattr(m, "division", None) if m is not None else None
                if isinstance(d, str) and d.strip():
                    out.add(d.strip().lower())
    return out


def _loaded(system):
    """(LoadedFile, None) when system_power.json loaded, else (None, Skip)."""
    lf = system.power
    if system.dir_error is not None or lf is None:
        return None, Skip(f"input not loaded: {system.rel}/", reason="input-not-loaded")
    if not lf.exists:
        return None, Skip(f"input missing: {lf.rel} (see power-descriptor)", reason="missing-input")
    if lf.error is not None:
        return None, Skip(f"input not loaded: {lf.rel} ({lf.error.message})", reason="input-not-loaded")
    return lf, None


def kw(w: float) -> str:
    return f"{w / 1000:.6g} kW"


@rule(id="power-descriptor", title="Power descriptor (system_power.json)", clause="R§4.5.2",
      severity="reject", scope="system", needs=("policy:power",), official=True)
def power_descriptor(system, ctx):
    """`results/<system>/system_power.json` exists, is well formed, and yields a provisioned total.

    What it checks: the file is present (optional only when every point declares the RDI or
    Serviced division), parses, and its node sets, sourced values (exactly one of
    value_w/value_kw/value_pj; an http(s) source, or an Appendix D subsection D.1-D.4 for
    mlc_default), methods and scale-out section are well formed; the total can be derived
    (cooling gives the overhead: 0.30 liquid, 0.50 air or mixed; passive or empty cooling with no
    explicit overhead_fraction gives none); and every total the submitter wrote
    (provisioned_power_kw, computed, declared_provisioned_power, provisioned_power_w) is within 1 %
    of the recomputation.
    Why: system TPS per kW divides by this figure (R§4.5.3); R§9.1 rejects a Standardized system
    without it.
    How to fix: Follow the Appendix E shape; give each TDP with its public source, and correct
    any total you wrote to the recomputed value shown.
    """
    lf = system.power
    if system.dir_error is not None or lf is None:
        return Skip(f"input not loaded: {system.rel}/", reason="input-not-loaded")
    pol = ctx.policy.get("power")
    if not lf.exists:
        divs = _divisions(system)
        optional = {d.lower() for d in pol.optional_for_divisions}
        if divs and divs <= optional:
            return Skip(f"system_power.json absent; optional for the {', '.join(sorted(divs))} division (R§4.5)",
                        reason="not-applicable")
        return Fail("system_power.json is missing", file=system.rel, observed="missing",
                    expected=f"{system.rel}/system_power.json",
                    fix="Add system_power.json at the system level (Appendix E shape).")
    if lf.error is not None:
        if lf.error.code == "parse-error":
            return Fail(f"system_power.json does not parse: {lf.error.message}", file=lf,
                        observed=lf.error.message, expected="valid JSON")
        return Skip(f"input not loaded: {lf.rel} ({lf.error.message})", reason="input-not-loaded")
    calc = power_calc(system, ctx)
    msgs = [p.message for p in calc.problems]
    path = calc.problems[0].path if calc.problems else ()
    if calc.total_w is None:
        msgs.append(f"no provisioned total can be derived: {calc.why_no_total}")
    for mpath, label, w in calc.mismatches:
        path = path or mpath
        msgs.append(f"{label} says {kw(w)} but the recomputation gives {kw(calc.total_w)} "
                    f"(tolerance {pol.tolerance_fraction:.0%})")
    if msgs:
        return Fail("system_power.json: " + "; ".join(msgs), file=lf, path=path, observed=msgs,
                    expected=f"a well-formed {calc.doc.shape} descriptor with a derivable total",
                    extra={"recomputed_kw": None if calc.total_w is None else calc.total_w / 1000})
    terms = " + ".join(f"{label} {w:g} W" for label, w in calc.terms)
    return Pass(f"provisioned power {kw(calc.total_w)} ({terms}; overhead from {calc.overhead_note})",
                extra={"provisioned_power_kw": calc.total_w / 1000})


@rule(id="power-descriptor-shape", title="Power descriptor in the Appendix E shape", clause="R§4.5.2",
      severity="warn", scope="system", needs=("policy:power",))
def power_descriptor_shape(system, ctx):
    """system_power.json uses the current Appendix E shape, not the older flat group shape.

    What it checks: the file has `node_sets` (Appendix E) rather than the flat
    `provisioned_power_w` / `cpu` / `accelerator` / `scale_up_network` groups of checker v1.0.1.0.
    Why: the flat shape is still read (and recomputed) but superseded; it cannot say where each
    figure comes from, nor scale a published rack by whole nodes.
    How to fix: Rewrite the file with node_sets, sourced values and a scale_out section.
    """
    lf, skip = _loaded(system)
    if skip:
        return skip
    calc = power_calc(system, ctx)
    if calc.doc.shape == "flat":
        return Fail("system_power.json uses the flat group shape, superseded by Appendix E", file=lf,
                    observed="flat groups", expected="node_sets (Appendix E)")
    return Pass("Appendix E shape")


@rule(id="power-estimated", title="Estimated power", clause="R§4.5.2", severity="warn",
      scope="system", needs=("policy:power",), official=True)
def power_estimated(system, ctx):
    """Names every value of the power total that is an Appendix D default ("MLC Estimated Power").

    What it checks: each value given with source_type mlc_default, each value left out and filled
    with an Appendix D default, and (flat shape) each blank group.
    Why: a total built on MLCommons' conservative proxies is published tagged "MLC Estimated
    Power"; the submitter should know which figures caused it.
    How to fix: Give the vendor's published figure, with its URL, for each named value.
    """
    lf, skip = _loaded(system)
    if skip:
        return skip
    calc = power_calc(system, ctx)
    if not calc.estimated:
        return Pass("no Appendix D default in the total")
    items = [f"{e.label} at {dotted(e.path)} = {e.value}" + (f" (Appendix {e.subsection})" if e.subsection else "")
             for e in calc.estimated]
    return Fail("MLC Estimated Power: " + "; ".join(items), file=lf, path=calc.estimated[0].path,
                observed=items, expected="every value sourced from public evidence")


@rule(id="power-system-desc-id", title="Power descriptor names its system", clause="R§4.5.2", severity="flag", scope="system", needs=("policy:power",))
def power_system_desc_id(system, ctx):
    """`system_desc_id` in system_power.json names the system directory it sits in.

    What it checks: system_desc_id equals the `<system>` directory name.
    Why: the file is lifted from run folders into results/<system>/; an id naming another system
    means the wrong file was copied (the official checker never compares it).
    How to fix: Set system_desc_id to the system directory name, or copy the right file.
    """
    lf, skip = _loaded(system)
    if skip:
        return skip
    calc = power_calc(system, ctx)
    sid = calc.doc.system_desc_id
    if sid is None and calc.doc.shape == "flat":
        return Skip("flat-shape descriptor without system_desc_id", reason="not-applicable")
    if sid == system.name:
        return Pass(f"system_desc_id {sid!r} names this system")
    sd = system_sysdesc(system)
    hint = " (that is the system_name; use the directory name)" if sd is not None and sid == sd.system_name else ""
    return Fail(f"system_desc_id is {sid!r:.60} but the system directory is {system.name!r}{hint}", file=lf,
                path=("system_desc_id",), observed=sid, expected=system.name)


@rule(id="power-cooling-consistency", title="Power cooling matches the system description", clause="R§4.5.2",
      severity="reject", scope="system", needs=("policy:power",))
def power_cooling_consistency(system, ctx):
    """The `cooling` of system_power.json agrees with the cooling of the system description.

    What it checks: the file's cooling (liquid or air) is the cooling class of the system
    description's node types (one of them, when the node types are cooled differently).
    Why: the overhead fraction (0.30 liquid, 0.50 air) is taken from the system description; a
    descriptor that says otherwise hides a 15 % difference in the total.
    How to fix: Make the two files state the same cooling.
    """
    lf, skip = _loaded(system)
    if skip:
        return skip
    pol = ctx.policy.get("power")
    calc = power_calc(system, ctx)
    cooling = calc.doc.cooling
    if cooling is None and calc.doc.shape == "flat":
        return Skip("flat-shape descriptor without cooling", reason="not-applicable")
    mine = classify_cooling(cooling, pol)
    if mine in (None, "unknown"):
        return Fail(f"cooling {cooling!r:.40} is not one of {', '.join(pol.cooling_classes)}", file=lf,
                    path=("cooling",), observed=cooling, expected=" | ".join(pol.cooling_classes))
    sd = system_sysdesc(system)
    words = [n.cooling or sd.cooling for n in sd.nodes] if sd is not None else []
    if sd is not None and not words and sd.cooling:
        words = [sd.cooling]
    theirs = {classify_cooling(w, pol) for w in words} - {None, "unknown"}
    if not theirs:
        return Skip("no usable cooling in the system description", reason="missing-input")
    if mine not in theirs:
        return Fail(f"system_power.json says {cooling!r} but system_desc.json says {', '.join(map(repr, words))}",
                    file=lf, path=("cooling",), observed=cooling, expected=" or ".join(sorted(theirs)))
    return Pass(f"cooling {cooling!r} agrees with the system description")


@rule(id="power-node-sets-match", title="Power node sets match the system description", clause="R§4.5.2",
      severity="flag", scope="system", needs=("policy:power",))
def power_node_sets_match(system, ctx):
    """Each node set of system_power.json is a node type of the system description, with its counts.

    What it checks: every node set's `system_node_ensemble_id` names a node type of
    system_desc.json; the nodes provisioned per ensemble equal its `number_of_nodes`; and a
    component_sum node set counts as many CPUs and accelerators per node as the node type declares.
    Why: the power must be the power of the hardware described; a node set with fewer nodes or
    accelerators than the description understates the total (and inflates TPS per kW).
    How to fix: Describe the same nodes in both files.
    """
    lf, skip = _loaded(system)
    if skip:
        return skip
    calc = power_calc(system, ctx)
    sd = system_sysdesc(system)
    if calc.doc.shape != "appendix-e" or not calc.doc.node_sets:
        return Skip("no Appendix E node sets to compare", reason="not-applicable")
    if sd is None or not sd.nodes:
        return Skip("no readable system description with node types", reason="missing-input")
    probs, per_ensemble = [], {}
    for ns in calc.doc.node_sets:
        nt = sd.node_type(ns.ensemble_id) if isinstance(ns.ensemble_id, (int, str)) else None
        where = f"node_sets[{ns.path[-1]}]"
        if nt is None:
            probs.append((ns.path + ("system_node_ensemble_id",),
                          f"{where}: ensemble {ns.ensemble_id!r:.30} is not a node type of system_desc.json"))
            continue
        if ns.nodes is not None:
            per_ensemble.setdefault(id(nt), [nt, 0, ns])[1] += ns.nodes
        for name, declared in (("cpu", nt.host_processors_per_node), ("accelerator", nt.accelerators_per_node)):
            comp = ns.components.get(name)
            if comp is not None and comp.count is not None and declared is not None and comp.count != declared:
                probs.append((comp.path + ("count_per_node",), f"{where}: {comp.count} {name}(s) per node, "
                               f"system_desc.json declares {declared}"))
    for nt, nodes, ns in per_ensemble.values():
        if nt.number_of_nodes is not None and nodes != nt.number_of_nodes:
            probs.append((ns.path + ("nodes_provisioned",), f"ensemble {ns.ensemble_id!r}: {nodes} node(s) "
                          f"provisioned, system_desc.json declares number_of_nodes {nt.number_of_nodes}"))
    if probs:
        return Fail("; ".join(m for _, m in probs), file=lf, path=probs[0][0], observed=[m for _, m in probs],
                    expected="the node types, node counts and per-node counts of system_desc.json")
    return Pass(f"{len(calc.doc.node_sets)} node set(s) match the system description")
