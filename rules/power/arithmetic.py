"""The provisioned-power arithmetic (R§4.5.2; POWER.md E.5), computed once per system and shared.

Appendix E::

    Major     = sum over component_sum sets: nodes x (CPU + accelerator + scale-up) + counted NIC power
    Other     = overhead_fraction x Major          (by the descriptor's cooling: 0.30 liquid, 0.50 air)
    Published = sum over published_system sets: nodes x published node power
              + sum over node_scaling sets: P_rack x Y / N
    Switches  = sum over scale-out switches: count x power_per_switch
    System power = Major + Other + Published + Switches

A ``declared_provisioned_power`` governs when given: the parts below it are only a cross-check (their
defaults do not tag, their gaps do not reject). Absent figures take Appendix D defaults
(``rules/power/policy.py``), each recorded ("MLC Estimated Power"); an absent figure with no default
is a gap. The E.4 fabric checks are in ``rules/power/fabric.py``; E.7 (the figures the submitter
wrote) is compared here. Any problem, of whichever check, leaves ``total_w`` None: a descriptor
that is rejected normalises nothing. The flat shape keeps its own arithmetic (``power_flat_calc``).
"""
from __future__ import annotations

import math

import msgspec

from checker.load.models.lenient import dotted
from rules.power.doc import PowerDoc, PowerFinding
from rules.power.reading import legacy_note, read_power
from rules.power.cooling import classify_cooling, sysdesc_cooling
from rules.power.flat_arithmetic import flat_total
from rules.power.policy import (PowerPolicy, accelerator_default, cpu_default, nic_default,  # noqa: F401
                                switch_default)


#: check tag of a PowerFinding -> the rule that reports it
CHECK_RULES = {"descriptor": "power-descriptor", "cooling": "power-cooling-consistency",
               "nics": "power-scale-out-nics", "bandwidth": "power-scale-out-bandwidth",
               "fabric": "power-scale-out-fabric", "computed": "power-computed-figures"}


class Estimated(msgspec.Struct):
    path: tuple
    label: str
    value: str
    subsection: str | None
    why: str = ""


class PowerCalc(msgspec.Struct):
    doc: PowerDoc
    problems: list = msgspec.field(default_factory=list)  # [PowerFinding]: every reject, tagged with the rule (check) reporting it
    warnings: list = msgspec.field(default_factory=list)  # [PowerFinding]
    gaps: list = msgspec.field(default_factory=list)  # [PowerFinding]: absent figures with no Appendix D default
    estimated: list = msgspec.field(default_factory=list)  # [Estimated] that reach the total
    overhead: float | None = None
    overhead_note: str = ""
    major_w: float = 0.0
    other_w: float = 0.0
    published_w: float = 0.0
    switches_w: float = 0.0
    recomputed_w: float | None = None  # E.5 from the parts; None when a part is missing
    declared_w: float | None = None  # declared_provisioned_power, which governs
    total_w: float | None = None  # what normalises: None when anything rejects
    why_no_total: str | None = None
    terms: list = msgspec.field(default_factory=list)  # [(label, watts)]
    set_power: list = msgspec.field(default_factory=list)  # [(NodeSet, P_s watts incl. overhead)]
    mismatches: list = msgspec.field(default_factory=list)  # flat shape: [(path, label, declared_w)]

    def of(self, check: str) -> list:
        return [p for p in self.problems if p.check == check]

    def warned(self, check: str) -> list:
        return [p for p in self.warnings if p.check == check]

    @property
    def nodes(self) -> int:
        return sum(ns.nodes for ns in self.doc.node_sets if ns.nodes is not None)


class _Worksheet:
    """One recomputation in progress: the policy, the system description, the result so far and the
    Appendix D defaults it used (they tag the result only when the parts govern)."""

    def __init__(self, doc: PowerDoc, pol: PowerPolicy, sysdesc):
        self.pol = pol
        self.sysdesc = sysdesc
        self.out = PowerCalc(doc=doc, problems=list(doc.problems), warnings=list(doc.warnings))
        self.pending: list[Estimated] = []  # defaults used; they tag only when the parts govern

    def est(self, path, label, value, subsection, why="") -> None:
        if all(e.path != path for e in self.pending):
            self.pending.append(Estimated(path, label, value, subsection, why))

    def gap(self, path: tuple, label: str, why: str, fix: str | None = None) -> None:
        self.out.gaps.append(PowerFinding(path, f"{label} `{dotted(path)}` is absent and has no Appendix D default ({why})",
                                     observed=None, expected=f"{label} with its public source (E.1)",
                                     fix=fix or "Give the figure as a sourced value with its public source (E.1)."))

    def figure(self, sourced, path: tuple, label: str, default=None, why: str = "", fix: str | None = None,
               want: str = "watts") -> float | None:
        """A sourced figure (watts, or pJ/bit with want="pj"), else the Appendix D default, else a gap (None)."""
        if sourced is not None:
            v = sourced.pj if want == "pj" else sourced.watts
            if not sourced.ok or v is None:
                return None  # its problem is recorded
            if sourced.is_default:
                self.est(sourced.path, label, f"{v:g} {'pJ/bit' if want == 'pj' else 'W'}", sourced.source,
                         "given as mlc_default")
            return v
        if default is not None:
            self.est(path, label, f"{default.watts:g} W", default.subsection, default.why)
            return default.watts
        self.gap(path, label, why, fix)
        return None

    def node_type(self, ns):
        return self.sysdesc.node_type(ns.ensemble_id) if self.sysdesc is not None and ns.ensemble_id is not None \
            else None

    def unit_part(self, ns, name: str) -> float | None:
        """count_per_node x per-unit TDP of ns.components[name] (0 W for a count of 0, whatever the TDP)."""
        comp = ns.components.get(name)
        if comp is None or comp.count is None:
            return None
        if comp.count == 0 and comp.unit is None:
            return 0.0
        nt = self.node_type(ns)
        if name == "cpu":
            cores = nt.host_processor_core_count if nt is not None else None
            default, why = cpu_default(comp.model, cores, self.pol)
            theirs = nt.host_processor_model_name if nt is not None else None
            hint_default = cpu_default(theirs, cores, self.pol)[0] if theirs and not comp.model else None
        else:
            default, why = accelerator_default(comp.model, self.pol)
            names = [a.accelerator_model_name for a in (nt.accelerator_info or []) if a is not None] \
                if nt is not None else []
            theirs = next((x for x in names if x), None)
            hint_default = accelerator_default(theirs, self.pol)[0] if theirs and not comp.model else None
        fix = None
        if hint_default is not None:
            fix = (f"Give {name}.tdp_per_unit with its source, or add \"model\": \"{theirs}\" (as system_desc.json "
                   f"names it; Appendix {hint_default.subsection} then gives {hint_default.watts:g} W).")
        unit = self.figure(comp.unit, comp.path + ("tdp_per_unit",), f"{name} TDP", default, why, fix)
        return None if unit is None else comp.count * unit

    def scale_up(self, up) -> float | None:
        if up is None or up.method is None:
            return None
        if up.method == "none":
            return 0.0
        if up.method == "declared_tdp":
            if up.switch_count is None:
                return None
            if up.switch_count == 0 and up.tdp_per_switch is None:
                return 0.0
            w = self.figure(up.tdp_per_switch, up.path + ("tdp_per_switch",), "scale-up switch TDP",
                            why="D.1 depends on the link protocol, which the file does not declare"
                                + legacy_note(up.legacy, "tdp_per_switch"))
            return None if w is None else up.switch_count * w
        if up.aggregate_tbps is None:
            return None
        pj = self.figure(up.energy, up.path + ("energy_per_bit_pj",), "scale-up energy per bit", want="pj",
                         why="an absent energy-per-bit figure is a gap, not a default"
                             + legacy_note(up.legacy, "energy_per_bit_pj"))
        return None if pj is None else up.aggregate_tbps * 8.0 * pj  # TB/s x 8 bit/B x pJ/bit = W


def compute_power(data, sysdesc, pol: PowerPolicy, validated: tuple | None = None) -> PowerCalc:
    """Read ``data`` (either shape) and recompute its provisioned total. ``validated``: its
    validated model and field problems as the loader made them (``lf.model, lf.field_errors``);
    without it ``data`` is validated here."""
    if validated is None:
        from checker.load.models.lenient import validate_lenient
        from checker.load.models.power import power_model

        validated = validate_lenient(power_model(data), data)
    doc = read_power(*validated, data, pol.source_types, pol.appendix_d.subsections)
    c = _Worksheet(doc, pol, sysdesc)
    if doc.shape == "flat":
        flat_total(c)
    else:
        _appendix_e(c)
    return c.out


def _appendix_e(c: _Worksheet) -> None:
    from rules.power.fabric import carries_nics, check_fabric, nic_watts_per_node

    out, doc, pol = c.out, c.out.doc, c.pol
    if doc.cooling in pol.overhead_fraction:
        out.overhead = pol.overhead_fraction[doc.cooling]
        out.overhead_note = f"{doc.cooling} cooling: {out.overhead:g}"
    else:
        out.overhead_note = "no valid cooling"
    major, published, incomplete = {}, {}, []
    for ns in doc.node_sets:
        if not ns.complete or ns.method is None or ns.nodes is None:
            incomplete.append(ns)
        elif ns.method == "component_sum":
            parts = [c.unit_part(ns, n) for n in ("cpu", "accelerator")] if ns.combined is None else [
                c.figure(ns.combined, ns.combined.path, "combined CPU + accelerator power")]
            parts.append(c.scale_up(ns.scale_up))
            if any(p is None for p in parts):
                incomplete.append(ns)
            else:
                major[id(ns)] = ns.nodes * sum(parts)
        else:
            p = c.figure(ns.published, ns.path + ("published_power",), "published power")
            if p is None or (ns.method == "node_scaling" and not ns.nodes_in_published):
                incomplete.append(ns)
            else:
                published[id(ns)] = ns.nodes * p if ns.method == "published_system" \
                    else p * ns.nodes / ns.nodes_in_published
    nic_w = nic_watts_per_node(c)
    for ns in doc.node_sets:
        if carries_nics(doc, ns):
            if nic_w is None:
                incomplete.append(ns)
            else:
                major[id(ns)] = major.get(id(ns), 0.0) + ns.nodes * nic_w
    so = doc.scale_out
    if so is not None and so.present:
        for s in so.switches or []:
            w = c.figure(s.power, s.path + ("power_per_switch",), "scale-out switch power",
                         *switch_default(s.model, so.cabling, pol))
            if w is None or s.count is None:
                incomplete.append(s)
            else:
                out.switches_w += s.count * w
    oh = out.overhead if out.overhead is not None else 0.0
    out.major_w = sum(major.values())
    out.other_w = oh * out.major_w
    out.published_w = sum(published.values())
    complete = not incomplete and out.overhead is not None and bool(doc.node_sets) and not out.problems
    if complete and not math.isfinite(out.major_w + out.published_w + out.switches_w):
        out.problems.append(PowerFinding(("node_sets",), "the figures multiply beyond any finite power", observed=None,
                                    expected="figures of a real system"))
        complete = False
    if complete:
        out.recomputed_w = out.major_w + out.other_w + out.published_w + out.switches_w
        out.set_power = [(ns, (1 + oh) * major.get(id(ns), 0.0) + published.get(id(ns), 0.0))
                         for ns in doc.node_sets]
        out.terms = [(label, w) for label, w in (
            (_major_label(doc, nic_w), out.major_w),
            (f"overhead x{oh:g}", out.other_w), ("published / node-scaled", out.published_w),
            ("scale-out switches", out.switches_w)) if w] or [("total", out.recomputed_w)]
    if doc.declared is not None and doc.declared.ok and doc.declared.watts is not None:
        out.declared_w = doc.declared.watts
        if doc.declared.is_default:
            c.pending = [Estimated(doc.declared.path, "declared provisioned power", f"{out.declared_w:g} W",
                                   doc.declared.source, "given as mlc_default")]
        else:
            c.pending = []
        if out.recomputed_w is not None and out.declared_w < out.recomputed_w - pol.computed_tolerance_w:
            out.warnings.append(PowerFinding(doc.declared.path, f"declared_provisioned_power {out.declared_w / 1000:g} kW "
                                        f"is below what its own parts add up to ({out.recomputed_w / 1000:.6g} kW)",
                                        observed=out.declared_w, expected=f">= {out.recomputed_w:.6g} W"))
    elif doc.declared is None:
        out.problems += out.gaps
    out.estimated = c.pending
    check_fabric(c)
    _cooling_agreement(c)
    _overhead_field(c)
    governing = out.declared_w if doc.declared is not None else out.recomputed_w
    if comparable(out):
        _written_figures(c, governing)
    out.total_w = governing if not out.problems else None
    if out.total_w is None:
        rules = sorted({CHECK_RULES.get(p.check, p.check) for p in out.problems})
        out.why_no_total = ("rejected by " + ", ".join(rules)) if out.problems else "incomplete"


def comparable(out: PowerCalc) -> bool:
    """E.7 compares only a complete recomputation: no gap, no problem but the cooling agreement."""
    return out.recomputed_w is not None and not out.gaps and not [p for p in out.problems
                                                                   if p.check not in ("cooling", "computed")]


def _major_label(doc, nic_w) -> str:
    parts = ["CPU + accelerators + scale-up"] if any(ns.method == "component_sum" for ns in doc.node_sets) else []
    return "major (" + " + ".join(parts + (["NICs"] if nic_w else [])) + ")"


def _cooling_agreement(c: _Worksheet) -> None:
    """E.2/E.7: the descriptor's cooling agrees with system_desc.json (node types cooled differently: mixed_cooling)."""
    out, pol = c.out, c.pol
    mine = out.doc.cooling
    if mine not in pol.overhead_fraction:
        return
    words = sysdesc_cooling(c.sysdesc)
    classes = {classify_cooling(w, pol) for w in words} - {None}
    if not classes:
        return
    shown = ", ".join(map(repr, words))
    usable = classes & set(pol.overhead_fraction)
    if classes - usable:
        out.warnings.append(PowerFinding(("cooling",), f"system_desc.json says {shown}, which is neither "
                                    f"{' nor '.join(pol.overhead_fraction)}; the overhead follows system_power.json's "
                                    f"{mine!r} ({out.overhead:g})", "cooling", observed=mine, expected=shown))
        return
    want = next(iter(usable)) if len(usable) == 1 else pol.mixed_cooling
    if mine != want:
        why = f"system_desc.json says {shown}" + (f" (node types cooled differently: {want}, the larger overhead)"
                                                  if len(usable) > 1 else "")
        out.problems.append(PowerFinding(("cooling",), f"system_power.json says {mine!r} but {why}", "cooling",
                                    observed=mine, expected=want,
                                    fix=f"Make the two files state the same cooling (system_power.json: \"{want}\")."))


def _overhead_field(c: _Worksheet) -> None:
    """A top-level overhead_fraction is not an Appendix E field: the overhead comes from cooling."""
    out = c.out
    v = out.doc.overhead_fraction
    if v is not None and out.overhead is not None and abs(v - out.overhead) > 1e-9:
        out.warnings.append(PowerFinding(("overhead_fraction",), f"overhead_fraction {v:g} is not an Appendix E field and "
                                    f"is not used: cooling {out.doc.cooling!r} gives {out.overhead:g}", "computed",
                                    observed=v, expected=out.overhead,
                                    fix="Remove it; Appendix E records the fraction as computed.overhead_fraction."))


def _written_figures(c: _Worksheet, governing: float | None) -> None:
    """E.7: each `computed` figure and `provisioned_power_kw` the submitter wrote equals the recomputation."""
    out, pol, doc = c.out, c.pol, c.out.doc
    ours = {"major_components_w": out.major_w, "other_components_w": out.other_w,
            "published_node_power_w": out.published_w, "scale_out_switch_power_w": out.switches_w,
            "total_system_power_w": out.recomputed_w}
    for key, (path, theirs) in doc.computed.items():
        if key == "overhead_fraction":
            if abs(theirs - out.overhead) > 1e-9:
                out.problems.append(PowerFinding(path, f"computed.overhead_fraction is {theirs:g} but cooling "
                                            f"{doc.cooling!r} gives {out.overhead:g}", "computed", observed=theirs,
                                            expected=out.overhead, fix=f"Write {out.overhead:g}."))
        elif abs(theirs - ours[key]) > pol.computed_tolerance_w:
            out.problems.append(PowerFinding(path, f"computed.{key} is {theirs:g} W but the recomputation gives "
                                        f"{ours[key]:.6g} W (tolerance {pol.computed_tolerance_w:g} W)", "computed",
                                        observed=theirs, expected=round(ours[key], 3),
                                        fix=f"Write {round(ours[key], 3):g}, or correct the figures it is built from."))
    if doc.provisioned_kw is not None and governing is not None:
        path, theirs = doc.provisioned_kw
        kw = round(governing / 1000, pol.provisioned_power_decimals)
        if abs(theirs - kw) > pol.provisioned_power_tolerance_kw + 1e-12:
            what = "declared_provisioned_power" if out.declared_w is not None else "the recomputation"
            out.problems.append(PowerFinding(path, f"provisioned_power_kw is {theirs:g} but {what} gives {kw:g} kW "
                                        f"(tolerance {pol.provisioned_power_tolerance_kw:g} kW)", "computed",
                                        observed=theirs, expected=kw, fix=f"Write {kw:g}."))
