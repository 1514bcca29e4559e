"""``--write-baseline FILE``: the baseline file of this run's problems (``checker.engine.baseline_file``)."""
from __future__ import annotations


def render(report, **_options) -> str:
    from checker.engine.baseline_file import document

    return document(report.findings)
