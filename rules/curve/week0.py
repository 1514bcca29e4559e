"""Week-0 predicates of the official's curve rules (endpoints-submission-cli 1.5.3.0): pure, over loaded data."""
from __future__ import annotations

from checker.core.week0 import Hit

from rules.shared.lax import dig, lax_int, lax_float  # noqa: F401

PREDICATES: dict = {}
