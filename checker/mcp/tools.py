"""The tool functions: plain synchronous calls into the library, SDK-free (server.py registers them).

Each takes the client's roots (checker.mcp.roots) and returns a model of checker.mcp.models. A request
that cannot be answered (a path outside the roots or missing, an unknown rule id, family or selector) is
``ToolUsage``, which the server reports as a tool error; a package that fails its checks is a normal
result. Nothing here writes.
"""
from __future__ import annotations

import os
from typing import Any

from checker.mcp import models
from checker.mcp.adapter import ConfigRefused, run_check
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


def _finding(f, line_severity=None) -> models.Finding:
    """One finding as the tools list it: the JSON report's facts, evidence flattened, its fix's edits when it has
    a certain one (``fixable`` is true exactly then); a root cause at the level of its problem line."""
    d = f.as_dict()
    evidence = d.get("evidence") or {}
    edits = d.get("edits") if d["status"] == "FAIL" else None
    return models.Finding(rule_id=d["rule_id"], status=d["status"], severity=d["severity"],
                          level=_level(d["status"], line_severity or d["severity"]), family=d.get("family", ""),
                          subject=models.Subject(**d["subject"]), message=d["message"],
                          location=models.Location(**d["location"]) if d.get("location") else None,
                          observed=evidence.get("observed"), expected=evidence.get("expected"), fix=d.get("fix"),
                          fixable=bool(edits), edits=edits or None, reason=d.get("reason"), week0=d.get("week0"),
                          also=d.get("also"))


def _unit(v) -> models.UnitVerdicts:
    return models.UnitVerdicts(label=v.label, kind=v.kind, **v.verdicts_dict(), by_level=v.counts.levels())


def result_of(report, levels: list[str] | None, max_findings: int | None = None) -> models.CheckResult:
    """A Report as the tools' CheckResult: the engine's verdicts and counts, and the findings at ``levels``,
    worst first, so ``max_findings`` keeps the worst; one per root cause (``Report.tally.problems``)."""
    from checker.core.findings import Severity, Status

    wanted = list(dict.fromkeys(levels)) if levels else list(PROBLEM_LEVELS)
    bad = [lv for lv in wanted if lv not in ALL_LEVELS]
    if bad:
        raise ToolUsage(f"levels {bad!r}: each must be one of {', '.join(ALL_LEVELS)}")
    tally = report.tally
    c = tally.counts
    # one entry per root cause: a FAIL that follows from another is named in its cause's ``also``, and the cause
    # is at the level of its problem line (the highest of them)
    line = {id(f): p.severity.value for p in tally.problems if p.consequences for f in p.findings}

    def order(f) -> tuple:
        if f.status is Status.FAIL:
            return (0, -Severity(line.get(id(f), f.severity.value)).rank)
        return (1 if f.status is Status.SKIP else 2, 0)

    kept = sorted((f for f in report.findings if (f.caused_by is None or f.status is not Status.FAIL)
                   and _level(f.status.value, line.get(id(f), f.severity.value)) in wanted), key=order)
    limit = len(kept) if max_findings is None else max(0, max_findings)
    return models.CheckResult(
        paths=list(report.paths), verdict=tally.gate, fail_on=report.fail_on, exit_code=report.exit_code(),
        rules_verdict=tally.rules, week0_reject=tally.report.week0_reject, week0=tally.week0,
        policy_edition=report.policy_edition, policy_version=report.policy_version,
        counts=models.Counts(total=c.total, by_status=models.StatusCounts(**c.by_status()),
                             fail_by_severity=c.fail_by_severity(), by_level=c.levels(), fixable=tally.fixable),
        submissions=[_unit(v) for _label, v in sorted(tally.units.items())],
        levels=wanted, findings=[_finding(f, line.get(id(f))) for f in kept[:limit]],
        findings_not_listed=len(kept) - min(limit, len(kept)), consequences=tally.consequences)


def _fail_on(value: str | None) -> str | None:
    """A tool's fail_on as the gate's canonical text (None: the configuration file's, else flag)."""
    if value is None:
        return None
    from checker.core.gate import FAIL_ON_VALUES, FailOnError, parse_fail_on

    try:
        return parse_fail_on(value)
    except FailOnError:
        raise ToolUsage(f"fail_on {value!r} is not allowed: it must be one or more of {', '.join(FAIL_ON_VALUES)}, "
                        f"comma-separated (several trip when any does).") from None


def _check(real: str, roots: list[str], **given: Any) -> dict[str, Any]:
    """The report document of a check of ``real`` with the tool's arguments over the configuration file's."""
    try:
        return run_check([real], roots=roots, **given)
    except ConfigRefused as exc:
        raise ToolUsage(str(exc)) from None


def check_submission(roots: list[str], path: str, select: list[str] | None = None, ignore: list[str] | None = None,
                     fail_on: str | None = None, levels: list[str] | None = None,
                     max_findings: int | None = None) -> models.CheckResult:
    real = guard(path, roots)
    report = _check(real, roots, select=_selectors("select", select) or None,
                    ignore=_selectors("ignore", ignore) or None, fail_on=_fail_on(fail_on))
    return result_of(report, levels, max_findings)


def _run_options(max_concurrency: int | None, seed_set: str | None, dataset_size: int | None) -> dict[str, Any]:
    """The run-folder settings of a check given to a tool, after the seed set is known to the registry."""
    _seed_set(seed_set)
    return {"max_concurrency": max_concurrency, "seed_set": seed_set, "dataset_size": dataset_size}


def check_run_folder(roots: list[str], path: str, max_concurrency: int | None = None, seed_set: str | None = None,
                     dataset_size: int | None = None, levels: list[str] | None = None,
                     fail_on: str | None = None) -> models.CheckResult:
    from checker.load.discovery import is_run_folder

    real = guard(path, roots, "run folder")
    if not os.path.isdir(real) or not is_run_folder(real):
        raise ToolUsage(f"{path!r} is not a run folder (no performance/result_summary.json, accuracy/ or "
                        "config.yaml with events.jsonl)")
    return result_of(_check(real, roots, fail_on=_fail_on(fail_on),
                            **_run_options(max_concurrency, seed_set, dataset_size)), levels)


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
    return result_of(_check(real, roots, fail_on=_fail_on(fail_on),
                            **_run_options(max_concurrency, seed_set, dataset_size)), levels)


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
