"""System description (``system_desc.json``, R§8.2): presence and validity of EVERY copy.

The official checker validates only a curve's first readable copy; here each point's copy is a
document of its own and gets its own finding. Vocabulary and required fields are policy
(``system_desc.yaml``). Cross-copy rules live in ``rules/system_description/consistency.py``.
"""
from __future__ import annotations

from pydantic import Field

import datetime
from typing import Optional


from checker.load.models.urls import is_http_url
from checker.load.models.keys import missing_hint
from checker.load.models.spelling import quoted_edits, quoted_fix as unquote_fix
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import is_int
from rules.shared.strict import StrictModel as _Strict


class _Range(_Strict):
    """An inclusive range of integers."""

    min: int = Field(description="smallest allowed value")
    max: int = Field(description="largest allowed value")


class _Availability(_Strict):
    """What one availability status requires."""

    requires: Optional[str] = Field(None, description="the field this status requires")
    # url | date
    kind: Optional[str] = Field(None, description="what that field must hold: url or date")
    #: Preview: the target availability date is at most this many days after the target cohort (S§7)
    max_days_after_cohort: Optional[int] = Field(
        None, description="Preview: the target availability date is at most this many days after the target cohort (S§7)")


class SystemDescPolicy(_Strict):
    """What a system description must hold (RULES.md §2.5)."""

    schema_version: int = Field(description="version of this file's layout")
    required_fields: list[str] = Field(description="top-level fields every copy must carry, present and non-empty")
    node_type_required_fields: list[str] = Field(description="fields every node_types[] entry must carry")
    core_or_vcpu: list[str] = Field(description="a node type must carry at least one of these")
    divisions: list[str] = Field(description="the divisions (compared case-insensitively)")
    availability: dict[str, _Availability] = Field(
        description="availability status -> the field it requires and what that field holds")
    #: division -> the only availability status it may carry (S§7: RDI division => RDI status)
    division_requires_status: dict[str, str] = Field(
        {}, description="division -> the only availability status it may carry (S§7: RDI division means RDI status)")
    shortened_system_name_length: _Range = Field(description="allowed length of shortened_system_name")
    c_min_override_range: _Range = Field(description="allowed values of c_min_override")
    max_concurrency_floor: int = Field(description="max_supported_concurrency (C_max) must exceed this (R§5.5)")
    per_point_fields: list[str] = Field(
        description="fields allowed to differ between the points of one curve (R§8.2)")
    hardware_fields: list[str] = Field(
        description="top-level hardware fields that must be equal across every curve of one system")
    node_type_hardware_fields: list[str] = Field(
        description="node-type hardware fields that must be equal across every curve of one system")


def _blank(v) -> bool:
    return v is None or (isinstance(v, str) and not v.strip()) or (isinstance(v, (list, dict)) and not v)


def _is_iso_date(v) -> bool:
    if not isinstance(v, str):
        return False
    try:
        datetime.date.fromisoformat(v.strip())
    except ValueError:
        return False
    return len(v.strip()) == 10



@rule(id="system-description-present", title="System description present", clause="R§8.2",
      severity="reject", scope="point", official=True, needs=("has:dir", "maybe:system_desc"))
def system_description_present(point, ctx):
    """Every `r<N>/` has its `system_desc.json`.

    What it checks: the system description exists at each point (the bundle builder copies it per
    point from the run folder).
    Why: the description carries C_max, the hardware, the cooling that sets the power overhead, and
    the per-point parallelism (R§8.2).
    How to fix: Copy the run folder's system_desc.json into r<N>/.
    """
    lf = point.files["system_desc"]
    if not lf.exists:
        return Fail("system_desc.json is missing", file=point.rel, observed="missing",
                    expected=f"{point.name}/system_desc.json")
    return Pass("system_desc.json present")


def validity_problems(lf, pol: SystemDescPolicy) -> list[tuple[tuple, str]]:
    """Every problem of one copy as (path, message), in file order of the checks."""
    probs: list[tuple[tuple, str]] = [(p.path, p.message) for p in lf.field_errors]
    m = lf.model
    if m is None:
        return probs or [((), "the file must hold a JSON object")]
    bad_paths = {p.path for p in lf.field_errors}
    data = lf.data if isinstance(lf.data, dict) else {}
    for f in pol.required_fields:
        if f == "system_availability_status" and m.availability is not None:
            continue
        if (f,) not in bad_paths and _blank(data.get(f)):
            text, at = missing_hint(lf, (), f) if f not in data else ("", None)
            probs.append((at or (f,), f"required field `{f}` is missing or empty{text}"))
    probs += _division_problems(m, pol)
    probs += _availability_problems(m, pol)
    sn = m.shortened_system_name
    lo, hi = pol.shortened_system_name_length.min, pol.shortened_system_name_length.max
    if isinstance(sn, str) and sn.strip() and not lo <= len(sn) <= hi:
        probs.append((("shortened_system_name",),
                      f"`shortened_system_name` {sn[:40]!r} has {len(sn)} characters; allowed {lo}-{hi}"))
    cmo = data.get("c_min_override")
    r = pol.c_min_override_range
    if cmo is not None and not (is_int(cmo) and r.min <= cmo <= r.max):
        probs.append((("c_min_override",), f"`c_min_override` must be an integer {r.min}-{r.max}, got {cmo!r:.40}"))
    raw_nodes = data.get("node_types")
    for i, node in enumerate(m.node_types or []):
        if node is None:
            continue
        raw = raw_nodes[i] if isinstance(raw_nodes, list) and i < len(raw_nodes) else {}
        raw = raw if isinstance(raw, dict) else {}
        for f in pol.node_type_required_fields:
            if ("node_types", i, f) not in bad_paths and _blank(raw.get(f)):
                text, at = missing_hint(lf, ("node_types", i), f) if f not in raw else ("", None)
                probs.append((at or ("node_types", i, f),
                              f"node_types[{i}]: required field `{f}` is missing or empty{text}"))
        if all(_blank(raw.get(f)) for f in pol.core_or_vcpu):
            probs.append((("node_types", i),
                          f"node_types[{i}]: give at least one of {' / '.join(f'`{f}`' for f in pol.core_or_vcpu)}"))
    return probs


def _division_problems(m, pol) -> list:
    d = m.division
    if isinstance(d, str) and d.strip() and d.strip().lower() not in {x.lower() for x in pol.divisions}:
        return [(("division",), f"`division` {d[:40]!r} is not one of {', '.join(pol.divisions)}")]
    return []


def _availability_problems(m, pol) -> list:
    probs = []
    keys = ("system_availability_status", "availability_status", "publication_status")
    given = [(k, getattr(m, k)) for k in keys if isinstance(getattr(m, k), str) and getattr(m, k).strip()]
    if len({v.strip().lower() for _, v in given}) > 1:
        probs.append(((given[1][0],), "availability given twice with different values: "
                      + ", ".join(f"{k}={v!r}" for k, v in given)))
    status = m.availability
    if status is None:
        return probs
    spec = {k.lower(): (k, v) for k, v in pol.availability.items()}.get(status.strip().lower())
    key = given[0][0] if given else "system_availability_status"
    if spec is None:
        probs.append(((key,), f"`{key}` {status[:40]!r} is not one of {', '.join(pol.availability)}"))
        return probs
    name, req = spec
    if req.requires:
        value = getattr(m, req.requires, None)
        ok = is_http_url(value) if req.kind == "url" else _is_iso_date(value) if req.kind == "date" else not _blank(value)
        if not ok:
            what = {"url": "an http(s) URL", "date": "an ISO-8601 date (YYYY-MM-DD)"}.get(req.kind or "", "a value")
            shown = "missing" if value is None else repr(value)[:60]
            probs.append(((req.requires,), f"status {name} requires `{req.requires}` as {what}; got {shown}"))
    return probs


@rule(id="system-description-valid", title="System description (system_desc.json)", clause="R§8.2",
      severity="reject", scope="point", needs=("policy:system_desc", "has:dir", "read:system_desc"), official=True,
      consequence_of=("unknown-key",))
def system_description_valid(point, ctx):
    """Each copy of `system_desc.json` parses and holds the R§8.2 template's required fields.

    What it checks: every copy (not only the curve's first): JSON syntax; field types (each bad
    field named with its line); the required fields; `division` and `system_availability_status`
    vocabulary; `availability_url` (http(s)) when Available and `target_availability_date`
    (YYYY-MM-DD) when Preview; `shortened_system_name` 1-20 characters; a core or vCPU count for
    every node type; `c_min_override`, when given, an integer 1-32. A null optional field reads as
    absent (`submissions create` writes each one it knows as null); a null required field is missing.
    `disaggregated` may be an integer or true/false (the builder rewrites 1/0 as true/false).
    Why: the description is published with the result and drives C_max, regions and power; the
    official checker validates only the first copy, so a broken later copy goes unnoticed.
    How to fix: Correct the named field in the named copy; keep every copy of a curve identical
    except the per-point fields.
    """
    lf = point.files["system_desc"]
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        return Fail(f"system_desc.json does not parse: {lf.error.message}", file=lf,
                    observed=lf.error.message, expected="valid JSON")
    probs = validity_problems(lf, ctx.policy.get("system_desc"))
    if probs:
        edits = tuple(quoted_edits(lf))
        return Fail("system_desc.json: " + "; ".join(m for _, m in probs), file=lf, path=probs[0][0],
                    observed=[m for _, m in probs], expected="the R§8.2 template's required fields and vocabulary",
                    fix=unquote_fix(edits, len(probs)) if edits else None, edits=edits)
    return Pass("system_desc.json is valid")


@rule(id="max-concurrency-declared", title="Maximum supported concurrency", clause="R§9.1",
      severity="reject", scope="point", needs=("system_desc", "policy:system_desc", "maybe:point_yaml"),
      official=True, consequence_of=("unknown-key",))
def max_concurrency_declared(point, ctx):
    """`max_supported_concurrency` (C_max) is declared in system_desc.json, is above 32, and agrees with point.yaml.

    What it checks: C_max is an integer > 32 in this copy; when point.yaml also declares
    `max_supported_concurrency`, the two are equal.
    Why: R§9.1 rejects a submission without a declared C_max > 32; the regions are computed from it,
    and the two files that carry it can silently disagree (the official checker never compares them).
    How to fix: Declare the same C_max (> 32) in system_desc.json and point.yaml at every point.
    """
    lf = point.files["system_desc"]
    floor = ctx.policy.get("system_desc").max_concurrency_floor
    c = lf.get("max_supported_concurrency")
    if c is None:
        return Fail("system_desc.json declares no max_supported_concurrency", file=lf,
                    path=("max_supported_concurrency",), observed="missing", expected=f"an integer > {floor}")
    if not is_int(c):
        return Fail(f"max_supported_concurrency must be an integer, got {c!r:.40}", file=lf,
                    path=("max_supported_concurrency",), observed=c, expected=f"an integer > {floor}")
    if c <= floor:
        return Fail(f"C_max {c} is not above {floor}", file=lf, path=("max_supported_concurrency",), observed=c,
                    expected=f"> {floor}")
    y = point.yaml
    yc = getattr(y, "max_supported_concurrency", None) if y is not None else None
    if yc is not None and yc != c:
        return Fail(f"point.yaml says max_supported_concurrency {yc}, system_desc.json says {c}",
                    file=point.files["point_yaml"], path=("max_supported_concurrency",), observed=yc, expected=c,
                    fix="Declare the same C_max in both files.")
    return Pass(f"C_max = {c}" + (" (point.yaml agrees)" if yc is not None else ""))


@rule(id="system-node-ensemble-total", title="Node ensemble total", clause="R§8.2",
      severity="flag", scope="point", needs=("system_desc",))
def system_node_ensemble_total(point, ctx):
    """`system_node_ensemble_total` equals the sum of `number_of_nodes` over the node types.

    What it checks: in each copy, the declared total node count equals the sum of every node
    type's `number_of_nodes` (and `system_node_ensemble_count`, when given, the number of node types).
    Why: R§8.2 defines the total as that sum; power and engagement are computed per node.
    How to fix: Make system_node_ensemble_total the sum of number_of_nodes (and the ensemble count
    the number of node_types entries).
    """
    lf = point.files["system_desc"]
    m = lf.model
    total = lf.get("system_node_ensemble_total")
    nodes = m.nodes
    if not is_int(total) or not nodes:
        return Skip("system_node_ensemble_total or node_types missing (see system-description-valid)",
                    reason="missing-input")
    counts = [n.number_of_nodes for n in nodes]
    if any(c is None for c in counts):
        return Skip("a node type has no number_of_nodes (see system-description-valid)", reason="missing-input")
    if sum(counts) != total:
        return Fail(f"system_node_ensemble_total is {total} but number_of_nodes sum to {sum(counts)} "
                    f"({' + '.join(map(str, counts))})", file=lf, path=("system_node_ensemble_total",),
                    observed=total, expected=sum(counts))
    cnt = lf.get("system_node_ensemble_count")
    if is_int(cnt) and cnt != len(m.node_types or []):
        return Fail(f"system_node_ensemble_count is {cnt} but node_types lists {len(m.node_types or [])} types",
                    file=lf, path=("system_node_ensemble_count",), observed=cnt, expected=len(m.node_types or []))
    return Pass(f"{total} node(s) = sum of number_of_nodes")


@rule(id="accelerator-interconnect-present", title="Accelerator interconnect declared", clause="R§8.2",
      severity="flag", scope="point", needs=("system_desc",))
def accelerator_interconnect_present(point, ctx):
    """`accelerator_interconnect` is given for every accelerator with more than one per node.

    What it checks: each `node_types[].accelerator_info[]` entry with `accelerators_per_node` > 1
    has a non-empty `accelerator_interconnect`.
    Why: R§8.2 requires the interconnect when accelerators share a node; it is the scale-up fabric
    whose power counts in the total.
    How to fix: Describe the interconnect, e.g. "NVLink 4 (900 GB/s) via 4x NVSwitch".
    """
    lf = point.files["system_desc"]
    missing, multi = [], 0
    for i, node in enumerate(lf.model.node_types or []):
        for j, acc in enumerate((node.accelerator_info or []) if node is not None else []):
            if acc is None or not is_int(acc.accelerators_per_node) or acc.accelerators_per_node <= 1:
                continue
            multi += 1
            if _blank(acc.accelerator_interconnect):
                missing.append((i, j, acc.accelerators_per_node))
    if not multi:
        return Skip("no node type has more than one accelerator per node", reason="not-applicable")
    if missing:
        i, j, n = missing[0]
        where = ", ".join(f"node_types[{a}].accelerator_info[{b}] ({c} per node)" for a, b, c in missing)
        return Fail(f"accelerator_interconnect missing for {where}", file=lf,
                    path=("node_types", i, "accelerator_info", j, "accelerator_interconnect"),
                    observed="missing", expected="a description of the accelerator interconnect")
    return Pass(f"interconnect declared for {multi} multi-accelerator entr{'y' if multi == 1 else 'ies'}")
