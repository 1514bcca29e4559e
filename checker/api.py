"""The library API: ``checker.check(path, ...)`` runs the checks a plain ``endpoints-checker check`` runs and
returns the JSON report as a pydantic model (``checker.core.report_model.ReportModel``); docs/api.md.

Nothing is written and nothing is printed; a problem with the arguments (a policy directory that does not
exist, an unreadable waivers file, an unknown --fail-on level) raises ``ValueError`` with the CLI's sentence.
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from checker.core.gate import FAIL_ON_VALUES as FAIL_ON, FailOnError, parse_fail_on  # noqa: F401 - FAIL_ON: public
from checker.core.report_model import ReportModel


def check(*paths: "str | os.PathLike[str]", fail_on: str = "flag", select: Iterable[str] = (),
          ignore: Iterable[str] = (), policy_dir: Optional[str] = None, seed_sets: Optional[str] = None,
          approved_drafters: Optional[str] = None, waivers: Optional[str] = None, baseline: Optional[str] = None,
          today: Any = None, jobs: int = 1, week0: Optional[str] = None,
          official_python: Optional[str] = None) -> ReportModel:
    """Check submission packages, cohorts or run folders at ``paths``; the report as a ``ReportModel``.

    The keywords are the CLI's options of the same name (``--fail-on``, ``--select``, ``--policy``,
    ``--seed-sets``, ``--approved-drafters``, ``--waivers``, ``--baseline``, ``--today``, ``--jobs``,
    ``--week0``, ``--official-python``). ``fail_on`` takes one value, several comma-separated, or a list."""
    from checker.engine.config import RunConfig
    from checker.engine.pipeline import check as run_pipeline

    if not paths:
        raise ValueError("give at least one path to check")
    try:
        fail_on = parse_fail_on(fail_on)
    except FailOnError as exc:
        raise ValueError(f"fail_on must be one of {', '.join(FAIL_ON)} (comma-separated for several): {exc}") from None
    if policy_dir is not None and not os.path.isdir(policy_dir):
        raise ValueError(f"policy directory not found: {policy_dir}")
    overrides = {k: os.fspath(v) for k, v in (("seed_sets", seed_sets), ("approved_drafters", approved_drafters))
                 if v}
    for name, path in overrides.items():
        if not os.path.isfile(path):
            raise ValueError(f"{name.replace('_', '-')} file not found: {path}")
    config = RunConfig.of(select=tuple(select), ignore=tuple(ignore), fail_on=fail_on, policy_dir=policy_dir,
                          policy_overrides=overrides, waivers=waivers, baseline=baseline, today=today,
                          jobs=max(1, int(jobs)), keep_packages=False, week0=week0, official_python=official_python)
    # WaiverError, BaselineError, OfficialUnavailable (week0="official" without it): ValueErrors
    report = run_pipeline([os.fspath(p) for p in paths], config)
    return ReportModel.model_validate(report.to_dict())
