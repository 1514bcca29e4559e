"""Provisioned power (``results/<system>/system_power.json``, R§4.5.2): the system-level rules.

The file is parsed and its total recomputed once per system (``power_calc``); the point rules
(nodes used, engagement, TPS per kW) are in ``rules/power/points.py``.
"""
from __future__ import annotations

from checker.load.models.lenient import dotted
from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, Skipped, rule
from rules.shared.assembled import assembled
from rules.power.arithmetic import PowerCalc, comparable, compute_power, sysdesc_cooling


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
        validated = (lf.model, lf.field_errors) if lf.model is not None or lf.field_errors else None  # else:
        return compute_power(lf.data, system_sysdesc(system), pol, validated=validated)  # a file loaded elsewhere
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


def kw(w: float) -> str:
    return f"{w / 1000:.6g} kW"


def problems_outcome(lf, probs: list, severity=None, prefix: str = ""):
    """One FAIL for a list of Problems: every message, located at the first; its observed/expected/fix."""
    first = probs[0]
    extra = {"problems": [{"path": dotted(p.path), "message": p.message} for p in probs[:50]]} if len(probs) > 1 else {}
    text = "; ".join(p.message for p in probs[:_SHOWN]) + (f"; and {len(probs) - _SHOWN} more" if len(probs) > _SHOWN
                                                           else "")
    return Fail(prefix + text, file=lf, path=first.path, observed=first.observed, expected=first.expected,
                fix=first.fix, severity=severity, extra=extra)


_SHOWN = 8  # problems written out in one message (all are in extra["problems"], up to 50)


def check_outcome(lf, calc, check: str, passed: str):
    """FAIL with the check's problems, else a WARN with its warnings, else PASS."""
    if calc.of(check):
        return problems_outcome(lf, calc.of(check))
    if calc.warned(check):
        return problems_outcome(lf, calc.warned(check), severity=Severity.WARN)
    return Pass(passed)


def appendix_e(system, ctx):
    """(LoadedFile, PowerCalc) for an Appendix E descriptor (the rule needs ``power``: it loaded); ``Skipped``
    for a flat one."""
    calc = power_calc(system, ctx)
    if calc.doc.shape != "appendix-e":
        raise Skipped("flat-shape descriptor (see power-descriptor-shape)", reason="not-applicable")
    return system.power, calc


@rule(id="power-descriptor", title="Power descriptor (system_power.json)", clause="R§4.5.2",
      severity="reject", scope="system", needs=("policy:power", "has:dir", "maybe-read:power", "maybe:system_desc"),
      official=True)
def power_descriptor(system, ctx):
    """`results/<system>/system_power.json` exists, is in the Appendix E shape, and yields a provisioned total.

    What it checks: the file is present (optional only when every point declares the RDI or
    Serviced division) and parses; Appendix E (POWER.md E.1-E.4): system_desc_id, cooling
    exactly liquid or air, node sets with integer ids (unique), nodes_provisioned >= 1 and a
    power_method with its fields (component_sum: cpu + accelerator or combined_cpu_accelerator,
    and scale_up_network declared_tdp switch_count x tdp_per_switch, bandwidth_estimate
    aggregate_bandwidth_tbps x 8 x energy_per_bit_pj, or none; published_system: the published
    figure of one node; node_scaling: a rack of N > Y nodes); sourced values (exactly one of
    value_w/value_kw/value_pj, an http(s) source, or the Appendix D subsection D.1-D.4 for
    mlc_default; no other key); scale_out present:true with cabling, required_bandwidth_tbps,
    nics and switches; and every figure the total needs is given or has an Appendix D default
    (a declared_provisioned_power governs: then the parts are only a cross-check). A field
    written under a name of an earlier draft is reported with its Appendix E name. The E.4 and
    E.7 checks are the power-scale-out-* rules and power-computed-figures.
    Why: system TPS per kW divides by this figure (R§4.5.3); R§9.1 rejects a Standardized system
    without it.
    How to fix: Follow the Appendix E shape (schemas/system_power.schema.json); give each figure
    with its public source, or leave it out where Appendix D has a default.
    """
    lf = system.power
    pol = ctx.policy.get("power")
    if not lf.exists:
        divs = _divisions(system)
        optional = {d.lower() for d in pol.optional_for_divisions}
        if divs and divs <= optional:
            return Skip(f"system_power.json absent; optional for the {', '.join(sorted(divs))} division (R§4.5)",
                        reason="not-applicable")
        if assembled(ctx):  # run folders: `runs create` lifts the file from one of the system's folders
            return Fail(f"no run folder of system {system.name} carries system_power.json", file=system.rel,
                        observed="missing", expected="system_power.json in one of the system's run folders",
                        fix="Put system_power.json (Appendix E shape) into one of the system's run folders; "
                            "`runs create` lifts it to the system.")
        return Fail("system_power.json is missing", file=system.rel, observed="missing",
                    expected=f"{system.rel}/system_power.json",
                    fix="Add system_power.json at the system level (Appendix E shape).")
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        return Fail(f"system_power.json does not parse: {lf.error.message}", file=lf,
                    observed=lf.error.message, expected="valid JSON")
    calc = power_calc(system, ctx)
    if calc.doc.shape == "flat":
        return _flat_outcome(lf, calc, pol)
    probs = calc.of("descriptor")
    if probs:
        return problems_outcome(lf, probs, prefix="system_power.json: ")
    if calc.declared_w is not None:
        parts = (f"its parts give {kw(calc.recomputed_w)}" if calc.recomputed_w is not None else
                 "its parts are incomplete: " + "; ".join(g.message for g in calc.gaps[:3]))
        text = f"declared_provisioned_power {kw(calc.declared_w)} governs ({parts})"
    else:
        terms = " + ".join(f"{label} {w:g} W" for label, w in calc.terms)
        text = f"provisioned power {kw(calc.recomputed_w)} ({terms}" + (f"; overhead from {calc.overhead_note})"
                                                                          if calc.major_w else ")")
    if calc.total_w is None:
        text += f"; it normalises nothing while the descriptor is {calc.why_no_total}"
    if calc.warned("descriptor"):
        return problems_outcome(lf, calc.warned("descriptor"), severity=Severity.WARN, prefix=text + "; but: ")
    return Pass(text, extra={"provisioned_power_kw": None if calc.total_w is None else calc.total_w / 1000})


def _flat_outcome(lf, calc, pol):
    msgs = [p.message for p in calc.problems]
    path = calc.problems[0].path if calc.problems else ()
    if calc.recomputed_w is None:
        msgs.append(f"no provisioned total can be derived: {calc.why_no_total}")
    for mpath, label, w in calc.mismatches:
        path = path or mpath
        msgs.append(f"{label} says {kw(w)} but the recomputation gives {kw(calc.recomputed_w)} "
                    f"(tolerance {pol.tolerance_fraction:.0%})")
    if msgs:
        return Fail("system_power.json: " + "; ".join(msgs), file=lf, path=path, observed=msgs,
                    expected="a flat descriptor with a derivable total (better: the Appendix E shape)")
    terms = " + ".join(f"{label} {w:g} W" for label, w in calc.terms)
    return Pass(f"provisioned power {kw(calc.total_w)} ({terms}; overhead from {calc.overhead_note})",
                extra={"provisioned_power_kw": calc.total_w / 1000})


@rule(id="power-descriptor-shape", title="Power descriptor in the Appendix E shape", clause="R§4.5.2",
      severity="flag", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_descriptor_shape(system, ctx):
    """system_power.json uses the published Appendix E shape, not the older flat group shape.

    What it checks: the file has `node_sets` (Appendix E) rather than the flat
    `provisioned_power_w` / `cpu` / `accelerator` / `scale_up_network` groups that checker
    releases v1.0.1.0 to v1.1.0.0 read.
    Why: the flat shape is no longer the published shape (the official checker rejects it); it is
    still read and recomputed here, but cannot say where each figure comes from, nor scale a
    published rack by whole nodes.
    How to fix: Rewrite the file in the Appendix E shape: system_desc_id, cooling, node_sets[]
    (power_method, components with sourced values) and scale_out (schemas/system_power.schema.json).
    """
    lf = system.power
    calc = power_calc(system, ctx)
    if calc.doc.shape == "flat":
        return Fail("system_power.json uses the flat group shape of checker v1.0.1.0, superseded by Appendix E: "
                    "move to system_desc_id, cooling, node_sets[] (power_method, components with sourced values) "
                    "and scale_out", file=lf, observed="flat groups",
                    expected="Appendix E: system_desc_id, cooling, node_sets, scale_out")
    return Pass("Appendix E shape")


@rule(id="power-estimated", title="Estimated power", clause="R§4.5.2", severity="warn",
      scope="system", needs=("power", "policy:power", "maybe:system_desc"), official=True)
def power_estimated(system, ctx):
    """Names every figure of the power total that is an Appendix D default ("MLC Estimated Power").

    What it checks: each figure given with source_type mlc_default, and each figure left out and
    filled with its Appendix D default (D.2 CPU by architecture and cores, D.3 accelerator by
    model, D.4 reference switch by cabling and the scale-out NIC), that reaches the total. Under a
    declared_provisioned_power only that figure counts. Flat shape: each blank group.
    Why: a total built on MLCommons' conservative proxies is published tagged "MLC Estimated
    Power"; the submitter should know which figures caused it.
    How to fix: Give the vendor's published figure, with its URL, for each named value.
    """
    lf = system.power
    calc = power_calc(system, ctx)
    if calc.total_w is None:
        return Skip("no provisioned total to tag (see power-descriptor)", reason="missing-input")
    if not calc.estimated:
        return Pass("no Appendix D default in the total")
    items = [f"{e.label} at {dotted(e.path)} = {e.value}" + (f" (Appendix {e.subsection}" if e.subsection else "")
             + (f": {e.why})" if e.subsection and e.why else (")" if e.subsection else "")) for e in calc.estimated]
    return Fail("MLC Estimated Power: " + "; ".join(items), file=lf, path=calc.estimated[0].path,
                observed=items, expected="every value sourced from public evidence")


@rule(id="power-system-desc-id", title="Power descriptor names its system", clause="R§4.5.2", severity="flag", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_system_desc_id(system, ctx):
    """`system_desc_id` in system_power.json names the system directory it sits in.

    What it checks: system_desc_id equals the `<system>` directory name.
    Why: the file is lifted from run folders into results/<system>/; an id naming another system
    means the wrong file was copied (the official checker never compares it).
    How to fix: Set system_desc_id to the system directory name, or copy the right file.
    """
    lf = system.power
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
      severity="reject", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_cooling_consistency(system, ctx):
    """The `cooling` of system_power.json agrees with the cooling of the system description (E.2, E.7).

    What it checks: the descriptor's cooling (liquid or air) is the cooling class of the system
    description's node types; node types cooled differently must be declared air (the larger
    overhead). A system description whose cooling is neither (passive, unknown words) is a
    warning: the descriptor's fraction is then used as written.
    Why: the overhead fraction (0.30 liquid, 0.50 air) follows the descriptor's cooling; one that
    disagrees with the system description hides a 15 % difference in the total, and a descriptor
    rejected here normalises nothing.
    How to fix: Make the two files state the same cooling.
    """
    lf, calc = appendix_e(system, ctx)
    pol = ctx.policy.get("power")
    if calc.doc.cooling not in pol.overhead_fraction:
        return Skip("the descriptor's cooling is not valid (see power-descriptor)", reason="input-not-valid")
    words = sysdesc_cooling(system_sysdesc(system))
    if not words:
        return Skip("no cooling in the system description", reason="missing-input")
    return check_outcome(lf, calc, "cooling", f"cooling {calc.doc.cooling!r} agrees with the system description "
                                              f"({', '.join(map(repr, words))})")


@rule(id="power-node-sets-match", title="Power node sets match the system description", clause="R§4.5.2",
      severity="flag", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_node_sets_match(system, ctx):
    """Each node set of system_power.json is a node type of the system description, with its counts.

    What it checks: every node set's `system_node_ensemble_id` names a node type of
    system_desc.json; the nodes provisioned per ensemble equal its `number_of_nodes`; and a
    component_sum node set counts as many CPUs and accelerators per node as the node type declares.
    Why: the power must be the power of the hardware described; a node set with fewer nodes or
    accelerators than the description understates the total (and inflates TPS per kW).
    How to fix: Describe the same nodes in both files.
    """
    lf = system.power
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


@rule(id="power-computed-figures", title="Figures written in system_power.json match the recomputation",
      clause="R§4.5.2", severity="reject", scope="system", needs=("power", "policy:power", "maybe:system_desc"))
def power_computed_figures(system, ctx):
    """Every figure the submitter wrote equals the E.5 recomputation (POWER.md E.7).

    What it checks: each `computed` figure given (major_components_w, other_components_w,
    published_node_power_w, scale_out_switch_power_w, total_system_power_w) within 0.5 W,
    `computed.overhead_fraction` equal to the cooling's fraction, and `provisioned_power_kw`
    within 0.005 kW of the recomputation rounded to 0.01 kW (of declared_provisioned_power when
    that governs). Only a complete recomputation is compared. A computed key that is not an
    Appendix E figure, and a top-level overhead_fraction that differs from the cooling's, are
    warnings (neither is used).
    Why: the published figures must follow from the file; a descriptor whose own arithmetic
    disagrees is rejected and normalises nothing.
    How to fix: Write the recomputed figure shown, or correct the figures it is built from.
    """
    lf, calc = appendix_e(system, ctx)
    doc = calc.doc
    if not calc.of("computed") and not calc.warned("computed"):
        if not doc.computed and doc.provisioned_kw is None:
            return Skip("no computed figures or provisioned_power_kw written", reason="not-applicable")
        if not comparable(calc):
            return Skip("not compared: the recomputation is incomplete or rejected (see power-descriptor)",
                        reason="missing-input")
    names = sorted(doc.computed) + (["provisioned_power_kw"] if doc.provisioned_kw is not None else [])
    return check_outcome(lf, calc, "computed", f"{', '.join(names)} match the recomputation")
