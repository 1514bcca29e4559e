"""Which typed model each file kind validates into: (module, class), imported on first use; for a kind of
several shapes (system_power.json) the name is a function of the data returning the shape's model."""
from __future__ import annotations

#: typed model per file kind: (module, class or model chooser)
FILE_MODELS = {
    "accuracy": ("checker.load.models.accuracy", "AccuracyResults"),
    "point_yaml": ("checker.load.models.point", "PointYaml"),
    "result_summary": ("checker.load.models.summary", "ResultSummary"),
    "system_desc": ("checker.load.models.system_desc", "SystemDesc"),
    "power": ("checker.load.models.power", "power_model"),
}
