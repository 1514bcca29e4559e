"""The library API: ``checker.check(path, ...)`` runs the checks a plain ``endpoints-checker check`` runs and
returns the JSON report as a pydantic model (``checker.core.report_model.ReportModel``); docs/api.md.

The keywords are ``check``'s settings by their parameter names, converted and validated by the command
line's own option types, and the configuration file above the paths is read as ``check`` reads it (a
keyword given overrides it; ``config=FILE``, ``isolated=True`` as --config, --isolated). Nothing is written
and nothing is printed; a value the CLI would refuse with exit code 2 raises ``ValueError`` with its sentence.
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from checker.core.report_model import ReportModel

#: the origin of a value given as a keyword (``endpoints-checker config`` says "command line")
ARGUMENT = "argument"


def check(*paths: "str | os.PathLike[str]", fail_on: Optional[str] = None, select: "Iterable[str] | str | None" = None,
          ignore: "Iterable[str] | str | None" = None, exclude: "Iterable[str] | str | None" = None,
          policy_dir: Optional[str] = None, seed_sets: Optional[str] = None, approved_drafters: Optional[str] = None,
          waivers: Optional[str] = None, baseline: Optional[str] = None, today: Any = None,
          cohort: Optional[str] = None, jobs: Optional[int] = None, config: Optional[str] = None,
          isolated: bool = False, **settings: Any) -> ReportModel:
    """Check submission packages, cohorts or run folders at ``paths``; the report as a ``ReportModel``.

    The keywords are the CLI's options of the same name (``--fail-on``, ``--select``, ``--ignore``,
    ``--exclude``, ``--policy``, ``--seed-sets``, ``--approved-drafters``, ``--waivers``, ``--baseline``,
    ``--today``, ``--cohort``, ``--jobs``, ``--config``, ``--isolated``); any other setting of ``check`` by its
    parameter name (``per_path_ignores``, ``max_file_size``, ...). A string given for a repeatable option is
    one value: ``select="seeds"`` is the family, not five letters. ``jobs`` defaults to 1 (in-process)."""
    from checker.cli.settings import check_settings
    from checker.engine.check_settings import run_config
    from checker.engine.pipeline import check as run_pipeline

    if not paths:
        raise ValueError("give at least one path to check")
    paths = tuple(os.fspath(p) for p in paths)
    named = {"fail_on": fail_on, "select": select, "ignore": ignore, "exclude": exclude, "policy_dir": policy_dir,
             "seed_sets": seed_sets, "approved_drafters": approved_drafters, "waivers": waivers,
             "baseline": baseline, "today": today, "cohort": cohort, "jobs": jobs}
    cs = check_settings()
    unknown = sorted(set(settings) - set(cs.params))
    if unknown:
        from checker.core.option_values import did_you_mean

        raise TypeError(f"check() got an unexpected keyword argument {unknown[0]!r}."
                        f"{did_you_mean(unknown[0], set(cs.params) | set(named))}")
    given = {name: cs.convert(name, value, "check()", label=name) for name, value in {**named, **settings}.items()
             if value is not None}
    resolved = cs.resolve(paths, given=given, given_origin=ARGUMENT,
                          config=os.fspath(config) if config is not None else None, isolated=isolated)
    values = resolved.values
    _check_inputs(values)
    run = run_config(values, jobs=values.get("jobs") or 1, keep_packages=False, progress=False)
    report = run_pipeline(list(paths), run)  # WaiverError, BaselineError: ValueErrors
    return ReportModel.model_validate(report.to_dict())


def _check_inputs(values: dict) -> None:
    """What the command line refuses before a run: a missing policy directory or replacement file, a seed set
    the registry does not hold."""
    policy_dir = values.get("policy_dir")
    if policy_dir is not None and not os.path.isdir(policy_dir):
        raise ValueError(f"policy directory not found: {policy_dir}")
    overrides = {k: values[k] for k in ("seed_sets", "approved_drafters") if values.get(k)}
    for name, path in overrides.items():
        if not os.path.isfile(path):
            raise ValueError(f"{name.replace('_', '-')} file not found: {path}")
    if values.get("seed_set"):
        from checker.core.option_values import check_seed_set
        from checker.engine.policy import load_policy

        check_seed_set(values["seed_set"], load_policy(policy_dir, overrides))  # a UsageProblem: a ValueError
