"""Week-0 predicate of the official's power-descriptor schema (endpoints-submission-cli 1.5.3.0).

Every system of a Standardized submission needs a system_power.json (an RDI or Serviced one may omit
it: the division is read from the system's first readable system_desc.json, by path); one that is there
must be readable JSON and validate as the official's SystemPower (week0_schemas.yaml: Appendix E,
lax types, `cooling` lower case, a sourced value with exactly one value and no other key). The E.5
arithmetic is our power rules' (week0.yaml also_from).
"""
from __future__ import annotations

from rules.shared import official_view as ov

SP = "system_power.json"


def _division(system, policy) -> str | None:
    """The division of the system's first readable system_desc.json, by path (*/r*/ sorted as text)."""
    found = []
    for curve in system.curves:
        for point in curve.points:
            data, why = ov.read(point.files.get("system_desc"))
            if not why and isinstance(data, dict):
                found.append((f"{curve.name}/{point.name}", data))
    for _path, data in sorted(found, key=lambda t: t[0]):
        division = data.get("division")
        return division.strip().lower() if isinstance(division, str) else None
    return None


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


PREDICATES = [(frozenset(), power_descriptor)]
