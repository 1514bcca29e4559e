"""A point's ``results.json`` (kind ``accuracy_legacy``): which model it validates into.

A results.json carrying ``accuracy_scores`` (a list or a dataset-keyed mapping) is accuracy results in the
client's shape and validates into ``AccuracyResults``, as ``accuracy_results.json`` does; the accuracy rules
then read it (``rules.accuracy.view.accuracy_file``). Any other results.json is another tool's file that no
rule reads: ``OtherResults`` only asks for a mapping and keeps every key.
"""
from __future__ import annotations

from typing import Any

from checker.load.models.common import FileModel


class OtherResults(FileModel):
    """results.json without accuracy_scores: another tool's results, kept as written (no rule reads them)."""


def carries_scores(data: Any) -> bool:
    """results.json holds accuracy results: ``accuracy_scores`` is a list or a mapping."""
    return isinstance(data, dict) and isinstance(data.get("accuracy_scores"), (list, dict))


def legacy_results_model(data: Any) -> type:
    """``AccuracyResults`` for a results.json carrying accuracy_scores, else ``OtherResults``."""
    if carries_scores(data):
        from checker.load.models.accuracy import AccuracyResults

        return AccuracyResults
    return OtherResults
