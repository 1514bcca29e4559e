"""Base model configuration shared by every file model."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class FileModel(BaseModel):
    """Strict types, unknown keys kept, schema built lazily (import cost matters: see bench/)."""

    model_config = ConfigDict(strict=True, extra="allow", defer_build=True, frozen=False)
