"""The policy data a rule reads (``ctx.policy``): validated models by file name, and why a file is missing.

Loading lives in ``checker.engine.policy``; rules only see this container, so they never import
the engine. ``get`` raises ``PolicyUnavailable`` for a file that did not load: the runner turns it
into a SKIP naming the file (fail closed, never a silent pass).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

DEFAULT_EDITION = "v1.0"


class PolicyUnavailable(Exception):
    def __init__(self, name: str, why: str):
        super().__init__(f"policy {name!r} unavailable: {why}")
        self.name = name
        self.why = why


@dataclass
class PolicyProblem:
    file: str
    message: str
    line: int | None = None
    column: int | None = None


@dataclass
class Policy:
    directory: str
    edition: str = DEFAULT_EDITION
    version: str = "unknown"
    data: dict[str, Any] = field(default_factory=dict)
    problems: dict[str, PolicyProblem] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)  # name -> file that replaced the bundled one
    #: policy name -> id of the rule that reports its problems instead of policy-registry
    reporters: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        if name in self.problems:
            raise PolicyUnavailable(name, self.problems[name].message)
        if name not in self.data:
            raise PolicyUnavailable(name, f"no {name}.yaml in {self.directory}")
        return self.data[name]

    def available(self, name: str) -> bool:
        return name in self.data and name not in self.problems
