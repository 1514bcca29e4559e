"""Typed pydantic models of each submitter file, and lenient validation into them.

One module per file kind. Models are strict on types (a string is never an int) but tolerant of
unknown keys; ``validate_lenient`` drops each offending value and retries, so one bad field never
hides the rest of the file.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from checker.core.values import show, value_at


@dataclass(slots=True)
class FieldProblem:
    path: tuple
    message: str
    observed: Any = None


#: typed model per file kind: (module, class)
FILE_MODELS = {
    "point_yaml": ("checker.load.models.point", "PointYaml"),
    "result_summary": ("checker.load.models.summary", "ResultSummary"),
    "system_desc": ("checker.load.models.system_desc", "SystemDesc"),
}


def attach_model(lf) -> None:
    """Validate a loaded file into its kind's typed model (when the kind has one), keeping the problems.

    Unambiguous non-plain spellings (``64.0`` for a count, YAML 1.1 ``yes``) are first read as the
    value they spell and noted in ``lf.spellings`` (``checker.load.models.spelling``)."""
    if not lf.ok:
        return
    from checker.load.models.spelling import normalise

    if lf.kind not in FILE_MODELS:
        normalise(lf)
        return
    import importlib

    mod, cls = FILE_MODELS[lf.kind]
    model_cls = getattr(importlib.import_module(mod), cls)
    normalise(lf, model_cls)
    lf.model, lf.field_errors = validate_lenient(model_cls, lf.data)


def is_http_url(v: Any) -> bool:
    """An http(s) URL with a host (sources of sourced values, availability links)."""
    from urllib.parse import urlparse

    if not isinstance(v, str):
        return False
    try:
        u = urlparse(v.strip())
    except ValueError:
        return False
    return u.scheme in ("http", "https") and bool(u.netloc)


def dotted(path: tuple) -> str:
    """A data path as written in messages: node_types[0].cooling."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


_TYPE_WORDS = {
    "int_type": "an integer",
    "int_from_float": "an integer",
    "float_type": "a number",
    "string_type": "a string",
    "bool_type": "true or false",
    "dict_type": "a mapping",
    "list_type": "a list",
    "model_type": "a mapping",
    "model_attributes_type": "a mapping",
    "literal_error": "one of the allowed values",
    "finite_number": "a finite number",
}


def _word(err: dict) -> str:
    t = err.get("type", "")
    if t in _TYPE_WORDS:
        return _TYPE_WORDS[t]
    if t.startswith("greater_than"):
        return "a larger value"
    if t.startswith("less_than"):
        return "a smaller value"
    return "a valid value"


def _drop(data: Any, loc: tuple) -> Any:
    """Copy ``data`` along ``loc`` and remove the value there (None for list items)."""
    if not loc:
        return None
    head, rest = loc[0], loc[1:]
    if isinstance(data, dict) and head in data:
        new = dict(data)
        if rest:
            new[head] = _drop(data[head], rest)
        else:
            del new[head]
        return new
    if isinstance(data, list) and isinstance(head, int) and 0 <= head < len(data):
        new = list(data)
        if rest:
            new[head] = _drop(data[head], rest)
        else:
            new[head] = None
        return new
    return data


def validate_lenient(model_cls, data: Any, tries: int = 8):
    """Validate ``data`` into ``model_cls``; return (model or None, [FieldProblem])."""
    from pydantic import ValidationError

    problems: list[FieldProblem] = []
    if not isinstance(data, dict):
        got = "empty" if data is None else type(data).__name__
        return None, [FieldProblem((), f"the file must hold a mapping at the top level, not {got}")]
    current = data
    for _ in range(tries):
        try:
            return model_cls.model_validate(current), problems
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_context=False, include_input=False)
            seen = set()
            for err in errors:
                loc = tuple(p for p in err["loc"] if not isinstance(p, str) or not p.startswith(("function-", "union[", "literal[")))
                # pydantic inserts union member names into loc ('int', 'str'...): strip type tags
                loc = tuple(p for p in loc if p not in _TYPE_TAGS)
                if loc in seen:
                    continue
                seen.add(loc)
                observed = value_at(current, loc)
                dotted = ".".join(str(p) for p in loc) or "(top level)"
                if err.get("type") in _SAY_MESSAGE:  # a model validator's own sentence, or an unknown key
                    text = str(err.get("msg", "")).removeprefix("Value error, ")
                    problems.append(FieldProblem(loc, f"field `{dotted}`: {text}", observed))
                else:
                    problems.append(
                        FieldProblem(loc, f"field `{dotted}`: expected {_word(err)}, got {show(observed)}", observed)
                    )
                current = _drop(current, loc)
    return None, problems


_SAY_MESSAGE = {"value_error", "assertion_error", "extra_forbidden"}
_TYPE_TAGS = {"int", "float", "str", "bool", "list", "dict", "none", "nullable", "list[str]", "dict[str,any]",
              "dict[str,union[float,none]]", "lax-or-strict", "json-or-python", "tagged-union"}
