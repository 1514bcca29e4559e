"""The client's ``config.yaml`` keys the rules read as numbers or booleans (RULES.md §2.11).

Used only to read unambiguous non-plain spellings (``64.0``, YAML 1.1 ``yes``) as the value they
spell (``checker.load.models.spelling``); config.yaml is the client's file and is not validated
against this model, so every other key keeps whatever it holds.
"""
from __future__ import annotations

from pydantic import Field

from typing import Optional

from checker.load.models.common import FileModel


class _LoadPattern(FileModel):
    """settings.load_pattern: how the client issues requests."""

    target_concurrency: Optional[int] = Field(None, description="requests kept in flight")


class _Runtime(FileModel):
    """settings.runtime: the run's length and seeds."""

    n_samples_to_issue: Optional[int] = Field(None, description="samples the run issues")
    min_duration_ms: Optional[int] = Field(None, description="minimum run duration, milliseconds")
    max_duration_ms: Optional[int] = Field(None, description="maximum run duration, milliseconds")
    scheduler_random_seed: Optional[int] = Field(
        None, description="seed of the request scheduler (point.yaml scheduler_rng_seed)")
    dataloader_random_seed: Optional[int] = Field(
        None, description="seed of the sample order (point.yaml sample_index_rng_seed)")


class _Client(FileModel):
    """settings.client: the HTTP client."""

    stream_all_chunks: Optional[bool] = Field(None, description="every streamed chunk is recorded")
    num_workers: Optional[int] = Field(None, description="client worker processes")


class _Warmup(FileModel):
    """settings.warmup: the warmup before the measurement."""

    enabled: Optional[bool] = Field(None, description="a warmup runs")
    salt: Optional[bool] = Field(None, description="warmup prompts are salted")
    drain: Optional[bool] = Field(None, description="the warmup drains before the measurement starts")
    n_requests: Optional[int] = Field(None, description="warmup requests issued")


class _Settings(FileModel):
    """settings: the client's run settings."""

    load_pattern: Optional[_LoadPattern] = Field(None, description="how requests are issued")
    runtime: Optional[_Runtime] = Field(None, description="run length and seeds")
    client: Optional[_Client] = Field(None, description="the HTTP client")
    warmup: Optional[_Warmup] = Field(None, description="the warmup")


class _ModelParams(FileModel):
    """model_params: what each request asks of the model."""

    max_new_tokens: Optional[int] = Field(None, description="cap on generated tokens")
    top_k: Optional[int] = Field(None, description="top-k sampling cut-off")


class ClientConfig(FileModel):
    """The keys of the client's config.yaml the rules read as numbers or booleans."""

    model_params: Optional[_ModelParams] = Field(None, description="what each request asks of the model")
    settings: Optional[_Settings] = Field(None, description="the client's run settings")
