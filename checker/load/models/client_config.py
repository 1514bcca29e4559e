"""The client's ``config.yaml`` (its resolved BenchmarkConfig, RUN-FOLDER.md §1.1): in run folders, point
folders and planned client configs.

``ClientConfig`` is the validation model: the keys the rules read, typed as the client writes them
(``model_dump(mode="json")``: seeds and counts integers, ``streaming`` the resolved word). Unknown keys are
kept, not refused: the file is the client's, its schema grows with every client release (transport, drain,
profiling...), and no rule reads those keys. A problem found here never rejects the file by itself: the rule
reading a field reports what it finds there, as it always has (docs/decisions.md).

The loose-spelling walk (``checker.load.models.spelling``) reads, of this model, only the keys each class
names in ``__respelled__``: those read as numbers or booleans since before the file was validated, so the
spellings accepted (and warned about) are the same as then (a quoted ``temperature`` stays a type problem
of the model, reported by the rule reading it).
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import Field

from checker.load.models.common import FileModel


class ModelParams(FileModel):
    """model_params: the model served and what each request asks of it (sampling, streaming)."""

    __respelled__ = ("max_new_tokens", "top_k")

    name: Optional[str] = Field(None, description="the model id the endpoint serves (a Hugging Face id)")
    temperature: Optional[float] = Field(None, description="sampling temperature")
    top_k: Optional[int] = Field(None, description="top-k sampling cut-off")
    top_p: Optional[float] = Field(None, description="nucleus sampling cut-off")
    repetition_penalty: Optional[float] = Field(None, description="repetition penalty")
    max_new_tokens: Optional[int] = Field(None, description="cap on generated tokens per request")
    min_new_tokens: Optional[int] = Field(None, description="floor on generated tokens per request")
    streaming: Optional[str] = Field(
        None, description="streamed responses: `on` or `off` as the client resolves it (`auto` in a hand-written plan)")


class Dataset(FileModel):
    """One entry of datasets: a dataset the run issues (performance) or scores (accuracy)."""

    name: Optional[str] = Field(None, description="the dataset's name (the accuracy results and sample map key)")
    type: Optional[str] = Field(None, description="`performance` or `accuracy`")
    path: Optional[str] = Field(None, description="where the client read the dataset from")
    eval_method: Optional[str] = Field(None, description="the scorer of an accuracy dataset")


class LoadPattern(FileModel):
    """settings.load_pattern: how the client issues requests."""

    __respelled__ = ("target_concurrency",)

    type: Optional[str] = Field(None, description="`concurrency`, `poisson`, `max_throughput`, `agentic_inference`...")
    target_concurrency: Optional[int] = Field(None, description="requests kept in flight (a concurrency run)")
    target_qps: Optional[float] = Field(None, description="requests per second (a poisson run)")


class Runtime(FileModel):
    """settings.runtime: the run's length and seeds."""

    __respelled__ = ("n_samples_to_issue", "min_duration_ms", "max_duration_ms", "scheduler_random_seed",
                     "dataloader_random_seed")

    n_samples_to_issue: Optional[int] = Field(None, description="samples the run issues")
    min_duration_ms: Optional[int] = Field(None, description="minimum run duration, milliseconds")
    max_duration_ms: Optional[int] = Field(None, description="maximum run duration, milliseconds")
    scheduler_random_seed: Optional[int] = Field(
        None, description="seed of the request scheduler (point.yaml scheduler_rng_seed; up to 2^64 - 1)")
    dataloader_random_seed: Optional[int] = Field(
        None, description="seed of the sample order (point.yaml sample_index_rng_seed; up to 2^64 - 1)")


class Client(FileModel):
    """settings.client: the HTTP client (its transport and tuning keys are kept as written)."""

    __respelled__ = ("stream_all_chunks", "num_workers")

    num_workers: Optional[int] = Field(None, description="client worker processes")
    max_connections: Optional[int] = Field(None, description="connections the client may open")
    stream_all_chunks: Optional[bool] = Field(None, description="every streamed chunk is recorded in events.jsonl")


class Warmup(FileModel):
    """settings.warmup: the warmup before the measurement."""

    __respelled__ = ("enabled", "salt", "drain", "n_requests")

    enabled: Optional[bool] = Field(None, description="a warmup runs")
    n_requests: Optional[int] = Field(None, description="warmup requests issued")
    salt: Optional[bool] = Field(None, description="warmup prompts are salted")
    drain: Optional[bool] = Field(None, description="the warmup drains before the measurement starts")
    warmup_random_seed: Optional[int] = Field(None, description="seed of the warmup's sample order")


class Settings(FileModel):
    """settings: the client's run settings (drain, profiling, early_stopping... are kept as written)."""

    __respelled__ = ("load_pattern", "runtime", "client", "warmup")

    runtime: Optional[Runtime] = Field(None, description="run length and seeds")
    load_pattern: Optional[LoadPattern] = Field(None, description="how requests are issued")
    client: Optional[Client] = Field(None, description="the HTTP client")
    warmup: Optional[Warmup] = Field(None, description="the warmup")


class EndpointConfig(FileModel):
    """endpoint_config: where the requests go (secrets are written as `<redacted>`)."""

    endpoints: Optional[list[Optional[str]]] = Field(
        None, description="the endpoint URLs (one that is not a string is refused and read as absent)")
    api_type: Optional[str] = Field(None, description="the API the client speaks (`openai`...)")


class ClientConfig(FileModel):
    """config.yaml: the reference client's resolved benchmark configuration (RUN-FOLDER.md §1.1)."""

    __respelled__ = ("model_params", "settings")

    name: Optional[str] = Field(None, description="the run's name")
    version: Optional[str] = Field(None, description="the config schema version (`'1.0'`, a string)")
    type: Optional[str] = Field(None, description="`online`, `offline` or `submission`")
    submission_ref: Any = Field(None, description="the ruleset and benchmark a `submission` run is pinned to")
    benchmark_mode: Optional[str] = Field(None, description="what the run measured (performance, accuracy or both)")
    model_params: Optional[ModelParams] = Field(None, description="the model and what each request asks of it")
    datasets: Optional[list[Optional[Dataset]]] = Field(
        None, description="the datasets issued and scored, in order (an entry that is not a mapping is refused and "
                          "read as absent)")
    settings: Optional[Settings] = Field(None, description="the client's run settings")
    endpoint_config: Optional[EndpointConfig] = Field(None, description="where the requests go")
    report_dir: Optional[str] = Field(None, description="the run folder the client wrote")


def loaded_config(lf) -> Optional[ClientConfig]:
    """The ClientConfig the loader attached to a loaded config.yaml, or None (absent, not loaded, not a mapping)."""
    return lf.model if lf is not None and lf.ok and isinstance(lf.model, ClientConfig) else None


def config_warmup(lf) -> Optional[Warmup]:
    """settings.warmup of a loaded config.yaml (None when absent or not a mapping)."""
    cfg = loaded_config(lf)
    return cfg.settings.warmup if cfg is not None and cfg.settings is not None else None


def config_load_pattern(lf) -> Optional[LoadPattern]:
    """settings.load_pattern of a loaded config.yaml (None when absent or not a mapping)."""
    cfg = loaded_config(lf)
    return cfg.settings.load_pattern if cfg is not None and cfg.settings is not None else None


def config_model_name(lf) -> Optional[str]:
    """model_params.name of a loaded config.yaml (None when absent or not text)."""
    cfg = loaded_config(lf)
    return cfg.model_params.name if cfg is not None and cfg.model_params is not None else None


class ConfigFormat:
    """Which of the client's config formats a config.yaml is written in, and its run-length keys as spelled there.

    `older`: the client at `main` up to ea33275 (settings.drain, settings.service_ready_timeout_s): the run is
    sized from runtime.min_duration_ms (default 600,000) unless n_samples_to_issue is set, and
    max_duration_ms: 0 means no cap. `newer`: pull request #409 and the `main` that adopted its format
    (settings.timeouts, settings.metrics_tokenizer_workers): min_duration_ms only sizes a poisson run with a
    target_qps and is refused otherwise, the client issues the dataset once unless n_samples_to_issue is set,
    max_duration_ms: 0 is refused (absent = no cap), and later clients spell the cap max_issue_duration_ms.
    `unknown`: a hand-written plan that says neither (only the keys it has are read).
    """

    __slots__ = ("name", "evidence", "cap_key")

    def __init__(self, name: str, evidence: str, cap_key: Optional[str]):
        self.name = name
        self.evidence = evidence
        self.cap_key = cap_key

    @property
    def label(self) -> str:
        return {"older": f"the client's older config format ({self.evidence}: main up to ea33275)",
                "newer": f"the client's newer config format ({self.evidence}: pull request #409 and later main)",
                }.get(self.name, "a config that names neither client format")


#: runtime keys that cap the performance phase, newest spelling first
CAP_KEYS = ("max_issue_duration_ms", "max_duration_ms")


def config_format(data: Any) -> ConfigFormat:
    """The format of a config.yaml's raw mapping (``ConfigFormat``): read from the keys that tell them apart."""
    settings = data.get("settings") if isinstance(data, dict) else None
    settings = settings if isinstance(settings, dict) else {}
    runtime = settings.get("runtime") if isinstance(settings.get("runtime"), dict) else {}
    cap = next((k for k in CAP_KEYS if k in runtime), None)
    newer = [f"settings.{k}" for k in ("timeouts", "metrics_tokenizer_workers") if k in settings]
    newer += [f"settings.runtime.{k}" for k in ("max_issue_duration_ms", "min_issue_duration_ms") if k in runtime]
    if newer:
        return ConfigFormat("newer", newer[0], cap)
    older = [f"settings.{k}" for k in ("drain", "service_ready_timeout_s") if k in settings]
    if older:
        return ConfigFormat("older", older[0], cap)
    return ConfigFormat("unknown", "", cap)
