"""Week-0 refinement of the official's system_desc.json schema check (endpoints-submission-cli 1.5.3.0).

pydantic's lax mode takes a quoted integer ("1024") where an int is declared: our
system-description-valid FAIL stands as the official's ERROR only when some problem is not that.
"""
from __future__ import annotations

import re

_QUOTED_INT = re.compile(r"expected an integer, got '-?[0-9]+'$")


def strict_only(finding, sub, policy) -> bool:
    problems = finding.observed if isinstance(finding.observed, list) else [finding.observed]
    return not problems or not all(isinstance(p, str) and _QUOTED_INT.search(p) for p in problems)


PREDICATES: list = []
REFINE = {"system-description-valid": strict_only}
