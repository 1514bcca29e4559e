"""Versioned policy data (``rules/policy/<edition>/*.yaml``): load, validate, fail closed.

Each policy file has a pydantic model registered by the rule family that owns it
(``register_policy``); ``schemas/policy/<name>.schema.json`` is generated from that model
(``make schemas``) and the tests validate every bundled file against it with jsonschema. At run
time the same model validates the file, so an edited or swapped (``--policy DIR``) file that does
not fit is a ``policy-registry`` FAIL, and every rule that needs it SKIPs: never a silent pass.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from checker.load.reader import read_file

DEFAULT_EDITION = "v1.0"
POLICY_ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "rules", "policy")

POLICY_MODELS: dict[str, Any] = {}
#: policy name -> id of the rule that reports its problems instead of policy-registry
POLICY_REPORTERS: dict[str, str] = {}


def register_policy(name: str, model_cls: Any, reported_by: str | None = None) -> None:
    """Register a policy file's schema; ``reported_by`` names a dedicated registry rule (fail closed)."""
    if name in POLICY_MODELS and POLICY_MODELS[name] is not model_cls:
        raise ValueError(f"policy {name!r} registered twice")
    POLICY_MODELS[name] = model_cls
    if reported_by:
        POLICY_REPORTERS[name] = reported_by


def default_policy_dir() -> str:
    return os.path.join(POLICY_ROOT, DEFAULT_EDITION)


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

    def get(self, name: str) -> Any:
        if name in self.problems:
            raise PolicyUnavailable(name, self.problems[name].message)
        if name not in self.data:
            raise PolicyUnavailable(name, f"no {name}.yaml in {self.directory}")
        return self.data[name]

    def available(self, name: str) -> bool:
        return name in self.data and name not in self.problems


def load_policy(directory: str | None = None, overrides: dict[str, str] | None = None) -> Policy:
    """Load every ``*.yaml`` in the policy directory; ``overrides`` maps a name to a replacement file."""
    from checker.load.models import validate_lenient

    directory = directory or default_policy_dir()
    pol = Policy(directory=directory, edition=os.path.basename(os.path.normpath(directory)))
    files: dict[str, str] = {}
    try:
        for fn in sorted(os.listdir(directory)):
            if fn.endswith(".yaml"):
                files[fn[: -len(".yaml")]] = os.path.join(directory, fn)
    except OSError as exc:
        pol.problems["index"] = PolicyProblem(directory, f"policy directory cannot be read: {exc.strerror or exc}")
        return pol
    for name, path in (overrides or {}).items():
        files[name] = path
        pol.overrides[name] = path
    for name in POLICY_MODELS:
        files.setdefault(name, os.path.join(directory, f"{name}.yaml"))
    for name, path in sorted(files.items()):
        # an override is the user's own file: a symlink to it anywhere is fine
        root = "/" if name in pol.overrides else (os.path.realpath(os.path.dirname(path)) or "/")
        lf = read_file("policy", path, path, root, 1 << 22)
        if not lf.exists:
            pol.problems[name] = PolicyProblem(path, "file not found")
            continue
        if lf.error is not None:
            pol.problems[name] = PolicyProblem(path, lf.error.message, lf.error.line, lf.error.column)
            continue
        if name == "index":
            if isinstance(lf.data, dict):
                pol.version = str(lf.data.get("version", "unknown"))
                pol.edition = str(lf.data.get("edition", pol.edition))
            continue
        model_cls = POLICY_MODELS.get(name)
        if model_cls is None:
            pol.problems[name] = PolicyProblem(path, "no schema is registered for this policy file")
            continue
        model, problems = validate_lenient(model_cls, lf.data, tries=1)
        if model is None or problems:
            first = problems[0] if problems else None
            line, col = lf.position(first.path) if first else (None, None)
            msg = "; ".join(p.message for p in problems[:3]) or "invalid"
            pol.problems[name] = PolicyProblem(path, f"does not match its schema: {msg}", line, col)
            continue
        pol.data[name] = model
    return pol
