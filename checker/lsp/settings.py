"""The server's settings, as the ``check`` options name them: from initializationOptions and
workspace/didChangeConfiguration (a section ``endpointsChecker`` or the bare object), over the project's
configuration file above each checked unit (the one ``check`` reads; a setting the client gives wins).

The file's keys and types are ``check``'s options: ``endpoints-checker lsp`` hands them over (:func:`use`);
a server started without them reads no file."""
from __future__ import annotations

from typing import Any, NamedTuple

import msgspec

from checker.core.gate import FailOnError, parse_fail_on

SECTION = "endpointsChecker"
#: the settings that are ``check``'s own (by its parameter names), in the order they are given to a check
CHECK_NAMES = ("policy_dir", "seed_sets", "approved_drafters", "fail_on", "select", "ignore", "seed_set",
               "max_concurrency", "dataset_size")
#: what the server's checks are, whatever the file says: serial, in this process, writing nothing
#: the Week-0 verdict is always the model's here: an editor waits on every keystroke (docs/editors.md)
FIXED = {"jobs": 1, "audit_jobs": 1, "keep_packages": True, "progress": False, "executor": "local",
         "scheduler": None, "write_bundle": None, "prerender_json": False, "week0": "model"}
#: the origin of the client's settings (``endpoints-checker config`` says "command line" for its own)
ORIGIN = "editor settings"

_CHECK = None  # checker.engine.check_settings.CheckSettings of `check`, handed over by the lsp command


def use(check_settings) -> None:
    """Read the configuration file with these settings of ``check`` (``endpoints-checker lsp`` calls it)."""
    global _CHECK
    _CHECK = check_settings


class Effective(NamedTuple):
    """One unit's check: its RunConfig, the --fail-on gate of its diagnostics, and why the configuration
    file was not used (None when it was, or there is none)."""

    config: Any
    fail_on: str
    problem: str | None = None


class Settings(msgspec.Struct, frozen=True):
    #: --policy DIR, --seed-sets FILE, --approved-drafters FILE
    policy_dir: str | None = None
    seed_sets: str | None = None
    approved_drafters: str | None = None
    #: --fail-on: findings at or above it are Errors in the editor
    fail_on: str = "flag"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    #: run folders: --seed-set, --max-concurrency, --dataset-size
    seed_set: str | None = None
    max_concurrency: int | None = None
    dataset_size: int | None = None
    #: "push" (publishDiagnostics, the default) or "pull" (textDocument/diagnostic only)
    diagnostics: str = "push"
    #: quiet time after an edit before the package is checked again
    debounce_ms: int = 150
    #: codeDescription links: <base>/rules/<family>.md#<rule-id>, base the URL of a copy of docs/ (checker.core.rule_pages)
    rule_docs: str = ""
    #: check --config FILE / --isolated: this configuration file, or none (default: the one above each unit)
    config: str | None = None
    isolated: bool = False
    #: the names of the settings the client gave (they override the configuration file's)
    given: frozenset = frozenset()

    def run_config(self):
        """The RunConfig of a check with these settings alone (no configuration file)."""
        from checker.engine.check_settings import run_config

        return run_config({name: getattr(self, name) for name in CHECK_NAMES}, **FIXED)

    def effective(self, root: str) -> Effective:
        """The check of the unit at ``root``: the configuration file above it, the client's settings over it.
        An unusable file is named in ``problem`` and the unit is checked with the client's settings alone."""
        if _CHECK is None:
            return Effective(self.run_config(), self.fail_on)
        from checker.engine.check_settings import run_config

        given = {name: getattr(self, name) for name in CHECK_NAMES if name in self.given}
        try:
            resolved = _CHECK.resolve([root], given=given, given_origin=ORIGIN, config=self.config,
                                      isolated=self.isolated)
            return Effective(run_config(resolved.values, **FIXED), resolved.values["fail_on"])
        except ValueError as exc:
            return Effective(self.run_config(), self.fail_on, f"configuration file not used: {exc}")


_NAMES = {"policy": "policy_dir", "policyDir": "policy_dir", "seedSets": "seed_sets",
          "approvedDrafters": "approved_drafters", "failOn": "fail_on", "seedSet": "seed_set",
          "maxConcurrency": "max_concurrency", "datasetSize": "dataset_size", "debounceMs": "debounce_ms",
          "ruleDocs": "rule_docs", "configFile": "config"}


def parse(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from a client's object (camelCase or the Struct's names); unusable values are left at their
    previous value and named in the returned problems (shown to the user, never a crash)."""
    base = base or Settings()
    if isinstance(raw, dict) and isinstance(raw.get(SECTION), dict):
        raw = raw[SECTION]
    if not isinstance(raw, dict):
        return base, ([] if raw is None else ["settings must be an object"])
    values = msgspec.structs.asdict(base)
    given = set(base.given)
    problems = []
    for key, value in raw.items():
        name = _NAMES.get(key, key)
        if name not in values or name == "given":
            problems.append(f"unknown setting {str(key)[:60]!r}")
            continue
        ok = _valid(name, value)
        if ok is None:
            problems.append(f"setting {key!r}: {str(value)[:60]!r} is not usable")
            continue
        values[name] = ok
        given.add(name)
    values["given"] = frozenset(given)
    return Settings(**values), problems


def _valid(name: str, value: Any) -> Any:
    if name in ("select", "ignore"):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
            return None
        return tuple(t.strip() for v in items for t in v.split(",") if t.strip())
    if name in ("policy_dir", "seed_sets", "approved_drafters", "seed_set", "config"):
        return value if value is None or (isinstance(value, str) and "\0" not in value) else None
    if name in ("max_concurrency", "dataset_size"):
        return value if value is None or (type(value) is int and value > 0) else None
    if name == "debounce_ms":
        return value if type(value) is int and 0 <= value <= 10_000 else None
    if name == "fail_on":
        try:
            return parse_fail_on(value) if isinstance(value, (str, list, tuple)) else None
        except FailOnError:
            return None
    if name == "isolated":
        return value if isinstance(value, bool) else None
    if name == "diagnostics":
        return value if value in ("push", "pull") else None
    if name == "rule_docs":
        return value if isinstance(value, str) else None
    return None
