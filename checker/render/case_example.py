"""A rule case's patches as what a submitter writes: the YAML or JSON lines of each file it changes.

``explain`` shows a rule's passing and failing examples from its cases (so they stay true); a case is a
base package plus patches in the suite's patch language (tests/support/casefixtures.py). Here each patch
becomes the file's own text: ``set`` the nested keys down to the value (``- `` for a list item, JSON for a
.json file), ``sub``/``write``/``append`` the text written, the others one plain line.
"""
from __future__ import annotations

import json

from checker.render.as_written import flow

#: how a case's path placeholders read to a submitter
_PLACES = (("{curve}/", ""), ("{system}/", "<system>/"), ("{system_name}", "<system>"), ("{model_name}", "<model>"))
MAX_TEXT_LINES = 12


def where(path: str) -> str:
    """A case's file path as the submitter sees it: ``{curve}/r64/point.yaml`` -> ``r64/point.yaml``."""
    for mark, shown in _PLACES:
        path = path.replace(mark, shown)
    return path


def _nested(path: list, value):
    """The value wrapped in the mappings and list items ``path`` names (a list item: a one-item list)."""
    for step in reversed(path):
        value = [value] if isinstance(step, int) else {step: value}
    return value


def _yaml(v, indent: int = 0, items: list | None = None) -> list[str]:
    """Block YAML of ``v``; ``items`` gives each list's item number (1-based), shown as a comment."""
    pad = "  " * indent
    if isinstance(v, dict) and v:
        out = []
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{flow(str(k))}:")
                out += _yaml(x, indent + (0 if isinstance(x, list) else 1), items)
            else:
                out.append(f"{pad}{flow(str(k))}: {flow(x)}")
        return out
    if isinstance(v, list) and v:
        out = []
        for x in v:
            note = f"  # item {items.pop(0)}" if items else ""
            inner = _yaml(x, indent + 1, items) if isinstance(x, (dict, list)) and x else [f"{pad}  {flow(x)}"]
            out.append(f"{pad}- {inner[0].strip()}{note}")
            out += inner[1:]
        return out
    return [f"{pad}{flow(v)}"]


def _set_lines(path: list, value, is_json: bool) -> list[str]:
    items = [s + 1 for s in path if isinstance(s, int)]
    doc = _nested(list(path), value)
    if is_json:
        head = [f"(item {', '.join(map(str, items))} of its list)"] if items else []
        return head + json.dumps(doc, indent=2, ensure_ascii=False).splitlines()
    return _yaml(doc, 0, list(items))


def _text_lines(text: str) -> list[str]:
    lines = text.rstrip("\n").split("\n")
    if len(lines) > MAX_TEXT_LINES:
        lines = lines[:MAX_TEXT_LINES] + [f"... ({len(lines) - MAX_TEXT_LINES} more lines)"]
    return lines


def written(op: dict) -> list[str]:
    """One patch of a case as the lines a submitter would see in the file (a heading, then the text)."""
    if not isinstance(op, dict) or len(op) != 1:
        return [f"{flow(op)}"]
    (kind, arg), = op.items()
    arg = arg if isinstance(arg, dict) else {"file": arg}
    f = where(str(arg.get("file") or arg.get("path") or ""))
    if kind == "set":
        return [f"in {f}:"] + ["  " + ln for ln in _set_lines(arg.get("path") or [], arg.get("value"),
                                                              f.endswith(".json"))]
    if kind == "delete":
        return [f"in {f}: no `{'.'.join(str(s) for s in arg.get('path') or [])}`"]
    if kind == "write":
        if "text" not in arg:
            return [f"{f}: bytes that are not text ({arg.get('bytes_hex', '')[:16]}...)"]
        return [f"{f} holds:"] + ["  " + ln for ln in _text_lines(arg["text"])]
    if kind == "append":
        return [f"at the end of {f}:"] + ["  " + ln for ln in _text_lines(str(arg.get("text", "")))]
    if kind == "sub":
        repl = str(arg.get("repl", ""))
        if not repl.strip():
            return [f"in {f}: the lines matching `{arg.get('pattern')}` left out"]
        return [f"in {f}, written as:"] + ["  " + ln for ln in _text_lines(repl)]
    if kind == "remove":
        return [f"no {f}"]
    if kind in ("copy", "move"):
        return [f"{where(str(arg.get('from')))} {'copied' if kind == 'copy' else 'moved'} to {where(str(arg.get('to')))}"]
    if kind == "mkdir":
        return [f"a directory {f}"]
    if kind == "symlink":
        return [f"{where(str(arg.get('link')))} is a symlink to {arg.get('target')}"]
    if kind == "mkfifo":
        return [f"{f} is a FIFO (a named pipe), not a file"]
    if kind == "chmod":
        return [f"{f} with mode {oct(int(arg.get('mode', 0)))}"]
    if kind == "truncate":
        return [f"{f} cut to {arg.get('bytes')} bytes"]
    return [f"{kind}: {flow(arg)}"]
