"""A YAML file's values as the official checker reads them: PyYAML's safe_load, YAML 1.1.

Our loader reads YAML 1.2 (``yes`` and ``1_000`` stay text, ``1e3`` and ``0o17`` are numbers);
PyYAML reads the same plain scalars the 1.1 way (``yes`` -> true, ``1_000`` -> 1000, ``010`` -> 8,
``1:30`` -> 90, ``2026-01-01`` -> a date, ``1e3`` and ``0o17`` -> text). ``view`` re-reads every
plain scalar of a loaded file that way: strings from their text, numbers from their source token
(found only when the file holds a token the two readings differ on). Pure: no file is opened.
"""
from __future__ import annotations

import datetime
import re
from typing import Any

# PyYAML's implicit resolvers (yaml/resolver.py), as regular expressions over a plain scalar
_BOOL = {"yes": True, "Yes": True, "YES": True, "no": False, "No": False, "NO": False, "on": True, "On": True,
         "ON": True, "off": False, "Off": False, "OFF": False, "true": True, "True": True, "TRUE": True,
         "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+"
                  r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$")
_FLOAT = re.compile(r"^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?"
                    r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
_NULL = {"~", "null", "Null", "NULL", ""}
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_STAMP = re.compile(r"^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})"
                    r"(?:\.([0-9]*))?(?:[ \t]*(Z|([-+])([0-9]{1,2})(?::([0-9]{2}))?))?$")
#: a token our YAML 1.2 reader takes for a number where PyYAML reads text or another number
_NUMERIC_DIFF = re.compile(r"(?m)(?::|-)\s+[-+]?(?:[0-9][0-9_]*[eE]|[0-9]+\.[0-9]*[eE][0-9]|0o|0[0-9]|\.[0-9])")


def resolve(text: str) -> Any:
    """The value PyYAML's safe_load gives a plain scalar ``text``."""
    if text in _NULL:
        return None
    if text in _BOOL:
        return _BOOL[text]
    if _INT.match(text):
        return _int(text)
    if _FLOAT.match(text):
        return _float(text)
    if _DATE.match(text):
        try:
            return datetime.date.fromisoformat(text)
        except ValueError:
            return text  # PyYAML raises here; a date that is no date stays text for our purposes
    m = _STAMP.match(text)
    if m:
        return text  # a timestamp: a datetime to PyYAML, which no schema field takes either way
    return text


def _int(text: str) -> int:
    v = text.replace("_", "")
    sign = -1 if v[0] == "-" else 1
    if v[0] in "+-":
        v = v[1:]
    if v == "0":
        return 0
    if v.startswith("0b"):
        return sign * int(v[2:], 2)
    if v.startswith("0x"):
        return sign * int(v[2:], 16)
    if v[0] == "0":
        return sign * int(v, 8)
    return sign * (_base60(v, int) if ":" in v else int(v))


def _float(text: str) -> float:
    v = text.replace("_", "").lower()
    sign = -1.0 if v[0] == "-" else 1.0
    if v[0] in "+-":
        v = v[1:]
    if v == ".inf":
        return sign * float("inf")
    if v == ".nan":
        return float("nan")
    return sign * (_base60(v, float) if ":" in v else float(v))


def _base60(text: str, cast):
    """A sexagesimal number (1:30 is 90), each part read by ``cast``."""
    total = cast(0)
    for part in text.split(":"):
        total = total * 60 + cast(part)
    return total


def view(lf, data: Any = None) -> Any:
    """``data`` (default ``lf.data``) as PyYAML reads the file ``lf``: a copy, every plain scalar re-read."""
    numbers = lf.text is not None and _NUMERIC_DIFF.search(lf.text) is not None
    return _walk(lf, lf.quoted or set(), numbers, lf.data if data is None else data, ())


def _walk(lf, quoted: set, numbers: bool, value: Any, path: tuple) -> Any:
    """(A module function, not a closure that calls itself: that would be a reference cycle holding ``lf``
    until the cyclic collector ran.)"""
    if isinstance(value, dict):
        return {k: _walk(lf, quoted, numbers, v, path + (k,)) for k, v in value.items()}
    if isinstance(value, list):
        return [_walk(lf, quoted, numbers, v, path + (i,)) for i, v in enumerate(value)]
    if isinstance(value, str) and path not in quoted:
        return resolve(value)
    if numbers and isinstance(value, (int, float)) and not isinstance(value, bool):
        token = _token(lf, path)
        return resolve(token) if token is not None else value
    return value


def _token(lf, path) -> str | None:
    """The source text of the plain scalar at ``path`` (None where it cannot be found)."""
    line, col = lf.position(path)
    if not line or not col:
        return None
    lines = lf.text.splitlines()
    if line > len(lines):
        return None
    m = re.match(r"[^\s,\]\}#]+", lines[line - 1][col - 1:])
    return m.group(0) if m else None
