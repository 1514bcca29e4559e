"""The base of every policy model: strict types, no unknown keys, schema built on first use."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class StrictModel(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)
