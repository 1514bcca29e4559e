"""One call that does a whole check: discover, load policy, run rules, build the Report."""
from __future__ import annotations

from typing import Any

from checker.discovery import Options, discover
from checker.policy import load_policy
from checker.registry import all_rules
from checker.report import Report
from checker.runner import Context, run_rules


def run_check(
    paths: list[str],
    select: list[str] | None = None,
    ignore: list[str] | None = None,
    fail_on: str = "flag",
    policy_dir: str | None = None,
    max_bytes: int = 8 * 1024 * 1024,
    policy_overrides: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
) -> Report:
    rules = all_rules()  # registers policy models too
    policy = load_policy(policy_dir, policy_overrides)
    pkg = discover(paths, Options(max_bytes=max_bytes))
    ctx = Context(package=pkg, policy=policy, options=dict(options or {}))
    if pkg.run_folders:
        from checker.runfolder import prepare_run_folders

        prepare_run_folders(pkg, ctx.options, max_bytes)
    findings = run_rules(rules, pkg, ctx, select=select, ignore=ignore)
    nothing = not pkg.submissions and not pkg.run_folders
    return Report(
        findings=findings,
        rules=rules,
        paths=[p for p in pkg.paths],
        policy_edition=policy.edition,
        policy_version=policy.version,
        fail_on=fail_on,
        package=pkg,
        input_error=bool(pkg.missing_paths) or nothing,
        policy_overrides=dict(policy.overrides),
        context=ctx,
    )
