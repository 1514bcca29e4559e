"""Week-0 predicates of the official's system_desc.json checks (endpoints-submission-cli 1.5.3.0).

Per curve: every point needs a system_desc.json its JSON reader can read as an object
(system-description-present / -valid); the first such copy, in r<N> order, is validated against the
official's SystemDescription schema (week0_schemas.yaml: a number where text is declared, such as
host_network_card_count 2, is an ERROR; a quoted number where an int is declared is not); the others
must equal it but for the per-point fields (system-description-consistency, Python equality: 1 is
1.0). c-min-override: declared by every copy or none, each a JSON integer 1..32, all the same, and
(where C_max is known) the concurrency of a fixed-concurrency point.
"""
from __future__ import annotations

from rules.shared import official_view as ov

SD = "system_desc.json"


def present_and_valid(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        if not curve.points:
            continue
        readable = 0
        for point in curve.points:
            lf = point.files.get("system_desc")
            data, why = ov.read(lf)
            if lf is None or not lf.exists:
                hits.append(ov.hit("system-description-present", point.subject, f"{point.name} has no {SD}; the "
                                   "automated check wants one in every point directory", f"{point.rel}/{SD}",
                                   fix=f"copy the curve's {SD} into {point.name}/"))
            elif why == ov.UNSEEN:
                readable += 1
            elif why or not isinstance(data, dict):
                hits.append(ov.hit("system-description-valid", point.subject, f"{SD}: " + (why or "it is not a JSON "
                                   "object"), lf, fix=f"write {SD} as a plain UTF-8 JSON object"))
            else:
                readable += 1
        if not readable:
            hits.append(ov.hit("system-description-present", curve.subject, f"no point of the curve has a readable "
                               f"{SD}", f"{curve.rel}", fix=f"add {SD} to every point directory"))
        point, desc = ov.curve_desc(curve, policy)
        if desc is not None:
            hits += ov.file_hits("system-description-valid", point.subject, desc, SD)
    return hits


def consistency(sub, policy) -> list:
    per_point = set(policy.get("week0").per_point_system_fields)
    hits = []
    for curve in sub.curves():
        present = []
        for point in curve.points:
            data, why = ov.read(point.files.get("system_desc"))
            if not why and isinstance(data, dict):
                present.append((point, {k: v for k, v in data.items() if k not in per_point}))
        for point, ident in present[1:]:
            ref = present[0][1]
            if ident != ref:
                keys = sorted(k for k in set(ident) | set(ref) if ident.get(k) != ref.get(k))
                hits.append(ov.hit("system-description-consistency", point.subject, f"{point.name}/{SD} differs from "
                                   f"{present[0][0].name}/{SD} in {', '.join(keys)}; the automated check wants one "
                                   "description per curve", point.files["system_desc"], (keys[0],),
                                   f"make {keys[0]} the same in every point's {SD}"))
                break
    return hits


def c_min_override(sub, policy) -> list:
    hits = []
    for curve in sub.curves():
        _value, problems = ov.c_min_override(curve, policy)
        hits += [ov.hit("c-min-override", p.subject, why, p.files.get("system_desc") or f"{p.rel}/{SD}",
                        ("c_min_override",), "declare the same c_min_override (a point's concurrency, 1..32) in every "
                        f"{SD}, or in none") for p, why in problems]
    return hits


PREDICATES = [
    (frozenset({"system-description-present", "system-description-valid"}), present_and_valid),
    (frozenset({"system-description-consistency"}), consistency),
    (frozenset({"c-min-override"}), c_min_override),
]
REFINE: dict = {}
