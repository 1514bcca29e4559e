"""System description across copies: one curve's points agree, and one system's curves agree on hardware.

Copies are compared as parsed JSON (not as models), so a field the model does not know still
counts; every difference is named by its path with both values and both points.
"""
from __future__ import annotations

from typing import Any

from checker.load.models import dotted
from checker.core.rule import Fail, Pass, Skip, rule

MAX_LISTED = 12
_ABSENT = "(absent)"


def diff(a: Any, b: Any, path: tuple = ()) -> list[tuple[tuple, Any, Any]]:
    """Every leaf path where ``a`` and ``b`` differ (lists compared item by item)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            out += diff(a.get(k, _ABSENT), b.get(k, _ABSENT), path + (k,))
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for i, (x, y) in enumerate(zip(a, b)):
            out += diff(x, y, path + (i,))
        return out
    if type(a) is not type(b) or a != b:
        if isinstance(a, float) and isinstance(b, float) and a != a and b != b:  # NaN == NaN here
            return []
        return [(path, a, b)]
    return []


def _short(v: Any) -> str:
    if v == _ABSENT:
        return _ABSENT
    if isinstance(v, (dict, list)):
        return f"a {'mapping' if isinstance(v, dict) else 'list'} of {len(v)}"
    s = repr(v)
    return s if len(s) <= 60 else s[:57] + "..."


def _copies(curve) -> list:
    return [(p, p.files["system_desc"]) for p in curve.points
            if p.files.get("system_desc") is not None and p.files["system_desc"].ok
            and isinstance(p.files["system_desc"].data, dict)]


def _describe(diffs, name_a: str, name_b: str) -> list[str]:
    shown = [f"{dotted(p)}: {_short(a)} ({name_a}) vs {_short(b)} ({name_b})" for p, a, b in diffs[:MAX_LISTED]]
    if len(diffs) > MAX_LISTED:
        shown.append(f"... and {len(diffs) - MAX_LISTED} more")
    return shown


@rule(id="system-description-consistency", title="System description consistency", clause="R§9.1",
      severity="flag", scope="curve", needs=("policy:system_desc",), official=True)
def system_description_consistency(curve, ctx):
    """All `system_desc.json` copies of a curve are equal, except the per-point fields.

    What it checks: every readable copy equals the curve's first copy on every key other than the
    per-point fields (tps_utilization, tensor/pipeline/expert/data parallel, disaggregated, batch,
    config_summary, config_summary_notes). Each differing field is listed with both values and
    both points.
    Why: one curve is one system with one software stack (R§9.1 configuration consistency); a
    driver or framework version that changes between points makes the curve a mix of systems.
    How to fix: Re-run the differing points on the same stack, or make the copies identical if
    the difference is a typo.
    """
    per_point = set(ctx.policy.get("system_desc").per_point_fields)
    copies = _copies(curve)
    if len(copies) < 2:
        return Skip(f"{len(copies)} readable system_desc.json cop{'y' if len(copies) == 1 else 'ies'}: "
                    "nothing to compare", reason="not-applicable")
    ref_point, ref = copies[0]
    strip = lambda d: {k: v for k, v in d.items() if k not in per_point}  # noqa: E731
    base = strip(ref.data)
    parts, observed, first = [], [], None
    for point, lf in copies[1:]:
        diffs = diff(base, strip(lf.data))
        if not diffs:
            continue
        if first is None:
            first = (lf, diffs[0][0])
        parts.append(f"{point.name} differs from {ref_point.name}: " + "; ".join(_describe(diffs, ref_point.name,
                                                                                           point.name)))
        observed += [{"field": dotted(p), ref_point.name: a, point.name: b} for p, a, b in diffs[:MAX_LISTED]]
    if parts:
        return Fail(" | ".join(parts), file=first[0], path=first[1], observed=observed,
                    expected=f"equal to {ref_point.name}/system_desc.json except {', '.join(sorted(per_point))}")
    return Pass(f"{len(copies)} copies agree (per-point fields excepted)")


def _hardware(data: dict, pol) -> dict:
    out = {f: data.get(f, _ABSENT) for f in pol.hardware_fields}
    nodes = data.get("node_types")
    if isinstance(nodes, list):
        out["node_types"] = [{f: n.get(f, _ABSENT) for f in pol.node_type_hardware_fields} if isinstance(n, dict)
                             else n for n in nodes]
    else:
        out["node_types"] = nodes if nodes is not None else _ABSENT
    return out


@rule(id="system-hardware-consistency", title="One system, one hardware description", clause="R§8.2",
      severity="flag", scope="system", needs=("policy:system_desc",))
def system_hardware_consistency(system, ctx):
    """Every curve of one `results/<system>/` describes the same hardware.

    What it checks: the hardware fields of the first readable system_desc.json of each curve
    (system size, node counts, and per node type the processors, memory, accelerators,
    networking, storage and cooling) are equal across the system's models. Software may differ.
    Why: one system directory is one system with one system_power.json; two models measured on
    different hardware must be two systems (the official checker never compares across curves).
    How to fix: Put curves measured on different hardware under different results/<system>/
    directories, or correct the description.
    """
    pol = ctx.policy.get("system_desc")
    firsts = [(c, cp[0]) for c in system.curves for cp in [_copies(c)] if cp]
    if len(firsts) < 2:
        return Skip(f"{len(firsts)} curve(s) with a readable system description: nothing to compare",
                    reason="not-applicable")
    (ref_curve, (ref_point, ref)) = firsts[0]
    base = _hardware(ref.data, pol)
    parts, observed, first = [], [], None
    name_a = f"{ref_curve.name}/{ref_point.name}"
    for curve, (point, lf) in firsts[1:]:
        diffs = diff(base, _hardware(lf.data, pol))
        if not diffs:
            continue
        name_b = f"{curve.name}/{point.name}"
        first = first or (lf, diffs[0][0])
        parts.append(f"{name_b} differs from {name_a}: " + "; ".join(_describe(diffs, name_a, name_b)))
        observed += [{"field": dotted(p), name_a: a, name_b: b} for p, a, b in diffs[:MAX_LISTED]]
    if parts:
        return Fail(" | ".join(parts), file=first[0], path=first[1], observed=observed,
                    expected="the same hardware in every curve of the system")
    return Pass(f"{len(firsts)} curves describe the same hardware")
