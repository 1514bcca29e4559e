"""The JSON report (schemas/report.schema.json): stable key order, sorted findings."""
from __future__ import annotations

import json


def render(report, **_options) -> str:
    return json.dumps(report.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"
