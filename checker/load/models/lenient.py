"""Lenient validation into a file model: every problem with its data path, one bad value never hiding the rest.

Problems are ``checker.core.models.Problem`` records (``FieldProblem`` is the same class under the name
the file models' callers know); ``dotted`` writes a path as messages show it.
"""
from __future__ import annotations

from typing import Any

from checker.core.models import Problem, validate
from checker.core.values import show, value_at

#: the one problem record (``checker.core.models.Problem``), under the name the file-model code uses
FieldProblem = Problem


def dotted(path: tuple) -> str:
    """A data path as written in messages: node_types[0].cooling."""
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out or "(top level)"


_TYPE_WORDS = {
    "int_type": "an integer",
    "float_type": "a number",
    "string_type": "a string",
    "bool_type": "true or false",
    "dict_type": "a mapping",
    "list_type": "a list",
    "model_type": "a mapping",
    "literal_error": "one of the allowed values",
}


def _word(t: str) -> str:
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


def validate_lenient(model_cls, data: Any, tries: int = 2):
    """Validate ``data`` into ``model_cls``; return (model or None, [Problem]).

    pydantic reports every problem in one pass; each offending value is then dropped and the rest
    validated once more (``tries=2``), so one bad field never hides the others from the rules.
    ``tries=1`` (policy files) only collects the problems."""
    problems: list[Problem] = []
    if not isinstance(data, dict):
        got = "empty" if data is None else type(data).__name__
        return None, [Problem((), f"the file must hold a mapping at the top level, not {got}")]
    current = data
    for _ in range(tries):
        model, errors = validate(model_cls, current)
        if model is not None:
            return model, problems
        seen = set()
        dropped = current
        for err in errors:
            loc = err.path
            if loc in seen:  # a union reports each member's problem at one place: the first speaks for it
                continue
            seen.add(loc)
            if (loc[-1:] == ("[key]",) and type(loc[-2]) is not str) or err.type == "invalid_key":  # a key not text
                loc = loc[:-1] if loc[-1:] == ("[key]",) else loc
                from checker.load.text_check import key_words

                where = ".".join(str(p) for p in loc[:-1])
                problems.append(Problem(loc, f"{f'field `{where}`: ' if where else ''}the key "
                                                  f"{key_words(loc[-1])} is not text: keys are strings (quote it)",
                                             loc[-1]))
                dropped = _drop(dropped, loc)
                continue
            observed = value_at(current, loc)
            dotted = ".".join(str(p) for p in loc) or "(top level)"
            if err.type in _SAY_MESSAGE:  # a model check's own sentence, or an unknown key
                problems.append(Problem(loc, f"field `{dotted}`: {err.message}", observed, err.type))
            else:
                problems.append(Problem(loc, f"field `{dotted}`: expected {_word(err.type)}, got {show(observed)}",
                                             observed, err.type))
            dropped = _drop(dropped, loc)
        if dropped is current:  # nothing could be taken out (a whole-model check): no model
            break
        current = dropped
    return None, problems


#: error types whose own sentence is the message (a model check, an unknown key, a union whose members are
#: told apart by shape: ``checker.load.models.accuracy``)
_SAY_MESSAGE = {"value_error", "extra_forbidden", "shape_error"}
