"""The draft's entries as YAML text: block style, a provenance comment after each value, placeholders marked."""
from __future__ import annotations

import json
import math
import re

from checker.core.fixes import yaml_token
from checker.core.spellings import PLAIN_UNSAFE_WORDS

_PLAIN = re.compile(r"^[A-Za-z_/][A-Za-z0-9_ .,()/:+@-]*$")


def scalar(v) -> str:
    """A value as YAML reads it back exactly (strings quoted unless plainly text)."""
    if v is None:
        return "null"
    if isinstance(v, (bool, int)) or (isinstance(v, float) and math.isfinite(v)):
        return yaml_token(v)
    if isinstance(v, float):
        return json.dumps(str(v))
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(scalar(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{scalar(str(k))}: {scalar(x)}" for k, x in v.items()) + "}"
    s = str(v)
    if (_PLAIN.match(s) and s.lower() not in PLAIN_UNSAFE_WORDS and ": " not in s and " #" not in s and not s.endswith(":")
            and s == s.strip()):
        return s
    return json.dumps(s, ensure_ascii=False)


def render(entries, header: list[str]) -> str:
    lines = [f"# {h}" if h else "#" for h in header]
    _lines(entries, 0, lines)
    return "\n".join(lines) + "\n"


def _lines(entries, depth: int, out: list[str]) -> None:
    pad = "  " * depth
    for e in entries:
        note = f"  # {e.note}" if e.note else ""
        if e.kind == "comment":
            out.append(f"{pad}# {e.value}")
        elif e.kind == "commented":
            out.append(f"{pad}# {e.key}: {e.value}")
        elif e.kind == "block":
            if not e.children:
                continue
            out.append(f"{pad}{e.key}:{note}")
            _lines(e.children, depth + 1, out)
        else:
            out.append(f"{pad}{e.key}: {scalar(e.value)}{note}")


def count(entries) -> tuple[int, int]:
    """(values the run folder gave, placeholders to fill in)."""
    given = fills = 0
    for e in entries:
        if e.kind == "block":
            g, f = count(e.children)
            given, fills = given + g, fills + f
        elif e.kind in ("fill", "commented"):
            fills += 1
        elif e.kind == "value":
            given += 1
    return given, fills
