"""The pydantic bases of every model of an input that is not ours, and their problems as located data.

File models (``checker.load.models``), policy models (``rules/<family>/``), waivers and baselines are
pydantic v2 models on these bases: strict types (a string is never a number, ``true`` never an
integer; an integer is accepted where a number is asked), aliases as the files spell keys, every
problem collected in one pass. Schemas build on first validation (``defer_build``), so a check pays
only for the file kinds it reads (docs/performance.md). ``validate`` turns a ``ValidationError`` into
``Problem`` records whose ``path`` is a path in the data (keys and list indexes, union member tags
taken out), which the loader's positions turn into file:line:col.
"""
from __future__ import annotations

import os
import sys
import types
from typing import Any

import msgspec
from pydantic import BaseModel, ConfigDict, ValidationError


def without_plugins() -> None:
    """For the command line (called before any model is built): third-party pydantic plugins must not
    change how submitter files validate, so ``PYDANTIC_DISABLE_PLUGINS`` (pydantic's own switch) defaults
    to ``__all__``; with every plugin disabled the loader is answered here, since pydantic's imports
    ``importlib.metadata`` at module level only to find none (~15 ms of a check). A user who sets the
    variable to anything else gets pydantic's own loader."""
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    if os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__" and "pydantic.plugin._loader" not in sys.modules:
        loader = types.ModuleType("pydantic.plugin._loader", "every pydantic plugin disabled (checker.core.models)")
        loader.get_plugins = lambda: ()  # type: ignore[attr-defined]
        sys.modules["pydantic.plugin._loader"] = loader


class Problem(msgspec.Struct):
    """The one record of a problem found in an input: where in the data (``path``: keys and list
    indexes), the sentence, the value as written there, and the validation error's type (pydantic's
    names: ``int_type``, ``value_error``...; empty for a check of our own). Every validator of a file
    (``validate``, ``checker.load.models.lenient.validate_lenient``, the accuracy view, the parsing
    rules) produces it; the loader's positions turn ``path`` into file:line:col."""

    path: tuple
    message: str
    observed: Any = None
    type: str = ""


class FileModel(BaseModel):
    """A submitter or client file: strict types, unknown keys kept (``extras_of``), built on first use."""

    model_config = ConfigDict(strict=True, extra="allow", defer_build=True)


class StrictModel(BaseModel):
    """Policy data and option files: strict types, an unknown key is a problem (a typo must not pass)."""

    model_config = ConfigDict(strict=True, extra="forbid", defer_build=True)


def validate(cls: type[BaseModel], data: Any) -> tuple[Any, list[Problem]]:
    """``data`` validated into ``cls``: (instance, []) or (None, every problem located in ``data``)."""
    try:
        return cls.model_validate(data), []
    except ValidationError as exc:
        return None, problems_of(exc, data)


def problems_of(exc: ValidationError, data: Any) -> list[Problem]:
    """Each error of ``exc`` as a Problem located by a path into ``data``; a model check's own sentence
    is kept without pydantic's ``Value error,`` prefix."""
    out = []
    for err in exc.errors(include_url=False, include_context=False, include_input=False):
        kind, msg = err["type"], err["msg"]
        if kind in ("value_error", "assertion_error"):
            kind = "value_error"
            msg = msg.split(", ", 1)[1] if msg.startswith(("Value error, ", "Assertion failed, ")) else msg
        out.append(Problem(data_path(err["loc"], data), msg, type=kind))
    return out


def data_path(loc: tuple, data: Any) -> tuple:
    """pydantic's ``loc`` without the union member tags it inserts (``'int'``, ``'str'``, a model's name):
    each step is kept when the data has it (a key of that mapping, an index of that list), when it is
    the last step (a missing or an unknown key), or when it is a key's ``[key]`` marker."""
    out: list = []
    node = data
    last = len(loc) - 1
    for i, part in enumerate(loc):
        if isinstance(node, dict) and part in node:
            out.append(part)
            node = node[part]
        elif isinstance(node, list) and type(part) is int and 0 <= part < len(node):
            out.append(part)
            node = node[part]
        elif isinstance(node, dict) and isinstance(part, str) and _key_of(node, part) is not None:
            key = _key_of(node, part)  # a non-text key (YAML `5:`, `.inf:`): pydantic writes it as text
            out.append(key)
            node = node[key]
        elif part == "[key]" or (i == last and isinstance(node, dict)):
            out.append(part)
            node = None
    return tuple(out)


def _key_of(node: dict, part: str) -> Any:
    for k in node:
        if type(k) is not str and str(k) == part:
            return k
    return None


def extras_of(obj: BaseModel) -> dict:
    """The unknown keys a file model kept, as written (empty for the models that refuse them)."""
    return obj.model_extra or {}


def keys_of(cls: type[BaseModel]) -> dict:
    """Field by the key the file writes (its alias when it has one), in declaration order."""
    hit = _KEYS.get(cls)
    if hit is None:
        hit = _KEYS[cls] = {(f.alias or name): f for name, f in cls.model_fields.items()}
    return hit


_KEYS: dict = {}
