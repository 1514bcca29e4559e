"""The settings of one check: the defaults of ``check``'s options, then the configuration file, then
what the caller gave (the command line, an editor's settings, an MCP call, the library API's keywords).

The keys of the file are derived from ``check``'s click options (every option but the paths and the
few in NOT_SETTINGS), named as the long option without its dashes (``--fail-on`` -> ``fail-on``), and
each value is converted and validated by the option's own click type. So an option added to ``check``
is a key at once, and a value the command line refuses is refused in the file too, with ``file:line``.
The option declarations are the command line's (checker.cli.check_command): the command that starts a
server, or the library API, hands them over (``CheckSettings(command)``).
"""
from __future__ import annotations

import datetime as _dt
import os
from typing import Any

import click
import msgspec

from checker.core.option_values import UsageProblem, did_you_mean, split
from checker.load import config_file as cfgfile

#: options that act once rather than set how a check is done (and the options that choose the file)
NOT_SETTINGS = frozenset({"paths", "config_file", "isolated", "fix", "diff"})
#: an option of this metavar (or a click.Path) takes a path: relative ones resolve against the file's folder
PATH_METAVARS = frozenset({"FILE", "DIR", "OUT"})
#: options whose values are rule selectors (ids, families, id prefixes), checked against the catalogue
SELECTORS = ("select", "ignore")
DEFAULT, COMMAND_LINE = "default", "command line"


class SettingsError(ValueError):
    """A setting cannot be used (an unknown key, a value its option refuses): a usage error, exit 2."""


class Resolved(msgspec.Struct):
    """Every setting's value (by ``check``'s parameter name) and where it came from."""

    values: dict
    origins: dict
    #: the configuration file read, or None
    file: str | None = None


def key_of(param: click.Parameter) -> str:
    """``--fail-on`` -> ``fail-on``: the long option, else the short one, without dashes."""
    longs = [o for o in param.opts if o.startswith("--")]
    return (longs or param.opts)[0].lstrip("-")


def is_path(param: click.Parameter) -> bool:
    return isinstance(param.type, click.Path) or (param.metavar or "").upper() in PATH_METAVARS


class CheckSettings:
    """The settings of ``command`` (check's click command): keys, defaults, the file's values, the merge."""

    def __init__(self, command: click.Command):
        self.command = command
        self.params = {p.name: p for p in command.params if isinstance(p, click.Option) and p.name not in NOT_SETTINGS}
        self.keys = {key_of(p): p for p in self.params.values()}
        self._ctx = click.Context(command, info_name=command.name)

    # -- defaults and sources ------------------------------------------------------------------------------
    def defaults(self) -> tuple[dict, dict]:
        """The value of every setting with no option given (environment variables included) and its origin."""
        ctx = self.command.make_context(self.command.name, ["."], resilient_parsing=True)
        return self.from_context(ctx, ctx.params)

    def from_context(self, ctx: click.Context, values: dict) -> tuple[dict, dict]:
        """A parsed command line's settings and the origin of each (default, command line, environment)."""
        out, origins = {}, {}
        for name, param in self.params.items():
            out[name] = values.get(name)
            source = ctx.get_parameter_source(name)
            if source is click.core.ParameterSource.COMMANDLINE:
                origins[name] = COMMAND_LINE
            elif source is click.core.ParameterSource.ENVIRONMENT:
                origins[name] = f"environment {param.envvar}"
            else:
                origins[name] = DEFAULT
        return out, origins

    # -- the file ------------------------------------------------------------------------------------------
    def find(self, paths, config: str | None = None, isolated: bool = False, stop: str | None = None):
        """The configuration file of a check of ``paths`` (None: none, or --isolated). Each local path's
        nearest file; paths with two different files are a usage error (one check has one setting each)."""
        if config and isolated:
            raise SettingsError("--config and --isolated contradict each other: give one")
        try:
            if config:
                return cfgfile.read(os.fspath(config))
            if isolated:
                return None
            found = {}
            for p in paths:
                p = os.fspath(p)
                if "://" in p or "\0" in p:
                    continue
                f = cfgfile.find(p, stop)
                if f is not None:
                    found.setdefault(f, p)
            if len(found) > 1:
                listed = "; ".join(f"{p}: {f}" for f, p in found.items())
                raise SettingsError(f"the paths have different configuration files ({listed}): check them "
                                    "separately, or choose one with --config FILE")
            return cfgfile.read(next(iter(found))) if found else None
        except cfgfile.ConfigFileError as exc:
            raise SettingsError(str(exc)) from None

    def from_file(self, cfg) -> dict[str, tuple[Any, str]]:
        """{parameter name: (value, "file:line")} of a configuration file, every key and value checked."""
        out = {}
        for key, raw in cfg.table.items():
            param = self.keys.get(key)
            where = cfg.where(key)
            if param is None and key.replace("-", "_") in NOT_SETTINGS - {"paths"}:
                raise SettingsError(f"{where}: {key} is not a setting: it acts on one run (give --{key} on the "
                                    "command line)")
            if param is None and key == "tool" and isinstance(raw, dict) and "endpoints-checker" in raw:
                raise SettingsError(f"{where}: a [tool.endpoints-checker] table is a pyproject.toml's; in "
                                    f"{os.path.basename(cfg.path)} write the keys at the top level")
            if param is None:
                raise SettingsError(f"{where}: unknown key {key!r}.{did_you_mean(key, self.keys)} "
                                    "(`endpoints-checker config` lists the keys)")
            out[param.name] = (self.convert(param.name, raw, where, cfg.folder), where)
        return out

    def convert(self, name: str, raw: Any, where: str, folder: str | None = None, label: str | None = None) -> Any:
        """A value of setting ``name`` as its option's type makes it; SettingsError saying ``where`` and why
        (naming the setting ``label``, by default its key). A string for a repeatable option is one value;
        relative paths resolve against ``folder``."""
        param = self.params[name]
        key = label or key_of(param)
        items = self._items(param, raw, where, key)
        if folder is not None and is_path(param):
            items = [_resolve(v, folder) for v in items]
        value = items if param.multiple else items[0]
        try:
            out = param.type_cast_value(self._ctx, value)
            if param.callback is not None:  # an option that reads its values itself (--fail-on's gate text)
                out = param.callback(self._ctx, param, out)
        except click.BadParameter as exc:
            choices = getattr(param.type, "choices", None)
            why = exc.message.rstrip(".")
            hint = (did_you_mean(str(_first_bad(items, choices)), choices) if choices
                    else f" ({key} takes {_takes(param)})" if _numeric(param) else "")
            raise SettingsError(f"{where}: {key}: {why}.{hint}") from None
        if out:
            self.check_values(name, key, out, where)
        return out

    def _items(self, param, raw, where, key) -> list:
        if isinstance(raw, (tuple, set, frozenset)):  # the library API's sequences
            raw = list(raw)
        if isinstance(raw, list):
            raw = [os.fspath(v) if isinstance(v, os.PathLike) else v for v in raw]
        elif isinstance(raw, os.PathLike):
            raw = os.fspath(raw)
        if isinstance(raw, (_dt.date, _dt.time)):
            raw = raw.isoformat()
        if isinstance(raw, dict):
            if not (param.multiple and ":" in (param.metavar or "")):
                raise SettingsError(f"{where}: {key} takes {_takes(param)}, not a table")
            raw = [f"{k}:{','.join(split(v))}" for k, v in raw.items()]
        items = list(raw) if isinstance(raw, list) else [raw]
        if isinstance(raw, list) and not param.multiple:
            raise SettingsError(f"{where}: {key} takes {_takes(param)}, not a list")
        for v in items:
            if isinstance(v, str) and "\0" in v:
                raise SettingsError(f"{where}: {key}: {v!r} holds a NUL character")
            if not _fits(param, v):
                shown = "true/false" if isinstance(v, bool) else ("a list" if isinstance(v, list) else
                                                                  "a table" if isinstance(v, dict) else repr(v))
                raise SettingsError(f"{where}: {key} takes {_takes(param)}, not {shown}")
        return items

    def check_values(self, name: str, key: str, value, where: str) -> None:
        """Rule selectors name rules (with a did-you-mean), as the command line's own checks say."""
        if name not in SELECTORS and name != "per_path_ignores":
            return
        from checker.core.option_values import check_selectors
        from checker.engine.catalogue import rules_for
        from checker.engine.path_ignores import parse

        # rules_for(tokens): the families the tokens name are imported, the others known from the index
        try:
            if name == "per_path_ignores":
                tokens = [t for item in value for t in split(str(item).rpartition(":")[2])]
                parse(value, rules_for(tokens or None))
            else:
                check_selectors(key, list(split(value)), rules_for(list(split(value))))
        except UsageProblem as exc:
            raise SettingsError(f"{where}: {str(exc).replace('--' + key_of(self.params[name]), key, 1)}") from None

    # -- the merge -----------------------------------------------------------------------------------------
    def resolve(self, paths, base: tuple[dict, dict] | None = None, given: dict | None = None,
                given_origin: str = COMMAND_LINE, config: str | None = None, isolated: bool = False,
                stop: str | None = None) -> Resolved:
        """Defaults (or ``base``: a parsed command line's values and origins), overridden by the file where
        they are defaults, overridden by ``given`` (values already converted, e.g. by :meth:`convert`)."""
        values, origins = base if base is not None else self.defaults()
        values, origins = dict(values), dict(origins)
        cfg = self.find(paths, config, isolated, stop)
        if cfg is not None:
            for name, (value, where) in self.from_file(cfg).items():
                if origins.get(name, DEFAULT) == DEFAULT:
                    values[name], origins[name] = value, where
        for name, value in (given or {}).items():
            values[name], origins[name] = value, given_origin
        return Resolved(values=values, origins=origins, file=cfg.path if cfg is not None else None)


def _numeric(param: click.Parameter) -> bool:
    t = param.type
    return isinstance(t, (click.IntRange, click.FloatRange)) or t in (click.INT, click.FLOAT)


def _fits(param: click.Parameter, v: Any) -> bool:
    """The TOML type a key's option takes: true/false for a flag, a number for a number, else a string."""
    if param.is_flag:
        return isinstance(v, bool)
    if _numeric(param):
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    return isinstance(v, str)


def _resolve(value: Any, folder: str) -> Any:
    if not isinstance(value, str) or value in ("", "-") or "://" in value:
        return value
    value = os.path.expanduser(value)
    return value if os.path.isabs(value) else os.path.normpath(os.path.join(folder, value))


def _first_bad(items, choices):
    return next((v for v in items if v not in choices), items[0] if items else "")


def _takes(param: click.Parameter) -> str:
    """What a key takes, in words (for the message refusing a value of the wrong shape)."""
    if param.is_flag:
        return "true or false"
    t = param.type
    if isinstance(t, click.Choice):
        one = "one of " + ", ".join(map(str, t.choices))
        return f"a list of values, each {one}" if param.multiple else one
    if _numeric(param):
        lo, hi = getattr(t, "min", None), getattr(t, "max", None)
        bounds = f" from {lo} to {hi}" if lo is not None and hi is not None else (
            f" of at least {lo}" if lo is not None else (f" of at most {hi}" if hi is not None else ""))
        return f"a list of integers{bounds}" if param.multiple else f"an integer{bounds}"
    what = "path" if is_path(param) else "string"
    return f"a list of {what}s (or one {what})" if param.multiple else f"a {what}"


def run_folder_options(values: dict) -> dict:
    """What rules read of a check's settings: the run-folder context (only the values given, so rules can
    say what is missing) and the cohort under review."""
    opts: dict[str, Any] = {"events": not values.get("no_events")}
    for key, name in (("point", "point_file"), ("max_concurrency", "max_concurrency"), ("seed_set", "seed_set"),
                      ("dataset_size", "dataset_size"), ("cohort", "cohort")):
        if values.get(name) is not None:
            opts[key] = values[name]
    return opts


def run_config(values: dict, **fixed: Any):
    """The RunConfig of a check with these settings (``check``'s parameter names); ``fixed`` overrides (a
    server's jobs=1, keep_packages, ...). A setting that is a RunConfig field of the same name passes as it
    is, so an option added to ``check`` and to RunConfig needs nothing here; outputs and text options are
    the command line's and are not a check's."""
    from checker.engine.config import RunConfig
    from checker.engine.path_ignores import parse as parse_path_ignores

    fields = set(RunConfig.__struct_fields__)
    kw: dict[str, Any] = {
        "select": split(values.get("select")), "ignore": split(values.get("ignore")),
        "exclude": tuple(values.get("exclude") or ()) + tuple(values.get("extend_exclude") or ()),
        "policy_overrides": {k: values[k] for k in ("seed_sets", "approved_drafters") if values.get(k)},
        "options": run_folder_options(values),
        "per_path_ignores": parse_path_ignores(values.get("per_path_ignores") or ()),
    }
    if values.get("max_file_size") is not None:
        kw["max_bytes"] = values["max_file_size"]
    for name, value in values.items():
        if name in fields and name not in kw and value is not None:
            kw[name] = value
    kw.update(fixed)
    return RunConfig.of(**kw)
