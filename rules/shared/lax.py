"""What the official tool's schema validation accepts, read over the raw loaded data (no I/O).

The official (endpoints-submission-cli 1.5.3.0) parses with pydantic in lax mode: a quoted number
or an integral float passes where an int is declared, an absent optional field is no error, unknown
keys are allowed. These helpers say what it does with a raw value, for the Week-0 predicates.
"""
from __future__ import annotations

from pydantic import Field

import math
from typing import Any

from rules.shared.strict import StrictModel


class Week0Policy(StrictModel):
    """The Week-0 prediction's table (rules/policy/<edition>/week0.yaml)."""

    schema_version: int = Field(description="version of this file's layout")
    tool: str = Field(description="the official tool and version predicted")
    never_error: list[str] = Field(description="official rule ids that never emit ERROR")
    same_trigger: list[str] = Field(description="official rule ids whose ERROR condition is our same-id rule's FAIL")
    also_from: dict[str, list[str]] = Field(
        description="official id -> our rule ids whose non-warn FAIL is an ERROR of that official id")
    warn_is_error: list[str] = Field(
        description="same-trigger ids where our warn-level outcome is still the official's ERROR")
    curve_wide: list[str] = Field(description="ids the official decides over the whole curve")
    min_query_count: dict[str, int] = Field(
        description="point.yaml dataset -> completed queries the official requires")
    region_values: list[str] = Field(description="point.yaml region values the official accepts")
    offline_values: list[str] = Field(description="point.yaml offline values the official accepts")


#: a key a mapping does not hold (None is a value: YAML null)
MISSING = object()


def lax_int(v: Any) -> int | None:
    """pydantic's lax int: an int, an integral finite float, a numeric string; else None (a validation error)."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v) if math.isfinite(v) and v == int(v) else None
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            try:
                f = float(v.strip())
            except ValueError:
                return None
            return int(f) if math.isfinite(f) and f == int(f) else None
    return None


def lax_float(v: Any) -> float | None:
    """pydantic's lax float: a number or a numeric string; else None."""
    if isinstance(v, bool):
        return float(v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            return None
    return None
