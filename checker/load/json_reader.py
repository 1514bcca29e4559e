"""JSON submitter files: parsed by the C scanner under the loader's bounds, and values found in the text.

``parse_json`` refuses (never raises) duplicate keys, syntax errors, nesting deeper than MAX_DEPTH,
over-long integers and files over the value budget, each with a position when one is known.
``locate_json`` finds where one value starts in a large file without a map of every value.
"""
from __future__ import annotations

import json
import re
from typing import Any

from checker.core.values import is_int
from checker.load.yaml_reader import MAX_DEPTH, MAX_INT_DIGITS, MAX_VALUES

_JSON_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")


def locate_json(text: str, path: tuple) -> int | None:
    """Index in ``text`` (a JSON document already parsed and checked) where the value at ``path`` starts,
    or None when there is no such value. Skipped values are decoded by the C scanner and dropped."""
    from json.decoder import scanstring

    ws = _WS.match
    n = len(text)
    try:
        idx = ws(text, 0).end()
        for step in path:
            if idx >= n:
                return None
            c = text[idx]
            if c == "{" and isinstance(step, str):
                idx = ws(text, idx + 1).end()
                while True:
                    if idx >= n or text[idx] != '"':
                        return None
                    key, idx = scanstring(text, idx + 1)
                    idx = ws(text, idx).end() + 1  # the colon
                    idx = ws(text, idx).end()
                    if key == step:
                        break
                    _, idx = _JSON_DECODER.raw_decode(text, idx)
                    idx = ws(text, idx).end()
                    if idx >= n or text[idx] != ",":
                        return None
                    idx = ws(text, idx + 1).end()
            elif c == "[" and is_int(step) and step >= 0:
                idx = ws(text, idx + 1).end()
                for _ in range(step):
                    if idx >= n or text[idx] == "]":
                        return None
                    _, idx = _JSON_DECODER.raw_decode(text, idx)
                    idx = ws(text, idx).end()
                    if idx >= n or text[idx] != ",":
                        return None
                    idx = ws(text, idx + 1).end()
                if idx >= n or text[idx] == "]":
                    return None
            else:
                return None
        return idx
    except (ValueError, RecursionError):
        return None


class _DupKey(Exception):
    pass


def _pairs_hook(pairs: list) -> dict:
    d = dict(pairs)
    if len(d) != len(pairs):
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _DupKey(k)
            seen.add(k)
    return d


def parse_json(text: str, max_values: int | None = MAX_VALUES, hook=None,
               counted: list | None = None) -> tuple[Any, tuple | None]:
    """(values, None), or (None, (code, message, line, column)): a refusal the loader reports. ``hook``: called
    with each object's dict (duplicate keys already refused) as it is built, its result kept instead (a
    reader that keeps a compact form of each record never holds the whole tree, ``--baseline``)."""
    if not text.strip():
        return None, ("parse-error", "the file is empty" if not text else "the file holds only whitespace", 1, 1)
    pairs_hook = _pairs_hook if hook is None else (lambda pairs: hook(_pairs_hook(pairs)))
    try:
        data = json.loads(text, object_pairs_hook=pairs_hook)
    except _DupKey as exc:
        key = str(exc.args[0])[:60]
        return None, ("duplicate-key", f"duplicate key {key!r}", *_find_key(text, key))
    except json.JSONDecodeError as exc:
        return None, ("parse-error", f"JSON syntax error: {exc.msg}", exc.lineno, exc.colno)
    except RecursionError:
        return None, ("nesting-too-deep", f"nesting deeper than {MAX_DEPTH} levels", None, None)
    except ValueError as exc:  # e.g. Python's 4300-digit int limit
        msg = str(exc)
        if "digit" in msg:
            return None, ("integer-too-long", f"integer too long: {msg[:120]}", None, None)
        return None, ("parse-error", msg[:200], None, None)
    problem = check_tree(data, max_values, counted)
    if problem is not None:
        return None, problem
    return data, None


_INT_BITS = int("9" * MAX_INT_DIGITS).bit_length()


def check_tree(data: Any, max_values: int | None = MAX_VALUES, counted: list | None = None) -> tuple | None:
    """Iteratively enforce the depth, integer-length and value-count limits on an already parsed JSON tree:
    None, or the refusal (code, message, line, column)."""
    stack = [(data, 0)]
    values = 1
    limit = max_values if max_values is not None else float("inf")
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            values += len(node)
            if values > limit:
                return ("file-too-large", f"more than {max_values} values (the limit per file)", None, None)
        if isinstance(node, dict):
            if depth >= MAX_DEPTH:
                return ("nesting-too-deep", f"nesting deeper than {MAX_DEPTH} levels", None, None)
            for v in node.values():
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1))
                elif type(v) is int and v.bit_length() > _INT_BITS - 1 and len(str(abs(v))) > MAX_INT_DIGITS:
                    return ("integer-too-long", f"integer with more than {MAX_INT_DIGITS} digits", None, None)
        elif isinstance(node, list):
            if depth >= MAX_DEPTH:
                return ("nesting-too-deep", f"nesting deeper than {MAX_DEPTH} levels", None, None)
            for v in node:
                if isinstance(v, (dict, list)):
                    stack.append((v, depth + 1))
                elif type(v) is int and v.bit_length() > _INT_BITS - 1 and len(str(abs(v))) > MAX_INT_DIGITS:
                    return ("integer-too-long", f"integer with more than {MAX_INT_DIGITS} digits", None, None)
    if counted is not None:
        counted.append(values)
    return None


def _find_key(text: str, key: str) -> tuple[int | None, int | None]:
    needle = json.dumps(key)
    first = text.find(needle)
    second = text.find(needle, first + 1) if first >= 0 else -1
    if second < 0:
        return (None, None)
    line = text.count("\n", 0, second) + 1
    col = second - (text.rfind("\n", 0, second) + 1) + 1
    return line, col
