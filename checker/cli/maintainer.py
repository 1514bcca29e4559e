"""Maintainer commands, kept out of the user's CLI: ``python -m checker.cli.maintainer docs|schemas``.

Both write only inside this source checkout (docs/rules/ and schemas/), never in the current
directory, and refuse cleanly (exit 2, no traceback) when run from an installed copy.
"""
from __future__ import annotations

import os
import sys

import click

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class MaintainerError(click.UsageError):
    exit_code = 2


def _checkout_file(path: str, what: str) -> str:
    if not os.path.isfile(os.path.join(REPO, "pyproject.toml")) or not os.path.isfile(path):
        raise MaintainerError(f"{what} not found at {path}: maintainer commands run in a source checkout")
    return path


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main() -> None:
    """endpoints-checker maintainer commands (regenerate what is generated from the code)."""


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if a rule page is stale; write nothing.")
def docs(check_only: bool) -> None:
    """Regenerate the rule pages docs/rules/<family>.md (and their index), and rules/index.json."""
    from checker.cli.rule_docs import RULE_PAGES_DIR, update_rule_index, update_rule_pages

    _checkout_file(os.path.join(REPO, "pyproject.toml"), "pyproject.toml")
    changed = update_rule_pages(REPO, write=not check_only) + update_rule_index(REPO, write=not check_only)
    where = os.path.relpath(os.path.join(REPO, RULE_PAGES_DIR))
    if check_only and changed:
        click.echo(f"{where}: stale: {', '.join(os.path.basename(p) for p in changed)}; run `make docs`", err=True)
        sys.exit(1)
    if changed:
        click.echo(f"{where}: updated {', '.join(os.path.basename(p) for p in changed)}", err=True)
    else:
        click.echo(f"{where}: rule pages are up to date", err=True)


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if a schema is stale; write nothing.")
def schemas(check_only: bool) -> None:
    """Regenerate schemas/ (point.yaml, system_desc.json, result_summary.json, the report, waivers, the policy
    files) from the pydantic models."""
    from checker.cli import schemagen

    _checkout_file(os.path.join(REPO, "pyproject.toml"), "pyproject.toml")
    sys.exit(schemagen.main(check=check_only))


if __name__ == "__main__":
    main()
