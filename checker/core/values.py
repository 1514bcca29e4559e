"""Reading a raw value out of parsed file data, and showing a value in a message: one definition each.

No project imports: the engine, the loaders and every rule family use these.
"""
from __future__ import annotations

import math
from typing import Any


class _Missing:
    """The marker for "no value at that path" where None (YAML null) is a value of its own."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()


def value_at(data: Any, path, default: Any = None) -> Any:
    """The value at ``path`` in parsed YAML/JSON ``data``, or ``default`` when there is none.

    A path step is a mapping key, or a list index ``0 <= i < len`` (an int, never a bool): the same
    paths the loaders record positions for. Anything else (a key on a list, an index on a mapping, a
    step into a scalar) finds nothing; this never raises.
    """
    cur = data
    for p in path:
        if isinstance(cur, dict):
            if p not in cur:
                return default
            cur = cur[p]
        elif isinstance(cur, list) and is_int(p) and 0 <= p < len(cur):
            cur = cur[p]
        else:
            return default
    return cur


def file_value(node: Any, kind: str, *path: Any, default: Any = None) -> Any:
    """The raw value at ``path`` in a node's file ``kind`` (``node.files[kind]``), or ``default`` when
    the node has no such file, it did not load, or holds nothing at ``path``."""
    lf = node.files.get(kind)
    if lf is None or not lf.ok:
        return default
    return value_at(lf.data, path, default)


def loaded_mapping(lf: Any) -> Any:
    """The LoadedFile when it is present, loaded and a mapping at the top (what a rule can read keys of, valid
    or not), else None; ``lf`` may be None (a node without that kind of file)."""
    return lf if lf is not None and lf.ok and isinstance(lf.data, dict) else None


def is_int(v: Any) -> bool:
    """An integer as the files write one: an int, never a bool (YAML's ``true`` is not 1)."""
    return isinstance(v, int) and not isinstance(v, bool)


def show(value: Any, limit: int = 60, quote: bool = True) -> str:
    """A value as a message shows it: bounded, and spelled the way the file writes it.

    ``null`` and ``NaN``/``infinity``/``-infinity`` (the files' spellings), ``True``/``False`` (as
    every report has shown booleans so far); numbers as written (an integer of more than ``limit``
    digits is cut); a string quoted (``quote``; a plain label otherwise) and cut at ``limit``
    characters; a mapping or list by its size, never its contents; ``missing`` for :data:`MISSING`.
    A tuple is several values, shown joined by ", ".

    This replaces four that disagreed: ``checker.load.models.brief`` (None as ``None``, NaN as
    ``nan``), the procedure rules' ``describe`` (``null``, ``NaN``), the seed rules' ``show``
    (``true``, strings cut at 40, containers without their size) and the power model's ``_brief``
    (None as ``nothing``, cut at 50).
    """
    if value is MISSING:
        return "missing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        s = str(value)
        return s if len(s) <= limit else s[:limit] + "..."
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "infinity" if value > 0 else "-infinity"
        return repr(value)
    if isinstance(value, str):
        s = value if len(value) <= limit else value[:limit] + "..."
        return repr(s) if quote else s
    if isinstance(value, dict):
        return f"a mapping of {len(value)} keys"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    if isinstance(value, tuple):
        return ", ".join(show(x, limit, quote) for x in value)
    return repr(value)[:limit]


def show_number(v: Any) -> str:
    """A computed number (a threshold, a mean, a derived metric) as a message shows it: a float to
    6 significant digits (one decimal from a million up), a whole float from 1,000 up with thousands
    separators, anything else as ``str``. A value read from a file, shown as written, is :func:`show`'s."""
    if isinstance(v, float) and v.is_integer() and abs(v) >= 1000:
        return f"{int(v):,}"
    if isinstance(v, float):
        return f"{v:.6g}" if abs(v) < 1e6 else f"{v:,.1f}"
    return str(v)
