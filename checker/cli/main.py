"""Command line: ``check``, ``rules``, ``explain``, ``regions``, ``draft``, ``policy``, ``lsp``, ``schema``, ``mcp``. Exit 0 pass, 1 failures, 2 usage/input.

click parses every command: help, usage errors, shell completion. A command is a click command added to
the group ``main`` (``main.add_command(...)`` for one defined in its own module, as ``check`` is in
check_command.py). Maintainer commands (the rule pages under docs/rules/, the JSON Schemas) live in
``python -m checker.cli.maintainer``.
"""
from __future__ import annotations

import sys

import click

from checker.core.version import __version__
from checker.cli import check_command, policy_command
from checker.cli.check_command import _is_dir_output, _split  # noqa: F401  (_is_dir_output: emit's callers)
from checker.cli.settings import config_command
from checker.cli.usage import InputError, complete_rules


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="endpoints-checker")
def main() -> None:
    """Check MLPerf Endpoints submission packages and inference-endpoint run folders."""


main.add_command(check_command.command)
main.add_command(config_command())
main.add_command(policy_command.command)


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text")
@click.option("--family", "families", multiple=True, metavar="NAME", help="Only this family (repeatable).")
@click.option("--severity", "severities", multiple=True, metavar="LEVEL",
              help="Only this severity: reject, reject-points, flag, warn (repeatable).")
def rules_cmd(fmt: str, families: tuple, severities: tuple) -> None:
    """List every rule: id, family, severity, clause, title."""
    from checker.cli.rule_docs import rules_table
    from checker.core.findings import SEVERITY_ORDER
    from checker.engine.catalogue import all_rules
    from checker.core.option_values import UsageProblem, check_choice

    rs = sorted(all_rules(), key=lambda r: (r.family, r.id))
    try:
        for f in _split(families):
            check_choice("--family", f, {r.family for r in rs}, "rule family")
        for v in _split(severities):
            check_choice("--severity", v, SEVERITY_ORDER, "severity")
    except UsageProblem as exc:
        raise InputError(str(exc)) from None
    if families:
        rs = [r for r in rs if r.family in _split(families)]
    if severities:
        rs = [r for r in rs if r.severity.value in _split(severities)]
    if fmt == "json":
        import json

        click.echo(json.dumps([r.catalogue_entry() for r in rs], indent=2))
    elif fmt == "markdown":
        click.echo(rules_table(rs))
    else:
        w = max(len(r.id) for r in rs)
        for r in rs:
            click.echo(f"{r.id:<{w}}  {r.family:<18} {r.severity.value:<13} {r.clause:<14} {r.title}")


@main.command()
@click.argument("name", metavar="RULE_OR_FAMILY", shell_complete=complete_rules)
def explain(name: str) -> None:
    """Explain a rule (what, why, how to fix, where it lives, examples) or list a family's rules."""
    from checker.render.explain import explain_family, explain_rule
    from checker.engine.catalogue import all_rules
    from checker.core.option_values import did_you_mean

    rules = all_rules()
    rs = {r.id: r for r in rules}
    families = {r.family for r in rules}
    if name in rs:
        click.echo(explain_rule(rs[name]), nl=False)
    elif name in families:
        click.echo(explain_family(name, rules), nl=False)
    else:
        raise InputError(f"no rule or family {name!r}.{did_you_mean(name, set(rs) | families)}")


@main.command("lsp")
@click.option("--stdio", is_flag=True, help="Serve over standard input and output (the only transport; accepted for clients that pass it).")
def lsp_cmd(stdio: bool) -> None:
    """Run the language server (diagnostics while you type; needs the [lsp] extra). docs/editors.md."""
    from checker.cli.lsp_command import run

    sys.exit(run())


@main.command("schema")
@click.argument("kind", metavar="KIND")
def schema_cmd(kind: str) -> None:
    """Print the JSON Schema of one file kind (point, system_desc, result_summary, system_power, waivers, report, policy/NAME)."""
    from checker.cli.schema_command import UnknownKind, schema_text

    try:
        click.echo(schema_text(kind), nl=False)
    except UnknownKind as exc:
        raise InputError(str(exc)) from None


@main.command("regions")
@click.option("-M", "--max-concurrency", "c_max", type=int, required=True, help="C_max (> 32).")
@click.option("-m", "--min-concurrency", "c_min", type=int, default=32, show_default=True, help="C_min (1..32).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def regions_cmd(c_max: int, c_min: int, fmt: str) -> None:
    """Print the R§5.5 region table for C_max and C_min (exactly as the reference computes it)."""
    from checker.domain.regions import RegionInputError, as_dict, as_text, compute_regions

    try:
        regions = compute_regions(c_max, c_min)
    except RegionInputError as exc:
        raise InputError(f"{exc} (R§5.5 needs 1 <= C_min <= 32 < C_max)") from None
    except (OverflowError, ValueError) as exc:
        shown = str(c_max) if len(str(c_max)) <= 24 else f"{str(c_max)[:20]}... ({len(str(c_max))} digits)"
        raise InputError(f"C_max {shown} is too large to compute regions for: {exc}") from None
    if fmt == "json":
        import json

        click.echo(json.dumps(as_dict(regions), indent=2))
    else:
        click.echo(as_text(regions), nl=False)


@main.command("draft")
@click.argument("run_folders", nargs=-1, required=True, metavar="RUN_FOLDER...",
                type=click.Path(exists=True, file_okay=False))
@click.option("-o", "--output", "out_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Write DIR/<run folder>/point.yaml instead of into each run folder.")
@click.option("--force", is_flag=True, help="Replace an existing point.yaml (never done otherwise).")
@click.option("--max-concurrency", type=click.IntRange(1), metavar="N",
              help="C_max, for the region, when the folder has no system_desc.json.")
@click.option("--dataset-size", type=click.IntRange(1), metavar="N",
              help="The performance dataset's size (one pass), when the model does not tell it.")
@click.option("--template", type=click.Path(exists=True, dir_okay=False), metavar="FILE",
              help="A filled point.yaml: its answers to the disclosures only a person makes (links, precision, "
                   "model equivalence, cohort) replace those placeholders.")
@click.option("--no-events", is_flag=True, help="Do not read events.jsonl (the warmup numbers stay to fill in).")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False),
              help="Use this policy directory instead of the bundled rules/policy/v1.0.")
def draft_cmd(run_folders, out_dir, force, max_concurrency, dataset_size, template, no_events, policy_dir) -> None:
    """Draft a point.yaml for each run folder from what the folder proves; mark what only you can disclose."""
    from checker.cli.draft_command import DraftUsageError, run

    try:
        code = run(run_folders, out_dir, force, max_concurrency, dataset_size, template, no_events, policy_dir)
    except DraftUsageError as exc:
        raise InputError(str(exc)) from None
    sys.exit(code)


@main.command("mcp")
def mcp_cmd() -> None:
    """Serve the checks to a coding agent: a Model Context Protocol server on stdio (docs/agents.md)."""
    from checker.cli.mcp_command import McpUnavailable, run

    try:
        sys.exit(run())
    except McpUnavailable as exc:
        raise InputError(str(exc)) from None
