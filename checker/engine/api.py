"""One call that does a whole check: discover, load policy, run rules, build the Report.

The work is done by ``checker.engine.pipeline.check`` (single package or cohort, waivers, baseline).
"""
from __future__ import annotations

from typing import Any

from checker.engine.report import Report


def run_check(
    paths: list[str],
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    fail_on: str = "flag",
    policy_dir: str | None = None,
    max_bytes: int = 8 * 1024 * 1024,
    policy_overrides: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
    **cohort: Any,
) -> Report:
    """``cohort`` keywords: jobs, waivers, baseline, fail_on_new, today, progress, keep_packages, timeout,
    prerender_json."""
    from checker.engine.pipeline import check

    return check(paths, select=select, ignore=ignore, fail_on=fail_on, policy_dir=policy_dir, max_bytes=max_bytes,
                 policy_overrides=policy_overrides, options=options, **cohort)
