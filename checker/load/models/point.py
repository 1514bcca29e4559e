"""``point.yaml`` (R§8.3): the per-point disclosure, copied verbatim from the run folder."""
from __future__ import annotations

from typing import Any, Optional

from checker.load.models.common import FileModel


class Runtime(FileModel):
    scheduler_rng_seed: Optional[int] = None
    sample_index_rng_seed: Optional[int] = None
    model_seed: Optional[int] = None
    # v0.7 / client spellings, accepted and reported by the seed rules
    scheduler_random_seed: Optional[int] = None
    dataloader_random_seed: Optional[int] = None


class RuntimeWarmup(FileModel):
    salt: Optional[bool] = None


class RuntimeSettings(FileModel):
    load_pattern: Optional[str] = None
    min_duration_ms: Optional[int] = None
    min_sample_count: Optional[int] = None
    stream_all_chunks: Optional[bool] = None
    runtime: Optional[Runtime] = None
    warmup: Optional[RuntimeWarmup] = None


class Warmup(FileModel):
    duration_s: Optional[float] = None
    requests_issued: Optional[int] = None
    requests_completed: Optional[int] = None
    data_source: Optional[str] = None
    concurrency: Optional[int] = None
    initialization_steps: Any = None  # list of str or a str
    logs_retained: Optional[bool] = None
    link_logs: Optional[str] = None


class SteadyWindow(FileModel):
    super_pass_start: Optional[int] = None
    super_pass_end: Optional[int] = None
    super_pass_size: Optional[int] = None
    n_samples: Optional[int] = None
    duration_s: Optional[float] = None


class SteadyState(FileModel):
    status: Optional[str] = None
    verdict: Optional[str] = None
    window: Optional[SteadyWindow] = None
    state: Optional[dict[str, str]] = None
    anomaly: Any = None
    total: Any = None


class PointYaml(FileModel):
    concurrency: Optional[int] = None
    region: Optional[str] = None
    runtime_settings: Optional[RuntimeSettings] = None
    dataset: Optional[str] = None
    n_samples_from_dataset: Optional[int] = None
    dataset_name: Optional[str] = None
    dataset_type: Optional[str] = None
    dataset_link: Optional[str] = None
    warmup: Optional[Warmup] = None
    division: Optional[str] = None
    max_supported_concurrency: Optional[int] = None
    model_name: Optional[str] = None
    model_precision: Optional[str] = None
    link_to_model: Optional[str] = None
    link_to_model_transformation: Optional[str] = None
    model_notes: Optional[str] = None
    offline: Optional[str] = None
    steady_state: Optional[SteadyState] = None
    speculative_decoding: Optional[dict[str, Any]] = None
    seed_set: Optional[str] = None
    target_cohort: Optional[str] = None
    shared_src: Optional[str] = None
    shared_docs: Optional[str] = None
    nodes_used: Optional[list[Any]] = None
    dp_shortfall: Optional[dict[str, Any]] = None
    model_equivalence: Optional[dict[str, Any]] = None

    @property
    def load_pattern(self) -> str | None:
        rs = self.runtime_settings
        return rs.load_pattern if rs is not None else None
