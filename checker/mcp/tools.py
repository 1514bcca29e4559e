"""The tool functions: plain synchronous calls into the library, SDK-free (server.py registers them).

Each takes the client's roots (checker.mcp.roots) and returns a model of checker.mcp.models. A request
that cannot be answered (a path outside the roots or missing, an unknown rule id, family or selector) is
``ToolUsage``, which the server reports as a tool error; a package that fails its checks is a normal
result. Nothing here writes.
"""
from __future__ import annotations

import os
from typing import Any

from checker.core.gate import FAIL_ON_VALUES as FAIL_ON  # noqa: F401 - the --fail-on values, defined once
from checker.mcp import models
from checker.mcp.adapter import run_check
from checker.mcp.roots import PathRefused, guard

#: the levels listed by default: the problems (a FAIL at any severity)
PROBLEM_LEVELS = ("error", "flag", "warning")
ALL_LEVELS = ("error", "flag", "warning", "skipped", "passed")


class ToolUsage(ValueError):
    """What was asked cannot be answered as asked: the server's tool error, with this message."""


def _level(status: str, severity: str) -> str:
    from checker.render.levels import level_of

    return level_of(status, severity)


def _selectors(option: str, tokens: list[str] | None) -> list[str]:
    tokens = [t.strip() for v in tokens or () for t in str(v).split(",") if t.strip()]
    if tokens:
        from checker.core.option_values import UsageProblem, check_selectors
        from checker.engine.catalogue import all_rules

        try:
            check_selectors(option, tokens, all_rules())
        except UsageProblem as exc:
            raise ToolUsage(str(exc)) from None
    return tokens


def _seed_set(value: str | None) -> None:
    if value:
        from checker.core.option_values import UsageProblem, check_seed_set
        from checker.engine.policy import load_policy

        try:
            check_seed_set(value, load_policy(None, {}))
        except UsageProblem as exc:
            raise ToolUsage(str(exc).replace("--seed-set", "seed_set")) from None


def _finding(d: dict[str, Any]) -> models.Finding:
    evidence = d.get("evidence") or {}
    return models.Finding(rule_id=d["rule_id"], status=d["status"], severity=d["severity"],
                          level=_level(d["status"], d["severity"]), family=d.get("family", ""),
                          subject=models.Subject(**d["subject"]), message=d["message"],
                          location=models.Location(**d["location"]) if d.get("location") else None,
                          observed=evidence.get("observed"), expected=evidence.get("expected"), fix=d.get("fix"),
                          fixable=bool(d.get("edits")) and d["status"] == "FAIL", reason=d.get("reason"),
                          week0=d.get("week0"))


def result_of(doc: dict[str, Any], levels: list[str] | None, max_findings: int | None = None) -> models.CheckResult:
    """A JSON report document as the tools' CheckResult, keeping the findings at ``levels``."""
    wanted = list(dict.fromkeys(levels)) if levels else list(PROBLEM_LEVELS)
    bad = [lv for lv in wanted if lv not in ALL_LEVELS]
    if bad:
        raise ToolUsage(f"levels {bad!r}: each must be one of {', '.join(ALL_LEVELS)}")
    summary = doc["summary"]
    by_level = dict.fromkeys(ALL_LEVELS, 0)
    kept: list[models.Finding] = []
    fixable = 0
    for d in doc["findings"]:
        lv = _level(d["status"], d["severity"])
        by_level[lv] += 1
        if d["status"] == "FAIL" and d.get("edits"):
            fixable += 1
        if lv in wanted:
            kept.append(d)
    limit = len(kept) if max_findings is None else max(0, max_findings)
    return models.CheckResult(
        paths=doc["paths"], verdict=summary["verdict"], fail_on=doc["fail_on"], exit_code=summary["exit_code"],
        rules_verdict=summary.get("rules_verdict") or _rules_verdict(summary["fail_by_severity"]),
        week0_reject=summary["week0_reject"], week0=summary.get("week0"),
        policy_edition=doc["policy"]["edition"], policy_version=doc["policy"]["version"],
        counts=models.Counts(total=summary["total"], by_status=models.StatusCounts(**summary["by_status"]),
                             fail_by_severity=summary["fail_by_severity"], by_level=by_level, fixable=fixable),
        levels=wanted, findings=[_finding(d) for d in kept[:limit]], findings_not_listed=len(kept) - min(limit, len(kept)))


def _rules_verdict(fails: dict[str, int]) -> str:
    """reject on a reject FAIL, reject-points on reject-points FAILs only, else accept (summary.rules_verdict's
    definition, for a report that does not carry it)."""
    if fails.get("reject"):
        return "reject"
    return "reject-points" if fails.get("reject-points") else "accept"


def _fail_on(value: str | None) -> str:
    from checker.core.gate import DEFAULT_FAIL_ON, FailOnError, parse_fail_on

    try:
        return parse_fail_on(value or DEFAULT_FAIL_ON)
    except FailOnError as exc:
        raise ToolUsage(f"fail_on: {exc} (several comma-separated trip when any does)") from None


def check_submission(roots: list[str], path: str, select: list[str] | None = None, ignore: list[str] | None = None,
                     fail_on: str | None = None, levels: list[str] | None = None,
                     max_findings: int | None = None) -> models.CheckResult:
    real = guard(path, roots)
    doc = run_check([real], select=_selectors("select", select), ignore=_selectors("ignore", ignore),
                    fail_on=_fail_on(fail_on))
    return result_of(doc, levels, max_findings)


def _run_options(max_concurrency: int | None, seed_set: str | None, dataset_size: int | None) -> dict[str, Any]:
    """The run-folder options of a check (the events audit on), after the seed set is known to the registry."""
    _seed_set(seed_set)
    options: dict[str, Any] = {"events": True}
    for key, value in (("max_concurrency", max_concurrency), ("seed_set", seed_set), ("dataset_size", dataset_size)):
        if value is not None:
            options[key] = value
    return options


def check_run_folder(roots: list[str], path: str, max_concurrency: int | None = None, seed_set: str | None = None,
                     dataset_size: int | None = None, levels: list[str] | None = None,
                     fail_on: str | None = None) -> models.CheckResult:
    from checker.load.discovery import is_run_folder

    real = guard(path, roots, "run folder")
    if not os.path.isdir(real) or not is_run_folder(real):
        raise ToolUsage(f"{path!r} is not a run folder (no performance/result_summary.json, accuracy/ or "
                        "config.yaml with events.jsonl)")
    return result_of(run_check([real], fail_on=_fail_on(fail_on),
                               options=_run_options(max_concurrency, seed_set, dataset_size)), levels)


def preflight_config(roots: list[str], path: str, max_concurrency: int | None = None, seed_set: str | None = None,
                     dataset_size: int | None = None, levels: list[str] | None = None,
                     fail_on: str | None = None) -> models.CheckResult:
    from checker.load.planned import configs_in, read_config

    real = guard(path, roots, "client config")
    if os.path.isdir(real):
        if not configs_in(real, os.path.basename(real), 8 << 20):
            raise ToolUsage(f"{path!r} holds no client config (a .yaml with model_params and settings, datasets "
                            "or endpoint_config)")
    else:
        cfg, why = read_config(real, os.path.basename(real), 8 << 20)
        if cfg is None:
            raise ToolUsage(f"{path!r}: {why}")
    return result_of(run_check([real], fail_on=_fail_on(fail_on),
                               options=_run_options(max_concurrency, seed_set, dataset_size)), levels)


def _summary(rule) -> models.RuleSummary:
    return models.RuleSummary(**rule.catalogue_entry())


def list_rules(family: str | None = None) -> models.RuleList:
    from checker.engine.catalogue import all_rules

    rules = sorted(all_rules(), key=lambda r: (r.family, r.id))
    families = sorted({r.family for r in rules})
    if family:
        if family not in families:
            from checker.core.option_values import did_you_mean

            raise ToolUsage(f"no rule family {family!r}.{did_you_mean(family, families)}")
        rules = [r for r in rules if r.family == family]
    return models.RuleList(rules=[_summary(r) for r in rules], families=families)


def explain_rule(rule_id: str) -> models.RuleExplanation:
    from checker.render import explain
    from checker.engine.catalogue import all_rules

    by_id = {r.id: r for r in all_rules()}
    rule = by_id.get(rule_id)
    if rule is None:
        from checker.core.option_values import did_you_mean

        raise ToolUsage(f"no rule {rule_id!r}.{did_you_mean(rule_id, by_id)}")
    return models.RuleExplanation(rule=_summary(rule), policy_files=explain.policy_files(rule),
                                  text=explain.explain_rule(rule))


def compute_regions(max_concurrency: int, c_min_override: int | None = None) -> models.RegionsResult:
    from checker.domain import regions as reg

    c_min = 32 if c_min_override is None else c_min_override
    try:
        r = reg.compute_regions(max_concurrency, c_min)
    except reg.RegionInputError as exc:
        raise ToolUsage(f"{exc} (R§5.5 needs 1 <= C_min <= 32 < C_max)") from None
    except (OverflowError, ValueError) as exc:
        raise ToolUsage(f"C_max is too large to compute regions for: {exc}") from None
    d = reg.as_dict(r)
    return models.RegionsResult(c_max=d["c_max"], c_min=d["c_min"], regions=[models.RegionRow(**row) for row in d["regions"]],
                                margin_end_exact=d["margin_end_exact"], float_margin=d["float_margin"],
                                empty_regions=d["empty_regions"], text=reg.as_text(r))


def draft_point(roots: list[str], run_folder: str, max_concurrency: int | None = None,
                dataset_size: int | None = None) -> models.DraftResult:
    """The point.yaml ``draft`` would write for one run folder; written nowhere."""
    from checker.draft.facts import Context, concurrency_of
    from checker.draft.run import draft_text, load
    from checker.engine.policy import load_policy

    real = guard(run_folder, roots, "run folder")
    ((_p, rf, audit, why),) = load([real], 8 << 20)
    if rf is None:
        raise ToolUsage(f"{run_folder!r}: {why}")
    ctx = Context(policy=load_policy(None, {}), c_max=max_concurrency, c_min=concurrency_of(rf),
                  dataset_size=dataset_size, template=None)
    try:
        text, (values, fills) = draft_text(rf, audit, ctx)
    except ValueError as exc:
        raise ToolUsage(f"{run_folder!r}: cannot draft: {exc}") from None
    return models.DraftResult(run_folder=real, point_yaml=text, values=values, fills=fills)


__all__ = ["PathRefused", "ToolUsage", "check_submission", "check_run_folder", "preflight_config", "list_rules",
           "explain_rule", "compute_regions", "draft_point"]
