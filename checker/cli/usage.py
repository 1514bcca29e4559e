"""The command line's usage error (exit 2, shown with the command's usage text) and the shell completion
of rule ids and families; the checks of the values themselves are checker/core/option_values.py, which the
language and MCP servers share."""
from __future__ import annotations

import click


class InputError(click.UsageError):
    """Usage or input problem: click shows it with the command's usage text, exit code 2."""

    exit_code = 2


def complete_rules(ctx, param, incomplete: str):
    """Shell completion for rule ids and families, after the last comma (click's completion protocol)."""
    from click.shell_completion import CompletionItem

    from checker.engine.catalogue import all_rules

    head, _, last = incomplete.rpartition(",")
    prefix = head + "," if head else ""
    rules = all_rules()
    names = sorted({r.id for r in rules} | {r.family for r in rules})
    return [CompletionItem(prefix + n) for n in names if n.startswith(last)]


class CohortId(click.ParamType):
    """--cohort: a cohort id YYYY-MM-C0 or YYYY-MM-C1 (checker.domain.cohort_ids); anything else is a usage
    error saying what is wrong, never a run that flags every point."""

    name = "cohort id"

    def convert(self, value, param, ctx):
        from checker.domain.cohort_ids import CohortError, parse

        try:
            return str(parse(value))
        except CohortError as exc:
            self.fail(str(exc), param, ctx)
