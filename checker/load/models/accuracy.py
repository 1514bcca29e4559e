"""``accuracy_results.json`` (RUN-FOLDER.md §1.6; OFFICIAL-CHECKER.md §2.5) as pydantic models, both shapes.

Shapes: the client's ``{"accuracy_scores": [entry, ...]}`` list (indexed by ``dataset_name``, never
by position) or the same entries keyed by dataset (``{"accuracy_scores": {dataset: entry}}``), both
``ScoresFile``; and a top-level dataset-keyed mapping ``{dataset: {score, num_samples, ...}}``
(``DatasetMap``). ``AccuracyResults`` picks the shape by whether ``accuracy_scores`` is present. The
models check each value's type; what needs several fields (aliases that agree, unit x repeats =
total, unique dataset names, one inline entry) is rule logic in ``rules.accuracy.view``.
"""
from __future__ import annotations

import math
from typing import Annotated, Any, Optional, Union

from pydantic import AfterValidator, ConfigDict, Discriminator, Field, RootModel, Tag

from checker.core.models import FileModel
from checker.core.values import show

#: entry keys that are bookkeeping, never a metric (for entries without a ``score``)
BOOKKEEPING = frozenset({
    "dataset_name", "extractor", "ground_truth_column", "unit_samples", "num_samples", "num_repeats",
    "n_repeats", "total_samples", "duration_s", "complete", "dataset_type", "response_counts",
    "output_sequence_lengths", "osl_tokenize_s", "breakdown", "responses",
})
#: top-level keys of the mapping shape that are not datasets
TOP_LEVEL_META = frozenset({"average_accuracy", "osl_tokenization_s", "accuracy_scores"})


def is_number(v: Any) -> bool:
    """A JSON number (bool is not a number here)."""
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def finite(v: Any) -> bool:
    return is_number(v) and math.isfinite(v)


def _non_negative(v: int) -> int:
    if v < 0:
        raise ValueError(f"must be a non-negative integer, got {show(v)}")
    return v


#: a sample count: a plain non-negative integer (``66840.0`` is read as 66840 by ``spelling``)
Count = Annotated[int, AfterValidator(_non_negative), Field(json_schema_extra={"minimum": 0})]


def _score_kind(v: Any) -> str | None:
    if is_number(v):
        return "number"
    return "metrics" if isinstance(v, dict) else None


def _scores_kind(v: Any) -> str | None:
    return "list" if isinstance(v, list) else "keyed" if isinstance(v, dict) else None


#: ``score``: one number, or metric name -> value (a value that is not a finite number is the gate's finding)
Score = Annotated[
    Union[Annotated[float, Tag("number")], Annotated[dict[str, Any], Tag("metrics")]],
    Discriminator(_score_kind, custom_error_type="shape_error",
                  custom_error_message="must be a number or a mapping of metrics"),
]


class AccuracyScore(FileModel):
    """One scored dataset entry; other keys (``extractor``, ``response_counts``, bare metrics) are kept."""

    dataset_name: Optional[str] = Field(None, description="the dataset scored (the key of an entry in the "
                                                         "list shape; in a keyed shape it defaults to the key)")
    dataset_type: Optional[str] = Field(None, description="`performance` marks the inline score of the "
                                                         "performance run, not an accuracy run")
    score: Optional[Score] = Field(None, description="the score: one number, or a mapping of metric name "
                                                    "to value (ROUGE-1, exact_match, ...)")
    unit_samples: Optional[Count] = Field(None, description="samples of the dataset scored once "
                                                            "(alias: num_samples)")
    num_samples: Optional[Count] = Field(None, description="older spelling of unit_samples; both given "
                                                           "must agree")
    num_repeats: Optional[Count] = Field(None, description="times each sample was scored (alias: n_repeats)")
    n_repeats: Optional[Count] = Field(None, description="older spelling of num_repeats; both given must agree")
    total_samples: Optional[Count] = Field(None, description="samples scored in all: unit_samples x "
                                                             "num_repeats")
    complete: Optional[bool] = Field(None, description="false when the scorer did not see every sample")


Scores = Annotated[
    Union[Annotated[list[Optional[AccuracyScore]], Tag("list")], Annotated[dict[str, AccuracyScore], Tag("keyed")]],
    Discriminator(_scores_kind, custom_error_type="shape_error",
                  custom_error_message="must be a list of entries or a mapping keyed by dataset"),
]


class ScoresFile(FileModel):
    """The client's shape: ``accuracy_scores`` (a list, or keyed by dataset) and summary values beside it."""

    accuracy_scores: Scores = Field(description="the scored entries: a list (each with its "
                                                  "dataset_name) or a mapping keyed by dataset")
    average_accuracy: Any = Field(None, description="the client's mean score (not read by the checks)")
    osl_tokenization_s: Any = Field(None, description="seconds spent tokenising outputs (not read by the checks)")


class DatasetMap(FileModel):
    """The dataset-keyed shape: every top-level key other than the summary values is a dataset entry."""

    #: in the schema, the shape is told apart as the model does: no `accuracy_scores` key
    model_config = ConfigDict(json_schema_extra={"not": {"required": ["accuracy_scores"]}})

    __pydantic_extra__: dict[str, AccuracyScore] = Field(init=False)  # type: ignore[assignment]

    average_accuracy: Any = Field(None, description="the client's mean score (not read by the checks)")
    osl_tokenization_s: Any = Field(None, description="seconds spent tokenising outputs (not read by the checks)")


def _shape(v: Any) -> str:
    return "accuracy_scores file" if isinstance(v, dict) and "accuracy_scores" in v else "dataset mapping"


class AccuracyResults(RootModel):
    """accuracy_results.json in either shape (the tags are not keys of the data: locations skip them)."""

    model_config = ConfigDict(strict=True, defer_build=True)

    root: Annotated[Union[Annotated[ScoresFile, Tag("accuracy_scores file")],
                          Annotated[DatasetMap, Tag("dataset mapping")]], Discriminator(_shape)]


def score_items(scores: Any) -> list[tuple[Any, Any]]:
    """(index or dataset key, entry) of an `accuracy_scores` value in either shape (list, or keyed by dataset)."""
    if isinstance(scores, list):
        return list(enumerate(scores))
    if isinstance(scores, dict):
        return [(k, scores[k]) for k in sorted(scores, key=str)]
    return []
