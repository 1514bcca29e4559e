"""The policy data a rule reads (``ctx.policy``): validated models by file name, and why a file is missing.

Loading lives in ``checker.engine.policy``; rules only see this container, so they never import
the engine. ``get`` raises ``PolicyUnavailable`` for a file that did not load: the runner turns it
into a SKIP naming the file (fail closed, never a silent pass).
"""
from __future__ import annotations

from typing import Any, Callable

import msgspec

DEFAULT_EDITION = "v1.0"


class PolicyUnavailable(Exception):
    def __init__(self, name: str, why: str):
        super().__init__(f"policy {name!r} unavailable: {why}")
        self.name = name
        self.why = why


class PolicyProblem(msgspec.Struct):
    file: str
    message: str
    line: int | None = None
    column: int | None = None


class Policy(msgspec.Struct):
    directory: str
    edition: str = DEFAULT_EDITION
    version: str = "unknown"
    data: dict[str, Any] = msgspec.field(default_factory=dict)
    problems: dict[str, PolicyProblem] = msgspec.field(default_factory=dict)
    overrides: dict[str, str] = msgspec.field(default_factory=dict)  # name -> file that replaced the bundled one
    #: where the edition was taken from (index.yaml ``taken_from``: rules commit and date) and, per registry,
    #: its source and the date it was taken (``registries``): what `endpoints-checker policy` shows
    provenance: dict[str, Any] = msgspec.field(default_factory=dict)
    #: policy name -> id of the rule that reports its problems instead of policy-registry
    reporters: dict[str, str] = msgspec.field(default_factory=dict)
    #: policy name -> loader not run yet (``checker.engine.policy``): a file is read and validated the
    #: first time a rule asks for it, so a run that needs few files (``--select``) builds few models
    pending: dict[str, Callable[[], None]] = msgspec.field(default_factory=dict)

    def _load(self, name: str) -> None:
        load = self.pending.pop(name, None)
        if load is not None:
            load()

    def load_all(self) -> None:
        """Read and validate every file not loaded yet (what ``policy-registry`` reports on)."""
        for name in sorted(self.pending):
            self._load(name)

    def get(self, name: str) -> Any:
        self._load(name)
        if name in self.problems:
            raise PolicyUnavailable(name, self.problems[name].message)
        if name not in self.data:
            raise PolicyUnavailable(name, f"no {name}.yaml in {self.directory}")
        return self.data[name]

    def available(self, name: str) -> bool:
        self._load(name)
        return name in self.data and name not in self.problems

    def problem(self, name: str) -> PolicyProblem | None:
        """Why ``name`` cannot be used (None when it loaded)."""
        self._load(name)
        return self.problems.get(name)

    def unusable(self, name: str) -> str:
        """What a rule reading the registry ``name`` says when it cannot be used: the problem and the
        rule that reports it (the engine's SKIP for ``registry:<name>``, and the kernels' own)."""
        prob = self.problem(name)
        why = f" ({prob.message})" if prob else ""
        return f"no usable {name}.yaml: the file cannot be used{why}; see {self.reporters.get(name, 'policy-registry')}"
