"""Text edits applied in memory: one file's edits merged, applied, read back, and shown as a diff.

Nothing here touches the file system. ``merge`` keeps one copy of an edit reached through several
findings and drops edits that overlap with a different change (neither is certain then);
``apply_edits`` rewrites only the spans; ``reads_as_intended`` parses the result with the check's own
readers and requires exactly the intended data (every other value unchanged, types included), so a
span that was not what the locator thought can never be written.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable

import msgspec

from checker.core.fixes import TextEdit
from checker.core.values import MISSING, value_at
from checker.fix.locate import same


def merge(edits: Iterable[TextEdit]) -> tuple[list[TextEdit], list[TextEdit]]:
    """(the edits to apply, sorted by position; the ones dropped because they overlap another change)."""
    unique: dict = {}
    for e in edits:
        seen = unique.get(e.key())
        if seen is None:
            unique[e.key()] = e
        elif set(e.also) - set(seen.also):  # the same edit, found with more of its anchor's aliases
            unique[e.key()] = msgspec.structs.replace(seen, also=tuple(dict.fromkeys(seen.also + e.also)))
    ordered = sorted(unique.values(), key=lambda e: (e.start, e.end, e.new))
    keep: list[TextEdit] = []
    dropped: list[TextEdit] = []
    for e in ordered:
        clash = [k for k in keep if _overlap(k, e)]
        if clash:
            dropped.append(e)
            for k in clash:
                keep.remove(k)
                dropped.append(k)
        else:
            keep.append(e)
    return keep, dropped


def _overlap(a: TextEdit, b: TextEdit) -> bool:
    if a.start == a.end == b.start == b.end:
        return True  # two insertions at one place: their order would be a guess
    return a.start < b.end and b.start < a.end or (a.start == a.end and b.start < a.start < b.end) or (
        b.start == b.end and a.start < b.start < a.end)


def apply_edits(text: str, edits: list[TextEdit]) -> str:
    """``text`` with each span replaced (edits sorted and non-overlapping, as ``merge`` returns them)."""
    out, pos = [], 0
    for e in edits:
        if text[e.start:e.end] != e.old:
            raise ValueError(f"{e.file}: the text at {e.start_line}:{e.start_column} is no longer {e.old!r}")
        out.append(text[pos:e.start])
        out.append(e.new)
        pos = e.end
    out.append(text[pos:])
    return "".join(out)


def _parse(text: str, is_json: bool) -> tuple[bool, Any]:
    from checker.load.json_reader import parse_json
    from checker.load.yaml_reader import YamlLoadError, parse_yaml

    body = text[1:] if text.startswith("\ufeff") else text
    if is_json:
        data, refusal = parse_json(body)
        return refusal is None, data
    try:
        return True, parse_yaml(body, want_positions=False).data
    except YamlLoadError:
        return False, None


def _parent(data: Any, path: tuple) -> Any:
    """The container holding ``path``'s last step, or MISSING."""
    return value_at(data, path[:-1], MISSING)


def _set(data: Any, path: tuple, value: Any) -> bool:
    cur = _parent(data, path)
    if isinstance(cur, dict):
        cur[path[-1]] = value
        return True
    if isinstance(cur, list) and isinstance(path[-1], int) and 0 <= path[-1] < len(cur):
        cur[path[-1]] = value
        return True
    return False


def _rename(data: Any, path: tuple, new: str) -> bool:
    cur = _parent(data, path)
    if not isinstance(cur, dict) or path[-1] not in cur or new in cur:
        return False
    items = list(cur.items())
    cur.clear()
    for k, v in items:
        cur[new if k == path[-1] else k] = v
    return True


def intended(data: Any, edits: list[TextEdit]) -> tuple[bool, Any]:
    """The data the file should hold after ``edits``: values set and keys added first (their paths name
    the keys as they are now), then keys renamed, deepest first."""
    out = copy.deepcopy(data)
    ok = True
    for e in edits:
        if e.part in ("value", "insert"):
            ok = _set(out, e.path, e.value) and ok
            for alias in e.also:
                ok = _set(out, alias, e.value) and ok
    for e in sorted((e for e in edits if e.part == "key"), key=lambda e: -len(e.path)):
        ok = _rename(out, e.path, e.value) and ok
    return ok, out


def reads_as_intended(old_text: str, new_text: str, edits: list[TextEdit], is_json: bool) -> bool:
    """True when ``new_text`` parses, with the check's readers, to exactly what ``edits`` intend."""
    ok_old, old = _parse(old_text, is_json)
    ok_new, new = _parse(new_text, is_json)
    if not (ok_old and ok_new):
        return False
    ok, want = intended(old, edits)
    if not ok or not same(want, new):
        return False
    if any(e.part == "bom" for e in edits) and new_text.startswith("\ufeff"):
        return False
    return True


def unified_diff(rel: str, old: str, new: str) -> str:
    """A unified diff (``a/REL``, ``b/REL``) that ``patch -p1`` and ``git apply`` apply: line endings as in
    the file, and the marker for a last line without one."""
    import difflib

    a, b = _lines(old), _lines(new)
    out = []
    for line in difflib.unified_diff(a, b, f"a/{rel}", f"b/{rel}", n=3):
        if line.startswith(("---", "+++")):
            out.append(line.rstrip("\r\n") + "\n")
        elif line.endswith("\n"):
            out.append(line)
        else:
            out.append(line + "\n\\ No newline at end of file\n")
    return "".join(out)


def _lines(text: str) -> list[str]:
    """Lines ending at a newline, as diff and patch count them (``splitlines`` would also break at a lone
    CR, NEL, LS or PS, which are characters of a line to them)."""
    out = text.split("\n")
    last = out.pop()
    lines = [ln + "\n" for ln in out]
    if last:
        lines.append(last)
    return lines
