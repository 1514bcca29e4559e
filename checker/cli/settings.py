"""The configuration file on the command line: ``check``'s settings (checker.engine.check_settings) made
from its own click options, and the ``config`` command that shows them (check's loading step is
``check_command.resolve_settings``).

``check_settings()`` is what the language server, the MCP server and the library API are handed, so the
file means the same to each of them as to ``check``.
"""
from __future__ import annotations

import functools
import json

import click


@functools.cache
def check_settings():
    """The settings of ``check`` (its click options; computed once)."""
    from checker.cli.check_command import command
    from checker.engine.check_settings import CheckSettings

    return CheckSettings(command)


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, int):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)


def settings_text(resolved) -> str:
    """The resolved settings as TOML lines, each with where its value came from."""
    from checker.engine.check_settings import key_of

    settings = check_settings()
    head = (f"# configuration file: {resolved.file}" if resolved.file
            else "# no configuration file (none found above the paths, or --isolated)")
    rows = []
    for name, param in settings.params.items():
        value, origin = resolved.values.get(name), resolved.origins.get(name, "default")
        key = key_of(param)
        rows.append((f"{key} = {_toml(value)}" if value is not None else f"# {key} is not set", origin))
    width = max(len(r) for r, _ in rows)
    return "\n".join([head] + [f"{r:<{width}}  # {o}" for r, o in rows]) + "\n"


def config_command() -> click.Command:
    """``endpoints-checker config [PATH...]``: check's options, printing the settings instead of checking."""
    from checker.cli.check_command import command as check, resolve_settings

    params = [p for p in check.params if p.name != "paths"]
    paths = click.Argument(["paths"], nargs=-1, required=False)

    def callback(**values):
        values["paths"] = values["paths"] or (".",)
        click.echo(settings_text(resolve_settings(click.get_current_context(), values)), nl=False)

    return click.Command(
        "config", params=[paths] + params, callback=callback,
        help="Print the settings a check of PATHS (default: .) would use, and where each comes from: its "
             "default, the configuration file (file:line) or the command line. Takes check's options.",
        short_help="Print the resolved settings and where each comes from.")
