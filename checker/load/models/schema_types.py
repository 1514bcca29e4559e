"""Field types that tell the JSON Schema (``make schemas``) more than the validator checks.

Allowed values, patterns and bounds are the rules' business (each is reported by its rule, with its
clause and a fix), so the models accept any value of the type; the schema still lists them, because
that is what an editor shows on hover and completes. ``shown(int, minimum=1)`` is ``int`` at run time.
"""
from __future__ import annotations

from typing import Annotated, Any

from pydantic import WithJsonSchema

from checker.core.spellings import BOOL_WORDS

_JSON_TYPE = {str: "string", int: "integer", float: "number", bool: "boolean"}



def shown(base: type, **facts: Any) -> Any:
    """``base`` at run time; in the schema its JSON type plus ``facts`` (enum, pattern, minimum, ...)."""
    return Annotated[base, WithJsonSchema({"type": _JSON_TYPE[base], **facts})]


def one_of(*values: str) -> Any:
    """A string whose allowed values the schema lists (the rules report any other value)."""
    return shown(str, enum=list(values))


#: a boolean that may be written as a YAML 1.1 word (yes/no/on/off): read as the boolean it spells, with
#: a value-spelling warning suggesting true/false; the schema lists the words (checker.core.spellings)
YamlBool = Annotated[bool, WithJsonSchema({"anyOf": [{"type": "boolean"},
                                                     {"type": "string", "enum": list(BOOL_WORDS)}]})]


def any_of(*schemas: dict) -> Any:
    """Any value at run time (the rules read it themselves); in the schema, the shapes they accept."""
    return Annotated[Any, WithJsonSchema({"anyOf": [*schemas, {"type": "null"}]})]


def as_schema(doc: dict) -> Any:
    """A field's ``json_schema_extra`` that replaces the generated shape by ``doc`` (its description and
    default kept): for a value the rules read themselves, whose accepted shapes no Python type says."""

    def apply(schema: dict) -> None:
        kept = {k: schema[k] for k in ("description", "default", "title") if k in schema}
        schema.clear()
        schema.update(doc, **kept)

    return apply
