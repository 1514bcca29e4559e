"""The base of every file model (``checker.core.models.FileModel``): strict types, unknown keys kept."""
from __future__ import annotations

from checker.core.models import FileModel

__all__ = ["FileModel"]
