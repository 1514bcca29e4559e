"""The base of every policy model: strict types, no unknown keys (``checker.core.models.StrictModel``)."""
from __future__ import annotations

from checker.core.models import StrictModel

__all__ = ["StrictModel"]
