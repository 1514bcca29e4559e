"""Week-0 predicate of the official's power-descriptor schema (endpoints-submission-cli 1.5.3.0).

Every system of a Standardized submission needs a system_power.json (an RDI or Serviced one may omit
it: the division is read from the system's first readable system_desc.json, by path); one that is there
must be readable JSON and validate as the official's SystemPower (week0_schemas.yaml: Appendix E,
lax types, `cooling` lower case, a sourced value with exactly one value and no other key). The E.5
arithmetic is our power rules' (week0.yaml also_from).
"""
from __future__ import annotations

from checker.core.values import is_int

from rules.shared import official_view as ov

SP = "system_power.json"


def first_desc(system) -> dict | None:
    """The system's first readable system_desc.json as the official finds it: by path (<model>/r<N>/ sorted
    as text), not by concurrency."""
    found = []
    for curve in system.curves:
        for point in curve.points:
            data, why = ov.read(point.files.get("system_desc"))
            if not why and isinstance(data, dict):
                found.append((f"{curve.name}/{point.name}", data))
    return min(found, key=lambda t: t[0])[1] if found else None


def _division(system, policy) -> str | None:
    """The division (lower case) of the system's first readable system_desc.json."""
    division = (first_desc(system) or {}).get("division")
    return division.strip().lower() if isinstance(division, str) else None


def power_descriptor(sub, policy) -> list:
    optional = set(policy.get("week0").power_optional_divisions)
    hits = []
    for system in sub.systems:
        r = ov.power(system, policy)
        if not r.present:
            if _division(system, policy) not in optional:
                hits.append(ov.hit("power-descriptor", system.subject, f"the system has no {SP}; the automated "
                                   "check wants one for a Standardized submission", f"{system.rel}/{SP}",
                                   fix=f"add {SP} (Appendix E) to {system.rel}/"))
            continue
        hits += ov.file_hits("power-descriptor", system.subject, r, SP)
    return hits



def _system_accelerators(system, policy) -> dict:
    """Accelerators per node per system_node_ensemble_id, from the system's first readable system_desc.json
    (by path): the sum of the integer accelerators_per_node of a node type's accelerator_info (or the node)."""
    out: dict = {}
    for data in [first_desc(system)] if first_desc(system) is not None else []:
        for node in data.get("node_types") or []:
            if not isinstance(node, dict):
                continue
            ens = node.get("system_node_ensemble_id")
            if isinstance(ens, str) and ens.strip().isdigit():
                ens = int(ens)
            if isinstance(ens, int):
                info = node.get("accelerator_info")
                entries = info if isinstance(info, list) and info else [node]
                counts = [e.get("accelerators_per_node") for e in entries if isinstance(e, dict)]
                ints = [c for c in counts if is_int(c)]
                if ints:
                    out[ens] = sum(ints)
    return out


def _sets(system, model, policy) -> list[tuple]:
    """(node_set_id, system_node_ensemble_id, nodes_provisioned, accelerators per node or None) per node set."""
    facts = _system_accelerators(system, policy)
    out = []
    for s in model.node_sets:
        acc = s.components.accelerator if s.components is not None else None
        out.append((s.node_set_id, s.system_node_ensemble_id, s.nodes_provisioned,
                    acc.count_per_node if acc is not None else facts.get(s.system_node_ensemble_id)))
    return out


def parallelism(point) -> tuple | None:
    """(TP, PP, EP, DP, disaggregated) from the point's raw system_desc.json (top level, else an object
    config_summary; integers only, 1 where left out), or None where it states none of them."""
    data, why = ov.read(point.files.get("system_desc"))
    if why or not isinstance(data, dict):
        return None
    summary = data.get("config_summary") if isinstance(data.get("config_summary"), dict) else {}
    values = {}
    for name in ("tensor_parallel", "pipeline_parallel", "expert_parallel", "data_parallel"):
        v = data.get(name, summary.get(name))
        if is_int(v):
            values[name] = v
    if not values:
        return None
    flag = data.get("disaggregated", summary.get("disaggregated"))
    return (values.get("tensor_parallel", 1), values.get("pipeline_parallel", 1), values.get("expert_parallel", 1),
            values.get("data_parallel", 1), flag is True or (is_int(flag) and flag > 1))


def _power_points(sub, policy):
    """(point, its point.yaml Read, the node sets) where the official checks a point's power: its system's
    descriptor validated, its point.yaml and result_summary.json too."""
    for system in sub.systems:
        r = ov.power(system, policy)
        if r.model is None:
            continue
        sets = _sets(system, r.model, policy)
        for curve in system.curves:
            for point in curve.points:
                cfg = ov.point_config(point, policy)
                if cfg.model is not None and ov.summary(point, policy).model is not None:
                    yield point, cfg, sets


def nodes_used(sub, policy) -> list:
    hits = []
    for point, cfg, sets in _power_points(sub, policy):
        declared = cfg.model.nodes_used
        if declared is None:
            continue
        problems, by_set, seen = [], {}, set()
        for i, entry in enumerate(declared):
            ens = entry.system_node_ensemble_id
            match = [s for s in sets if s[1] == ens]
            if ens in seen:
                problems.append((i, f"system_node_ensemble_id {ens} is listed twice"))
            elif len(match) != 1:
                problems.append((i, f"system_node_ensemble_id {ens} matches {len(match)} node sets of {SP}"))
            elif not 1 <= entry.nodes <= match[0][2]:
                problems.append((i, f"nodes {entry.nodes} is outside 1..{match[0][2]} (the set's nodes_provisioned)"))
            else:
                by_set[match[0][0]] = entry.nodes
            seen.add(ens)
        para = parallelism(point)
        if not problems and para is not None and not para[4] and all(s[3] is not None for s in sets):
            capacity = sum(by_set.get(s[0], s[2]) * s[3] for s in sets)
            used = para[0] * para[1] * para[2] * para[3]
            if capacity < used:
                problems.append((0, f"the declared nodes hold {capacity} accelerators; DP x TP x PP x EP engages {used}"))
        if problems:
            i, why = problems[0]
            hits.append(ov.hit("nodes-used", point.subject, f"point.yaml nodes_used: {why}", cfg.lf, ("nodes_used", i),
                               f"declare the nodes of each node set of {SP} the point engages"))
    return hits


def maximal_engagement(sub, policy) -> list:
    hits = []
    for point, cfg, sets in _power_points(sub, policy):
        para = parallelism(point)
        if para is None or para[4] or any(s[3] is None for s in sets):
            continue  # a WARNING: nothing to compare
        a_prov = sum(s[2] * s[3] for s in sets)
        replica, dp = para[0] * para[1] * para[2], para[3]
        shortfall = cfg.model.dp_shortfall
        why = ""
        if replica < 1 or dp < 1:
            why = f"the parallelism DP {dp}, TP x PP x EP {replica} is not positive"
        else:
            dp_max = a_prov // replica
            if dp > dp_max:
                why = f"DP {dp} x replica {replica} engages more than the {a_prov} accelerators provisioned"
            elif dp < dp_max and shortfall is None:
                why = f"DP {dp} is below floor({a_prov} / {replica}) = {dp_max} and point.yaml declares no dp_shortfall"
            elif dp < dp_max and (shortfall.dp_actual != dp or shortfall.dp_formula != dp_max):
                why = (f"dp_shortfall says {shortfall.dp_actual} of {shortfall.dp_formula}; the point runs DP {dp} of "
                       f"{dp_max}")
        if why:
            hits.append(ov.hit("maximal-engagement", point.subject, why, point.files.get("system_desc"),
                               ("data_parallel",), "state the point's parallelism as integers in system_desc.json "
                               "(data_parallel = the replicas that fit), or declare dp_shortfall in point.yaml"))
    return hits


def power_refine(finding, sub, policy) -> bool:
    """Our power FAIL stands as the official's ERROR unless it is our typed model's complaint about a value's
    type (present: 0 for a boolean) in a file the official's schema accepts (lax: 0 is false to it)."""
    loc = finding.location
    system = next((s for s in sub.systems if s.name == finding.subject.system), None)
    if system is None or loc is None or system.power is None or ov.power(system, policy).model is None:
        return True
    typed = {tuple(p.path) for p in system.power.field_errors if p.type.endswith(("_type", "_parsing"))}
    return tuple(loc.path) not in typed


PREDICATES = [(frozenset(), power_descriptor), (frozenset({"nodes-used"}), nodes_used),
              (frozenset({"maximal-engagement"}), maximal_engagement)]
REFINE = {"power-descriptor": power_refine}
