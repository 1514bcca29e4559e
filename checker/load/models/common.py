"""The base of every file model: a record with strict types that keeps unknown keys."""
from __future__ import annotations

from checker.core.record import Record


class FileModel(Record, extra="allow"):
    """Strict types, unknown keys kept (``extras_of``); costs nothing until a file validates."""
