"""System description across copies: one curve's points agree, and one system's curves agree on hardware.

Copies are compared as parsed JSON (not as models), so a field the model does not know still
counts; every difference is named by its path with both values and both points.
"""
from __future__ import annotations

import datetime
from typing import Any

from checker.domain import cohort_ids as cohorts
from checker.load.models.lenient import dotted
from checker.core.rule import Fail, Pass, Skip, rule

MAX_LISTED = 12
_ABSENT = "(absent)"


def diff(a: Any, b: Any, path: tuple = ()) -> list[tuple[tuple, Any, Any]]:
    """Every leaf path where ``a`` and ``b`` differ (lists compared item by item).

    A key that is null on one side and absent (or null) on the other is no difference: a null
    optional field reads as absent (``submissions create`` writes every optional field it knows,
    null when not given, so its copies and a hand-written one describe the same system)."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b), key=str):
            if a.get(k) is None and b.get(k) is None:
                continue
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
      severity="flag", scope="curve", needs=("policy:system_desc", "maybe:system_desc"), official=True,
      consequence_of=("unknown-key",))
def system_description_consistency(curve, ctx):
    """All `system_desc.json` copies of a curve are equal, except the per-point fields.

    What it checks: every readable copy equals the curve's first copy on every key other than the
    per-point fields (tps_utilization, tensor/pipeline/expert/data parallel, disaggregated, batch,
    config_summary, config_summary_notes); a null field equals an absent one. Each differing field
    is listed with both values and both points.
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
    """The hardware fields of one copy that it states (``diff`` shows the others as absent)."""
    out = {f: data[f] for f in pol.hardware_fields if f in data}
    nodes = data.get("node_types")
    if isinstance(nodes, list):
        out["node_types"] = [{f: n[f] for f in pol.node_type_hardware_fields if f in n} if isinstance(n, dict)
                             else n for n in nodes]
    elif nodes is not None:
        out["node_types"] = nodes
    return out


@rule(id="system-hardware-consistency", title="One system, one hardware description", clause="R§8.2",
      severity="flag", scope="system", needs=("policy:system_desc", "maybe:system_desc"))
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


def _status(lf, pol) -> tuple[str | None, tuple]:
    """(canonical availability status or the raw text, its key path) of one system_desc.json copy."""
    m = lf.model
    raw = m.availability if m is not None else None
    if raw is None:
        return None, ()
    key = next(k for k in ("system_availability_status", "availability_status", "publication_status")
               if getattr(m, k) == raw)
    canon = next((k for k in pol.availability if k.lower() == raw.strip().lower()), raw)
    return canon, (key,)


@rule(id="division-availability", title="RDI division carries RDI status", clause="S§7, R§9.2",
      severity="flag", scope="point", needs=("system_desc", "policy:system_desc"))
def division_availability(point, ctx):
    """A division that fixes the publication status (RDI) carries that status.

    What it checks: `system_availability_status` of each system_desc.json copy against
    system_desc.yaml `division_requires_status` for the copy's `division` (point.yaml's when the
    copy states none): an RDI-division system is published with status RDI, never Available or
    Preview. Other divisions may carry any status.
    Why: publication status is orthogonal to division except that an RDI division submission is
    RDI status (S§7, RULES.md §9.2); an RDI system labelled Available would be published with a
    claim nobody checked (RDI needs no availability test). Availability is a reviewer's objection
    ground (R§9.2), hence a flag. The official checker does not compare the two.
    How to fix: Set `system_availability_status: RDI` for an RDI-division system (or submit in the
    division whose availability rules the system meets).
    """
    lf = point.files["system_desc"]
    pol = ctx.policy.get("system_desc")
    div = lf.get("division")
    src = "system_desc.json"
    if not isinstance(div, str) or not div.strip():
        div, src = (point.yaml.division if point.yaml is not None else None), "point.yaml"
    if not isinstance(div, str) or not div.strip():
        return Skip("no division declared (see system-description-valid)", reason="missing-input")
    rule_div = next((d for d in pol.division_requires_status if d.lower() == div.strip().lower()), None)
    status, path = _status(lf, pol)
    if rule_div is None:
        return Pass(f"division {div.strip()} does not fix the status ({status or 'none declared'})")
    want = pol.division_requires_status[rule_div]
    if status is None:
        return Skip(f"{rule_div} division but no availability status (see system-description-valid)",
                    reason="missing-input")
    if status.lower() != want.lower():
        return Fail(f"{rule_div} division ({src}) with system_availability_status {status!r}: an {rule_div} division "
                    f"system is published as {want}", file=lf, path=path, observed=status, expected=want)
    return Pass(f"{rule_div} division with status {want}")


@rule(id="preview-availability-date", title="Preview available within 180 days", clause="S§7, R§9.2",
      severity="flag", scope="point",
      needs=("system_desc", "point_yaml", "policy:system_desc"))
def preview_availability_date(point, ctx):
    """A Preview system's target availability date is at most 180 days after its target cohort.

    What it checks: when `system_availability_status` is Preview, `target_availability_date`
    (YYYY-MM-DD) is no later than the opening day of point.yaml's `target_cohort` (the cohort of
    first appearance) plus system_desc.yaml's `max_days_after_cohort` (180). Other statuses SKIP;
    a missing or malformed date is system-description-valid's, a bad cohort target-cohort's.
    Why: S§7 (RULES.md §9.2): Preview commits to Available within 180 days of first publication,
    the clock starting at the cohort of first appearance; a later date is not a Preview. The
    official checker only checks that the date is a date. Availability is a reviewer's objection
    ground (R§9.2), hence a flag.
    How to fix: Declare the date the system will really be Available (within 180 days), or submit it
    as RDI.
    """
    lf = point.files["system_desc"]
    pol = ctx.policy.get("system_desc")
    status, _path = _status(lf, pol)
    spec = pol.availability.get(status) if status is not None else None
    if spec is None or spec.max_days_after_cohort is None:
        return Skip(f"status {status or 'not declared'}: no availability deadline applies", reason="not-applicable")
    raw = lf.get("target_availability_date")
    try:
        target = datetime.date.fromisoformat(raw.strip()) if isinstance(raw, str) and len(raw.strip()) == 10 else None
    except ValueError:
        target = None
    if target is None:
        return Skip("target_availability_date is missing or not YYYY-MM-DD (see system-description-valid)",
                    reason="input-not-valid")
    cohort, why = cohorts.try_parse(point.files["point_yaml"].get("target_cohort"))
    if cohort is None:
        return Skip(f"target_cohort is not a cohort id (see target-cohort): {why}", reason="input-not-valid")
    limit = cohort.date() + datetime.timedelta(days=spec.max_days_after_cohort)
    days = (target - cohort.date()).days
    if target > limit:
        return Fail(f"{status} target_availability_date {target.isoformat()} is {days} days after the target cohort "
                    f"{cohort.label()}; a {status} must be Available within {spec.max_days_after_cohort} days (by "
                    f"{limit.isoformat()})", file=lf, path=("target_availability_date",), observed=raw,
                    expected=f"<= {limit.isoformat()}")
    return Pass(f"{status} available by {target.isoformat()}, {days} days after {cohort.label()} "
                f"(<= {spec.max_days_after_cohort})")
