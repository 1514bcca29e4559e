"""The base of every policy model: strict types, no unknown keys (a record, read on first use)."""
from __future__ import annotations

from checker.core.record import Record


class StrictModel(Record, extra="forbid"):
    """Strict types; an unknown key is a problem (a typo in policy data must not pass silently)."""
