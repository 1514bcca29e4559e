"""The JSON Schema (draft 2020-12) of a record class, for the published schemas under schemas/.

The layout is the one the schemas have always had: nested records under ``$defs``, a title per field
(its key in words), ``anyOf`` for unions and optional values, defaults and constraints as written.
Only the maintainer command (``python -m checker.cli.maintainer schemas``) imports this module.
"""
from __future__ import annotations

import datetime
import inspect
import typing
from typing import Any

from checker.core.record import Record, fields_of
from checker.core.record_checks import is_union, strip_annotated

_SCALAR = {int: "integer", float: "number", str: "string", bool: "boolean", type(None): "null"}


def record_schema(cls: type) -> dict:
    """The schema document of ``cls``: its own object schema plus ``$defs`` for every nested record."""
    defs: dict[str, dict] = {}
    doc = _object(cls, defs)
    if defs:
        doc["$defs"] = dict(sorted(defs.items()))
    return doc


def _object(cls: type, defs: dict) -> dict:
    out: dict[str, Any] = {"properties": {}, "title": cls.__name__, "type": "object"}
    if cls.__doc__:
        out["description"] = inspect.cleandoc(cls.__doc__)
    required = []
    for f in fields_of(cls).values():
        prop = _type(f.annotation, f.constraints, defs)
        if _titled(f.annotation):
            prop["title"] = f.key.title().replace("_", " ")
        if f.description:
            prop["description"] = f.description
        if f.required:
            required.append(f.key)
        elif f.factory is None:
            prop["default"] = f.default
        out["properties"][f.key] = prop
    if required:
        out["required"] = required
    extra = cls.__record_extra__
    if extra != "ignore":
        out["additionalProperties"] = extra == "allow"
    return out


def _titled(tp: Any) -> bool:
    """A field that is (optionally) one nested record is shown by reference alone, without a title."""
    args = [a for a in typing.get_args(tp) if a is not type(None)] if is_union(tp) else [tp]
    return not (len(args) == 1 and _is_record(strip_annotated(args[0])[0]))


def _is_record(tp: Any) -> bool:
    return isinstance(tp, type) and issubclass(tp, Record)


def _type(tp: Any, constraints: dict, defs: dict) -> dict:
    tp, meta = strip_annotated(tp)
    constraints = {**meta, **constraints}
    if is_union(tp):
        members = [_type(a, constraints if a is not type(None) else {}, defs) for a in typing.get_args(tp)]
        return {"anyOf": members}
    out = _bare(tp, defs)
    kind = out.get("type")
    for key, word in (("ge", "minimum"), ("le", "maximum"), ("gt", "exclusiveMinimum"), ("lt", "exclusiveMaximum")):
        if key in constraints:
            out[word] = constraints[key]
    if "min_length" in constraints:
        out["minLength" if kind == "string" else "minItems"] = constraints["min_length"]
    return out


def _bare(tp: Any, defs: dict) -> dict:
    if tp is Any or tp is object:
        return {}
    if tp in _SCALAR:
        return {"type": _SCALAR[tp]}
    if tp is None:
        return {"type": "null"}
    if tp is datetime.date:
        return {"format": "date", "type": "string"}
    if _is_record(tp):
        if tp.__name__ not in defs:
            defs[tp.__name__] = {}  # placeholder first: a record that (indirectly) holds itself
            defs[tp.__name__] = _object(tp, defs)
        return {"$ref": f"#/$defs/{tp.__name__}"}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Literal:
        kinds = {_SCALAR.get(type(a)) for a in args}
        out: dict[str, Any] = {"const": args[0]} if len(args) == 1 else {"enum": list(args)}
        if len(kinds) == 1 and None not in kinds:
            out["type"] = kinds.pop()
        return out
    if origin is list:
        return {"items": _type(args[0], {}, defs) if args else {}, "type": "array"}
    if origin is dict:
        value = args[1] if args else Any
        return {"additionalProperties": True if value is Any else _type(value, {}, defs), "type": "object"}
    raise TypeError(f"no JSON Schema for record field type {tp!r}")
