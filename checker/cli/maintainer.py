"""Maintainer commands, kept out of the user's CLI: ``python -m checker.cli.maintainer docs|schemas``.

Both write only inside this source checkout (its README.md and schemas/), never in the current
directory, and refuse cleanly (exit 2, no traceback) when run from an installed copy.
"""
from __future__ import annotations

import os
import sys

import click

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "README.md")


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
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if the rule list is stale; write nothing.")
def docs(check_only: bool) -> None:
    """Regenerate the rule list in the checkout's README.md from the registry."""
    from checker.cli.rule_docs import BEGIN, END, update_readme

    path = _checkout_file(README, "README.md")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    if BEGIN not in text or END not in text:
        raise MaintainerError(f"{path} has no generated rule-list block ({BEGIN} … {END})")
    changed = update_readme(path, write=not check_only)
    rel = os.path.relpath(path)
    if check_only and changed:
        click.echo(f"{rel}: rule list is stale; run `make docs`", err=True)
        sys.exit(1)
    click.echo(f"{rel}: " + ("rule list updated" if changed else "rule list is up to date"), err=True)


@main.command()
@click.option("--check", "check_only", is_flag=True, help="Exit 1 if a schema is stale; write nothing.")
def schemas(check_only: bool) -> None:
    """Regenerate schemas/ (policy files, result_summary.json, waivers) from the pydantic models."""
    from checker.cli import schemagen

    _checkout_file(os.path.join(REPO, "pyproject.toml"), "pyproject.toml")
    sys.exit(schemagen.main(check=check_only))


if __name__ == "__main__":
    main()
