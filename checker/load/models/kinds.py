"""Which typed model each file kind validates into: (module, class), imported on first use."""
from __future__ import annotations

#: typed model per file kind: (module, class)
FILE_MODELS = {
    "accuracy": ("checker.load.models.accuracy", "AccuracyResults"),
    "point_yaml": ("checker.load.models.point", "PointYaml"),
    "result_summary": ("checker.load.models.summary", "ResultSummary"),
    "system_desc": ("checker.load.models.system_desc", "SystemDesc"),
}
