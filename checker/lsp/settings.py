"""The server's settings, as the ``check`` options name them: from initializationOptions and
workspace/didChangeConfiguration (a section ``endpointsChecker`` or the bare object)."""
from __future__ import annotations

from typing import Any

import msgspec

from checker.core.gate import FAIL_ON_VALUES as FAIL_ON, FailOnError, parse_fail_on  # noqa: F401 - defined once

SECTION = "endpointsChecker"


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
    #: codeDescription links: <base>/<family>.md#<rule-id>
    rule_docs: str = ""

    def run_config(self):
        """The RunConfig a check of one unit takes (serial, in this process, no package kept)."""
        from checker.engine.config import RunConfig

        overrides = {k: v for k, v in (("seed_sets", self.seed_sets), ("approved_drafters", self.approved_drafters))
                     if v}
        options: dict[str, Any] = {"events": True}
        for key, value in (("seed_set", self.seed_set), ("max_concurrency", self.max_concurrency),
                           ("dataset_size", self.dataset_size)):
            if value is not None:
                options[key] = value
        # the Week-0 verdict is always the model's here: an editor waits on every keystroke (docs/editors.md)
        return RunConfig.of(select=self.select, ignore=self.ignore, fail_on=self.fail_on, policy_dir=self.policy_dir,
                            policy_overrides=overrides, options=options, jobs=1, audit_jobs=1, keep_packages=True,
                            week0="model")


_NAMES = {"policy": "policy_dir", "policyDir": "policy_dir", "seedSets": "seed_sets",
          "approvedDrafters": "approved_drafters", "failOn": "fail_on", "seedSet": "seed_set",
          "maxConcurrency": "max_concurrency", "datasetSize": "dataset_size", "debounceMs": "debounce_ms",
          "ruleDocs": "rule_docs"}


def parse(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from a client's object (camelCase or the Struct's names); unusable values are left at their
    previous value and named in the returned problems (shown to the user, never a crash)."""
    base = base or Settings()
    if isinstance(raw, dict) and isinstance(raw.get(SECTION), dict):
        raw = raw[SECTION]
    if not isinstance(raw, dict):
        return base, ([] if raw is None else ["settings must be an object"])
    values = msgspec.structs.asdict(base)
    problems = []
    for key, value in raw.items():
        name = _NAMES.get(key, key)
        if name not in values:
            problems.append(f"unknown setting {str(key)[:60]!r}")
            continue
        ok = _valid(name, value)
        if ok is None:
            problems.append(f"setting {key!r}: {str(value)[:60]!r} is not usable")
            continue
        values[name] = ok
    return Settings(**values), problems


def _valid(name: str, value: Any) -> Any:
    if name in ("select", "ignore"):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, (list, tuple)) or not all(isinstance(v, str) for v in items):
            return None
        return tuple(t.strip() for v in items for t in v.split(",") if t.strip())
    if name in ("policy_dir", "seed_sets", "approved_drafters", "seed_set"):
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
    if name == "diagnostics":
        return value if value in ("push", "pull") else None
    if name == "rule_docs":
        return value if isinstance(value, str) else None
    return None
