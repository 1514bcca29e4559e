"""``point.yaml`` (R§8.3): the per-point disclosure, copied verbatim from the run folder.

Every field is optional here: which ones a point must carry, and the values allowed, are the rules'
(``point-config-valid``, ``region-declared``, ...). The schema still shows the allowed values
(``checker.load.models.schema_types``), for editors.
"""
from __future__ import annotations

from typing import Any, Optional

from pydantic import ConfigDict, Field

from checker.load.models.common import FileModel
from checker.load.models.schema_types import YamlBool, any_of, one_of, shown

Seed = shown(int, minimum=0)


class Runtime(FileModel):
    """The seeds the client ran with (R§2.1.1); they must equal the bound seed set's."""

    scheduler_rng_seed: Optional[Seed] = Field(None, description="seed of the request scheduler (unsigned 64-bit)")
    sample_index_rng_seed: Optional[Seed] = Field(None, description="seed of the sample-order shuffle "
                                                                    "(unsigned 64-bit)")
    model_seed: Optional[Seed] = Field(None, description="seed sent to the model for sampling (unsigned 64-bit)")
    # v0.7 / client spellings, accepted and reported by the seed rules
    scheduler_random_seed: Optional[Seed] = Field(None, description="v0.7 / client name of scheduler_rng_seed "
                                                                    "(accepted; the seed rules name the new key)")
    dataloader_random_seed: Optional[Seed] = Field(None, description="v0.7 / client name of sample_index_rng_seed "
                                                                     "(accepted; the seed rules name the new key)")


class RuntimeWarmup(FileModel):
    """Warmup settings the client ran with."""

    salt: Optional[YamlBool] = Field(None, description="warmup prompts were salted, so the warmup may reuse the "
                                                       "performance dataset (R§2.9.5.1)")


class RuntimeSettings(FileModel):
    """The client's RuntimeSettings for this point; other client settings may appear beside these."""

    load_pattern: Optional[str] = Field(None, description="`concurrency` for a fixed-concurrency point, "
                                                          "`agentic_inference` for an agentic benchmark; `poisson` is "
                                                          "never valid (a dedicated Offline point is exempt)")
    min_duration_ms: Optional[int] = Field(None, description="minimum run duration, in milliseconds")
    min_sample_count: Optional[int] = Field(None, description="minimum number of samples issued")
    stream_all_chunks: Optional[YamlBool] = Field(None, description="every streamed chunk was recorded "
                                                                    "(TTFT/TPOT are measured on streamed responses)")
    runtime: Optional[Runtime] = Field(None, description="the seeds of this run")
    warmup: Optional[RuntimeWarmup] = Field(None, description="the client's warmup settings")


class Warmup(FileModel):
    """The warmup that ran before TEST_STARTED (R§6.3.3)."""

    duration_s: Optional[float] = Field(None, description="seconds from the first warmup request to "
                                                          "TEST_STARTED; at most 24 h (86400 s)")
    requests_issued: Optional[int] = Field(None, description="warmup requests issued")
    requests_completed: Optional[int] = Field(None, description="warmup requests completed")
    data_source: Optional[str] = Field(None, description="what the warmup sent: dataset and split, synthetic "
                                                         "method or fixed prompt; not the performance dataset "
                                                         "unless salting is on")
    concurrency: Optional[int] = Field(None, description="concurrency of the warmup")
    initialization_steps: any_of({"type": "array"}, {"type": "string"}) = Field(
        None, description="platform initialisation done before TEST_STARTED (engine load, CUDA graph capture, "
                          "JIT), a list or one text")
    logs_retained: Optional[YamlBool] = Field(None, description="the warmup's logs are kept with the submission")
    link_logs: Optional[str] = Field(None, description="where the warmup logs are")


class SteadyWindow(FileModel):
    """The steady-state window the metrics are reported on (R§4.4)."""

    super_pass_start: Optional[int] = Field(None, description="first super-pass of the window")
    super_pass_end: Optional[int] = Field(None, description="last super-pass of the window")
    super_pass_size: Optional[int] = Field(None, description="effective super-pass size used")
    n_samples: Optional[int] = Field(None, description="samples in the window")
    duration_s: Optional[float] = Field(None, description="issue-time span of the window, in seconds")


class SteadyState(FileModel):
    """The steady-state detector's result for this point (R§4.4)."""

    status: Optional[str] = Field(None, description="windowable, insufficient_duration, insufficient_passes or "
                                                    "partial_dataset")
    verdict: Optional[str] = Field(None, description="STEADY STATE, drifting_up, drifting_down, anomaly or not "
                                                     "found (the R§4.4 table's spellings)")
    window: Optional[SteadyWindow] = Field(None, description="the window the metrics are reported on")
    state: Optional[dict[str, str]] = Field(None, description="per gating metric: Plateau, Drifting Up or "
                                                              "Drifting Down")
    anomaly: Any = Field(None, description="present only on a confirmed level shift (change point)")
    total: Any = Field(None, description="whole-run metrics, supplementary")


class PointYaml(FileModel):
    """point.yaml (R§8.3): the per-point disclosure. Unknown keys are allowed. Integers may be written as
    integral floats (64.0; JSON Schema's integer type includes them) and booleans as YAML 1.1 words
    (yes/no/on/off): both are read as the value they spell, with a value-spelling warning."""

    model_config = ConfigDict(title="MLPerf Endpoints point.yaml")

    concurrency: Optional[shown(int, minimum=1)] = Field(None, description="target in-flight concurrency; for a "
                                                                           "dedicated Offline point, the "
                                                                           "performance dataset's size")
    # the allowed values of region and offline are the curve policy's (region_values, offline_values):
    # checker.cli.schemagen writes them into the schema
    region: Optional[str] = Field(None, description="the curve region this point is placed in (R§5.4)")
    runtime_settings: Optional[RuntimeSettings] = Field(None, description="the client's RuntimeSettings used")
    dataset: Optional[str] = Field(None, description="dataset identity; the same on every point of a curve")
    n_samples_from_dataset: Optional[int] = Field(None, description="samples taken from the dataset, when not "
                                                                    "all of it")
    dataset_name: Optional[str] = Field(None, description="the dataset's display name")
    dataset_type: Optional[one_of("Accuracy", "Performance", "Accuracy + Performance")] = Field(
        None, description="what the dataset is used for")
    dataset_link: Optional[str] = Field(None, description="link to the dataset")
    warmup: Optional[Warmup] = Field(None, description="the warmup that ran before the measurement (R§6.3.3)")
    division: Optional[one_of("Standardized", "Serviced", "RDI")] = Field(None, description="the submission's "
                                                                                             "division (R§2)")
    max_supported_concurrency: Optional[int] = Field(None, description="declared C_max; more than 32 (also in "
                                                                       "system_desc.json)")
    model_name: Optional[str] = Field(None, description="canonical model id from the round's list; equals the "
                                                        "results/SYSTEM/MODEL directory name")
    model_precision: Optional[str] = Field(None, description="lowest numeric format the weights use (an FP16+FP8 "
                                                             "mix is FP8)")
    link_to_model: Optional[str] = Field(None, description="link to the submitted model")
    link_to_model_transformation: Optional[str] = Field(None, description="write-up of calibration, quantization "
                                                                          "or retraining, when the weights were "
                                                                          "transformed")
    model_notes: Optional[str] = Field(None, description="free-form notes on the model")
    offline: Optional[str] = Field(
        None, description="`dedicated`: this point is a dedicated Offline run; `elected`: this C_max point is "
                          "elected as the Offline point; `none` or absent otherwise (R§5.7)")
    steady_state: Optional[SteadyState] = Field(None, description="the steady-state detector's result (R§4.4)")
    speculative_decoding: Optional[dict[str, Any]] = Field(None, description="drafter and configuration, only on "
                                                                             "points that used speculative "
                                                                             "decoding (R§2.9.4)")
    seed_set: Optional[str] = Field(None, description="id of the published seed set this point is bound to (e.g. "
                                                      "`A`)")
    target_cohort: Optional[shown(str, pattern="^[0-9]{4}-[0-9]{2}-C[01]$")] = Field(
        None, description="the publication cohort aimed at, YYYY-MM-C0 or YYYY-MM-C1")
    shared_src: Optional[str] = Field(None, description="path from the submission root to this point's source "
                                                        "directory under src/ (injected when absent)")
    shared_docs: Optional[str] = Field(None, description="path from the submission root to the docs directory "
                                                         "(injected when absent)")
    nodes_used: Optional[list[Any]] = Field(None, description="the nodes this point ran on")
    dp_shortfall: Optional[dict[str, Any]] = Field(None, description="why fewer data-parallel replicas ran than "
                                                                     "declared")
    model_equivalence: Optional[dict[str, Any]] = Field(
        None, description="model-equivalence disclosures (R§2.9; field names are this checker's convention)")

    @property
    def load_pattern(self) -> str | None:
        rs = self.runtime_settings
        return rs.load_pattern if rs is not None else None
