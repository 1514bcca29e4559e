"""What one YAML scalar means under the YAML 1.2 core schema (ruamel's default), and the refusal every
bound of the reader raises (``YamlLoadError``).

``yes``/``on`` stay strings, ``1e3`` is a float, ``0o17`` an octal int; dates stay strings. A numeric
literal past its length bound (``MAX_INT_DIGITS`` digits for an integer) is refused, not converted.
"""
from __future__ import annotations

import re
from typing import Any

MAX_INT_DIGITS = 64

_INT_RE = re.compile(r"^[-+]?[0-9]+$")
_OCT_RE = re.compile(r"^0o[0-7]+$")
_HEX_RE = re.compile(r"^0x[0-9a-fA-F]+$")
_FLOAT_RE = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_INF_RE = re.compile(r"^[-+]?\.(inf|Inf|INF)$")
_NAN_RE = re.compile(r"^\.(nan|NaN|NAN)$")
_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUE = {"true", "True", "TRUE"}
_FALSE = {"false", "False", "FALSE"}


class YamlLoadError(Exception):
    """A refusal with a rule-facing code, a message and a 1-based position."""

    def __init__(self, code: str, message: str, line: int | None = None, column: int | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line
        self.column = column


def resolve_plain(text: str, line: int, col: int) -> Any:
    """The value of an untagged plain scalar (null, bool, int, float or the text itself); ``line``/``col``
    place a refusal."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    c = text[0]
    if c.isdigit() or c in "+-.":
        if _INT_RE.match(text):
            digits = len(text.lstrip("+-"))
            if digits > MAX_INT_DIGITS:
                raise YamlLoadError(
                    "integer-too-long",
                    f"integer with {digits} digits (limit {MAX_INT_DIGITS})",
                    line,
                    col,
                )
            return int(text)
        if _OCT_RE.match(text) or _HEX_RE.match(text):
            if len(text) > MAX_INT_DIGITS + 2:
                raise YamlLoadError("integer-too-long", f"integer literal of {len(text)} characters", line, col)
            return int(text, 8 if text[1] == "o" else 16)
        if _FLOAT_RE.match(text):
            if len(text) > 400:
                raise YamlLoadError("integer-too-long", f"numeric literal of {len(text)} characters", line, col)
            return float(text)
        if _INF_RE.match(text):
            return float("-inf") if text[0] == "-" else float("inf")
        if _NAN_RE.match(text):
            return float("nan")
    return text


def resolve_tagged(tag: str, text: str, line: int, col: int) -> Any:
    """The value of a scalar with an explicit core tag (``!!str``, ``!!int``, ...); a value that does not
    fit its tag, or any other tag, is refused."""
    short = tag.replace("tag:yaml.org,2002:", "!!")
    if short == "!!str":
        return text
    if short in ("!!int", "!!float", "!!bool", "!!null"):
        value = resolve_plain(text, line, col)
        want = {"!!int": int, "!!float": (float, int), "!!bool": bool, "!!null": type(None)}[short]
        if isinstance(value, bool) and short != "!!bool":
            value = text
        if not isinstance(value, want):
            raise YamlLoadError("parse-error", f"value {text[:40]!r} does not match its tag {short}", line, col)
        return float(value) if short == "!!float" else value
    raise YamlLoadError("parse-error", f"unsupported YAML tag {tag[:60]!r}", line, col)
