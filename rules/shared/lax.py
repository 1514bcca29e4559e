"""What the official tool's schema validation accepts, read over the raw loaded data (no I/O).

The official (endpoints-submission-cli 1.5.3.0) parses with pydantic in lax mode: a quoted number
or an integral float passes where an int is declared, an absent optional field is no error, unknown
keys are allowed. These helpers ask pydantic itself what it does with a raw value.
"""
from __future__ import annotations

from pydantic import Field, TypeAdapter, ValidationError

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
    load_patterns: list[str] = Field(description="runtime_settings.load_pattern values the official accepts")
    disclosure_fields: list[str] = Field(description="point.yaml fields point-disclosure-complete requires")
    steady_statuses: list[str] = Field(description="steady_state.status words")
    steady_verdicts: list[str] = Field(description="steady_state.verdict words")
    gating_states: list[str] = Field(description="steady_state.state words")
    min_trend_n: int = Field(description="super-passes a windowable steady state spans at least")
    cohort_pattern: str = Field(description="regular expression a target_cohort matches in full")
    seed_adoption_cohorts: int = Field(description="cohorts a seed set is adoptable for, from its publication")
    legacy_seed: int = Field(description="the v0.7 seed of a point that binds no seed set")
    metric_tolerance: float = Field(description="relative tolerance of stored derived metrics")
    tps_utilization_tolerance: float = Field(description="absolute tolerance of tps_utilization")
    per_point_system_fields: list[str] = Field(description="system_desc.json fields that may differ per point")
    power_optional_divisions: list[str] = Field(description="divisions (lower case) that may omit system_power.json")


#: a key a mapping does not hold (None is a value: YAML null)
MISSING = object()


def lax_int(v: Any) -> int | None:
    """pydantic's lax int (the official's own library): an int, a bool, an integral finite float, an integer
    string ("8", " 8 ", "8.0", "1_000"); else None (a validation error)."""
    try:
        return _INT.validate_python(v)
    except ValidationError:
        return None


def lax_float(v: Any) -> float | None:
    """pydantic's lax float: a number, a bool, a numeric string ("1e3", "nan"); else None."""
    try:
        return _FLOAT.validate_python(v)
    except ValidationError:
        return None


_INT, _FLOAT = TypeAdapter(int), TypeAdapter(float)
