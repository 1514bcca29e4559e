"""The client's ``config.yaml`` keys the rules read as numbers or booleans (RULES.md §2.11).

Used only to read unambiguous non-plain spellings (``64.0``, YAML 1.1 ``yes``) as the value they
spell (``checker.load.models.spelling``); config.yaml is the client's file and is not validated
against this model, so every other key keeps whatever it holds.
"""
from __future__ import annotations

from typing import Optional

from checker.load.models.common import FileModel


class _LoadPattern(FileModel):
    target_concurrency: Optional[int] = None


class _Runtime(FileModel):
    n_samples_to_issue: Optional[int] = None
    min_duration_ms: Optional[int] = None
    max_duration_ms: Optional[int] = None
    scheduler_random_seed: Optional[int] = None
    dataloader_random_seed: Optional[int] = None


class _Client(FileModel):
    stream_all_chunks: Optional[bool] = None
    num_workers: Optional[int] = None


class _Warmup(FileModel):
    enabled: Optional[bool] = None
    salt: Optional[bool] = None
    drain: Optional[bool] = None
    n_requests: Optional[int] = None


class _Settings(FileModel):
    load_pattern: Optional[_LoadPattern] = None
    runtime: Optional[_Runtime] = None
    client: Optional[_Client] = None
    warmup: Optional[_Warmup] = None


class _ModelParams(FileModel):
    max_new_tokens: Optional[int] = None
    top_k: Optional[int] = None


class ClientConfig(FileModel):
    model_params: Optional[_ModelParams] = None
    settings: Optional[_Settings] = None
