"""Per-point power (R§4.5.3): nodes used, maximal engagement, TPS per kW, and the report metrics.

A point is charged the power of the nodes it used (point.yaml ``nodes_used``): each node set's
share ``P_set x nodes / nodes_provisioned`` (a set it does not name is not used), plus the
scale-out switches in proportion to the nodes used; a declared_provisioned_power, which does not
split into sets, is scaled by the largest share. Without ``nodes_used``, or with the flat shape
(no node sets), the point is charged the whole provisioned system.
"""
from __future__ import annotations

from checker.domain.point_metrics import point_metric
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.findings import Severity
from checker.core.values import is_int
from checker.core.values import show
from checker.load.models.lenient import dotted
from rules.power.descriptor import power_calc

PARALLEL = ("data_parallel", "tensor_parallel", "pipeline_parallel", "expert_parallel")



def _acc_per_node(sd, ns, eid):
    nt = sd.node_type(eid) if sd is not None else None
    a = nt.accelerators_per_node if nt is not None else None
    if a is None and ns is not None:
        comp = ns.components.get("accelerator")
        a = comp.count if comp is not None else None
    return a


def _entry_problem(i: int, e, eid):
    """(path, words) of what is wrong with the shape of nodes_used[i], or None: each missing or mistyped key
    named as the file holds it."""
    if not isinstance(e, dict):
        return ("nodes_used", i), f"nodes_used[{i}] is {show(e)}, not a mapping of system_node_ensemble_id and nodes"
    if "system_node_ensemble_id" not in e:
        return ("nodes_used", i), f"nodes_used[{i}] has no system_node_ensemble_id"
    if not isinstance(eid, (int, str)) or isinstance(eid, bool):
        return (("nodes_used", i, "system_node_ensemble_id"),
                f"nodes_used[{i}].system_node_ensemble_id is {show(eid)}, not an id (a number or a name)")
    if "nodes" not in e:
        return ("nodes_used", i), f"nodes_used[{i}] (ensemble {eid!r}) has no `nodes`"
    n = e["nodes"]
    if not is_int(n):
        hint = f": write {int(n)}" if isinstance(n, float) and n.is_integer() else ""
        return (("nodes_used", i, "nodes"),
                f"nodes_used[{i}].nodes (ensemble {eid!r}) is {show(n)}, not a whole number of nodes{hint}")
    return None


def resolve_nodes_used(point, ctx):
    """Return (rows, problems): rows = [(index, ensemble_id, nodes, N_s, accelerators/node, node-set W or None)]."""
    entries = point.yaml.nodes_used if point.yaml is not None else None
    sd = point.sysdesc
    system = point.curve.system
    calc = power_calc(system, ctx) if ctx.policy.available("power") else None
    sets = calc.doc.node_sets if calc is not None and calc.doc.shape == "appendix-e" else None
    set_w = {id(ns): w for ns, w in (calc.set_power if calc is not None else [])}
    rows, probs, seen = [], [], set()
    for i, e in enumerate(entries or []):
        eid = e.get("system_node_ensemble_id") if isinstance(e, dict) else None
        bad = _entry_problem(i, e, eid)
        if bad is not None:
            probs.append(bad)
            continue
        n = e["nodes"]
        if eid in seen:
            probs.append((("nodes_used", i), f"ensemble {eid!r} is named twice in nodes_used"))
            continue
        seen.add(eid)
        ns = None
        if sets is not None:
            match = [s for s in sets if s.ensemble_id == eid]
            if len(match) != 1:
                why = "no node set" if not match else f"{len(match)} node sets"
                probs.append((("nodes_used", i), f"ensemble {eid!r} resolves to {why} in system_power.json"))
                continue
            ns = match[0]
            total = ns.nodes
        else:
            nt = sd.node_type(eid) if sd is not None else None
            if nt is None:
                probs.append((("nodes_used", i), f"ensemble {eid!r} is not a node type of system_desc.json"))
                continue
            total = nt.number_of_nodes
        if n < 1 or (total is not None and n > total):
            probs.append((("nodes_used", i, "nodes"), f"nodes_used[{i}] uses {n} node(s) of ensemble {eid!r}; "
                                                         f"allowed 1..{total}"))
            continue
        rows.append((i, eid, n, total, _acc_per_node(sd, ns, eid), set_w.get(id(ns)) if ns is not None else None))
    return rows, probs


def point_power_w(point, ctx) -> float | None:
    """Watts charged to this point, or None when no total or nodes_used does not resolve."""
    calc = power_calc(point.curve.system, ctx)
    if calc is None or calc.total_w is None:
        return None
    if point.yaml is None or not point.yaml.nodes_used or calc.doc.shape != "appendix-e":
        return calc.total_w
    rows, probs = resolve_nodes_used(point, ctx)
    if probs or any(not r[3] for r in rows):
        return None
    # the nodes the point used: a node set it does not name is not used (R§4.5.3)
    named = {r[1]: r[2] for r in rows}
    fractions = [(ns, named[ns.ensemble_id] / ns.nodes) for ns in calc.doc.node_sets if ns.ensemble_id in named]
    if calc.declared_w is not None:  # one declared figure does not split into sets: the largest share
        return calc.total_w * max((f for _ns, f in fractions), default=1.0)
    share = {id(ns): w for ns, w in calc.set_power}
    if any(id(ns) not in share for ns, _f in fractions):
        return None
    all_nodes = calc.nodes
    used = sum(ns.nodes * f for ns, f in fractions)
    return sum(share[id(ns)] * f for ns, f in fractions) + (calc.switches_w * used / all_nodes if all_nodes else 0.0)


def _needed(sd):
    vals = [getattr(sd, k, None) for k in PARALLEL]
    if sd is None or not all(is_int(v) and v >= 1 for v in vals):
        return None
    out = 1
    for v in vals:
        out *= v
    return out


@rule(id="nodes-used", title="Nodes used", clause="R§4.5.3", severity="flag", scope="point",
      needs=("point_yaml", "policy:power", "maybe:system_desc", "maybe:power"), official=True)
def nodes_used(point, ctx):
    """point.yaml `nodes_used` resolves to the system's node sets and holds the point's accelerators.

    What it checks: each entry names an ensemble once; the ensemble resolves to exactly one node
    set of system_power.json (or a node type of system_desc.json); 1 <= nodes <= the nodes
    provisioned; and the nodes hold DP x TP x PP x EP accelerators. More nodes than needed is a
    warning.
    Why: the point's TPS per kW is charged the power of the nodes it used (R§4.5.3).
    How to fix: List each ensemble once with the number of whole nodes the point ran on.
    """
    lf = point.files["point_yaml"]
    if not point.yaml.nodes_used:
        return Skip("point.yaml declares no nodes_used: the point is charged the whole provisioned system",
                    reason="not-applicable")
    rows, probs = resolve_nodes_used(point, ctx)
    if probs:
        return Fail("; ".join(m for _, m in probs), file=lf, path=probs[0][0],
                    observed={dotted(p): lf.get(*p) for p, _ in probs},
                    expected="each ensemble once, resolving to one node set, 1 <= nodes <= provisioned")
    need = _needed(point.sysdesc)
    used = ", ".join(f"{n} x ensemble {eid!r}" for _, eid, n, *_ in rows)
    if need is None or any(r[4] is None for r in rows):
        return Pass(f"nodes_used resolves ({used}); accelerator count not checked (parallelism or accelerators "
                    "per node unknown)")
    have = sum(r[2] * r[4] for r in rows)
    if have < need:
        return Fail(f"nodes_used holds {have} accelerators but DP x TP x PP x EP = {need}", file=lf,
                    path=("nodes_used",), observed=have, expected=f">= {need}")
    spare = [r for r in rows if r[2] > 1 and have - r[4] >= need]
    if spare:
        return Fail(f"nodes_used holds {have} accelerators, {need} needed: fewer nodes would do ({used})", file=lf,
                    path=("nodes_used",), observed=have, expected=need, severity=Severity.WARN,
                    fix="List only the nodes the point ran on.")
    return Pass(f"{used}: {have} accelerators for DP x TP x PP x EP = {need}")


@rule(id="maximal-engagement", title="Maximal engagement", clause="R§4.5.3", severity="flag",
      scope="point", needs=("system_desc", "point_yaml", "policy:power", "maybe:power"), official=True,
      consequence_of=("unknown-key",))
def maximal_engagement(point, ctx):
    """Data parallelism fills the accelerators: DP = floor(A / (TP x PP x EP)), or a declared shortfall.

    What it checks: with A the accelerators of the nodes used (all provisioned nodes without
    nodes_used), system_desc's data_parallel equals floor(A / (TP x PP x EP)); otherwise point.yaml
    `dp_shortfall` {dp_actual, dp_formula, reason} must state exactly that gap (then a warning).
    Missing parallelism or a disaggregated system is a warning (the formula cannot be applied).
    Why: idle provisioned accelerators still count in the power; R§4.5.3 asks for maximal
    engagement or a disclosed reason.
    How to fix: Run DP = floor(A / (TP x PP x EP)) replicas, or declare dp_shortfall with the reason.
    """
    sd = point.sysdesc
    lf = point.files["system_desc"]
    if is_int(sd.disaggregated) and sd.disaggregated > 1:
        return Fail(f"disaggregated = {sd.disaggregated}: the engagement formula does not apply; reviewers check it",
                    file=lf, path=("disaggregated",), observed=sd.disaggregated, expected=1, severity=Severity.WARN)
    missing = [k for k in PARALLEL if not (is_int(getattr(sd, k)) and getattr(sd, k) >= 1)]
    if missing:
        return Fail(f"parallelism not declared: {', '.join(missing)}", file=lf, path=(missing[0],),
                    observed=None, expected="integers >= 1", severity=Severity.WARN)
    if point.yaml.nodes_used:
        rows, probs = resolve_nodes_used(point, ctx)
        if probs or any(r[4] is None for r in rows):
            return Skip("accelerators in the nodes used unknown (see nodes-used)", reason="missing-input")
        a = sum(r[2] * r[4] for r in rows)
    else:
        per = [(n.number_of_nodes, n.accelerators_per_node) for n in sd.nodes]
        if not per or any(x is None or y is None for x, y in per):
            return Skip("accelerators per node or number_of_nodes unknown", reason="missing-input")
        a = sum(x * y for x, y in per)
    group = sd.tensor_parallel * sd.pipeline_parallel * sd.expert_parallel
    want = a // group
    dp = sd.data_parallel
    if dp == want:
        return Pass(f"DP {dp} = floor({a} / {group})")
    short = point.yaml.dp_shortfall
    if dp < want and isinstance(short, dict) and short.get("dp_actual") == dp and short.get("dp_formula") == want \
            and isinstance(short.get("reason"), str) and short["reason"].strip():
        return Fail(f"DP {dp} below floor({a} / {group}) = {want}; declared shortfall: {short['reason'][:120]}",
                    file=point.files["point_yaml"], path=("dp_shortfall",), observed=dp, expected=want,
                    severity=Severity.WARN)
    return Fail(f"data_parallel {dp} but floor({a} accelerators / (TP x PP x EP = {group})) = {want}"
                + ("" if dp < want else ": more replicas than accelerators"), file=lf, path=("data_parallel",),
                observed=dp, expected=want,
                fix=f"Set data_parallel to {want}, or declare dp_shortfall {{dp_actual: {dp}, dp_formula: {want}, "
                    "reason: ...}} in point.yaml.")


@rule(id="metric-consistency-tps-per-kw", title="Metric consistency TPS per kW", clause="R§4.5.3",
      severity="flag", scope="point", needs=("result_summary", "policy:power"), official=True)
def metric_consistency_tps_per_kw(point, ctx):
    """A stored `system_tps_per_kw` equals system_tps / the point's provisioned kW, within 1 %.

    What it checks: result_summary.json's `system_tps_per_kw`, when present, against system_tps
    (output tokens / duration) divided by the power charged to the point (nodes_used-scaled).
    Why: the published efficiency metric must follow from the published power and throughput.
    How to fix: Recompute system_tps_per_kw from system_power.json, or remove the stored value.
    """
    stored = point.summary.system_tps_per_kw
    if stored is None:
        return Skip("result_summary.json stores no system_tps_per_kw", reason="not-applicable")
    w = point_power_w(point, ctx)
    tps = point.summary.derived_system_tps
    if w is None or not w or tps is None:
        return Skip("no provisioned power or system_tps for this point (see power-descriptor, nodes-used)",
                    reason="missing-input")
    derived = tps / (w / 1000)
    tol = ctx.policy.get("power").tolerance_fraction
    if abs(stored - derived) > tol * derived:
        return Fail(f"system_tps_per_kw {stored:g} but {tps:.6g} TPS / {w / 1000:.6g} kW = {derived:.6g}",
                    file=point.files["result_summary"], path=("system_tps_per_kw",), observed=stored,
                    expected=round(derived, 6))
    return Pass(f"system_tps_per_kw {stored:g} = {derived:.6g} (within {tol:.0%})")


@point_metric("provisioned_power_kw", "Provisioned power", "kW")
def _provisioned_kw(point, ctx):
    w = point_power_w(point, ctx)
    return None if w is None else w / 1000


@point_metric("system_tps_per_kw", "System TPS per kW", "tok/s/kW")
def _tps_per_kw(point, ctx):
    w = point_power_w(point, ctx)
    s = point.summary
    tps = s.derived_system_tps if s is not None else None
    return None if not w or tps is None else tps / (w / 1000)
