"""A tool argument the input schema refuses, told in our words: which argument, what it held, what is allowed.

The SDK validates a call's arguments against the tool's input schema before the tool runs and would answer
with the validation library's own text (and its documentation links); an agent reads one sentence per
argument instead, written from the same schema the client was given.
"""
from __future__ import annotations

from typing import Any

#: JSON Schema type -> what a value of it is, in words
_TYPES = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
          "array": "a list", "object": "an object"}


def allowed(schema: dict) -> str:
    """What a value of this (tool input) schema may be, in words."""
    members = [m for m in schema.get("anyOf", ()) if m.get("type") != "null"]
    if schema.get("anyOf"):
        return " or ".join(allowed(m) for m in members) if members else "nothing"
    if "enum" in schema:
        return "one of " + ", ".join(str(v) for v in schema["enum"])
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return "a list" + (f" whose items are each {allowed(items)}" if items else "")
    out = _TYPES.get(kind, "a value")
    if "minimum" in schema:
        out += f", {schema['minimum']} or more"
    if "maximum" in schema:
        out += f", at most {schema['maximum']}"
    return out


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def argument_problem(tool: str, schema: dict | None, arguments: dict, errors: list[dict]) -> str:
    """One sentence per refused argument of ``tool``: which, what it held, and what its schema allows."""
    props = (schema or {}).get("properties", {})
    names = list(dict.fromkeys(str(e["loc"][0]) for e in errors if e.get("loc")))
    if not names:
        return f"{tool}: the arguments are not an object of named values."
    sentences = []
    for name in names:
        what = allowed(props[name]) if name in props else "not an argument of this tool"
        if name not in arguments:
            sentences.append(f"{tool}: {name} is missing: it must be {what}.")
        else:
            sentences.append(f"{tool}: {name} {_shown(arguments[name])} is not allowed: it must be {what}.")
    return " ".join(sentences)
