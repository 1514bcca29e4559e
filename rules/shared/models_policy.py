"""Schemas of the shared policy files (``models.yaml``, ``index.yaml``) used by several families."""
from __future__ import annotations

from pydantic import Field

from typing import Literal, Optional

from rules.shared.strict import StrictModel as _Strict


class DatasetInfo(_Strict):
    """One dataset a benchmark uses."""

    name: str = Field(description="canonical dataset name")
    size: int = Field(description="samples in one full pass")
    aliases: list[str] = Field([], description="other names a point.yaml dataset may use")


class BenchmarkModel(_Strict):
    """One benchmark model of the round (RULES.md §11)."""

    display_name: str = Field(description="the model's display name")
    hf_id: str = Field(description="the Hugging Face id of the reference checkpoint")
    type: Literal["single-turn", "agentic"] = Field(description="single-turn or agentic")
    aliases: list[str] = Field([], description="other spellings of the model id")
    performance_dataset: DatasetInfo = Field(description="the performance dataset")
    accuracy_dataset: Optional[DatasetInfo] = Field(None, description="the accuracy dataset, when it differs")
    offline_concurrency: Optional[int] = Field(
        None, description="concurrency of the dedicated Offline run, when fixed")


class ModelsPolicy(_Strict):
    """Allowed benchmark models (RULES.md §11) and their datasets."""

    schema_version: int = Field(description="version of this file's layout")
    models: dict[str, BenchmarkModel] = Field(description="canonical model id -> the benchmark")
    #: every dataset a point.yaml `dataset` may name, with its size (one full pass)
    datasets: dict[str, DatasetInfo] = Field(
        description="every dataset a point.yaml `dataset` may name, with its size")

    def canonical(self, name: str | None) -> str | None:
        """Canonical id for a model name or one of its accepted spellings."""
        if name is None:
            return None
        if name in self.models:
            return name
        for mid, m in self.models.items():
            if name in m.aliases:
                return mid
        return None

    def identify(self, name: str | None) -> list[str]:
        """The model ids ``name`` spells: an accepted spelling, else the ids, aliases, Hugging Face ids (whole or
        after the slash) and display names equal to it ignoring case and punctuation."""
        if not isinstance(name, str) or not name:
            return []
        exact = self.canonical(name)
        if exact:
            return [exact]
        n = _letters(name)
        return [mid for mid, m in self.models.items()
                if any(_letters(f) == n for f in (mid, *m.aliases, m.hf_id, m.hf_id.split("/")[-1], m.display_name))]

    def dataset_size(self, name: str | None) -> int | None:
        if not name:
            return None
        for key, d in self.datasets.items():
            if name == key or name == d.name or name in d.aliases:
                return d.size
        return None




def _letters(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch.isascii() and ch.isalnum())
