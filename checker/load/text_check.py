"""What a loaded file holds that is not plain text, found where it is: strings and keys holding a lone
UTF-16 surrogate (JSON ``"\\ud800"``) or a NUL character (``"\\u0000"``, YAML ``"\\0"``), byte-order marks
(U+FEFF) inside the text or repeated at its start, and mapping keys that are not text (YAML ``5:``, ``.inf:``).

Such values are read as written (the rules see them) and each is noted for the ``text-characters``
warning. Cheap on the usual file: they can only come from an escape sequence (a raw NUL byte or a raw
surrogate is refused by the UTF-8 decoding before), so the text is first searched at C speed and only a
file holding a candidate is walked.
"""
from __future__ import annotations

import re
from typing import Any

#: escapes (and the raw character) that can put a surrogate, a NUL or a BOM into a JSON value
_JSON_SUSPECT = re.compile(r"\\u(?:0000|[dD][89a-fA-F]|[fF][eE][fF][fF])|\ufeff")
#: the same for YAML double-quoted scalars (\0, \x00, \u0000, \U00000000, \ud800, \ufeff)
_YAML_SUSPECT = re.compile(r"\\(?:0|x00|u0000|U00000000|u[dD][89a-fA-F]|u[fF][eE][fF][fF]|U0000[fF][eE][fF][fF])|\ufeff")
_SURROGATE = re.compile("[\ud800-\udfff]")
MAX_NOTES = 200  # notes kept per file (a file of a million NULs is named once per value up to here)


def _what(s: str) -> str | None:
    if "\x00" in s:
        return "a NUL character (U+0000)"
    m = _SURROGATE.search(s)
    if m is not None:
        return f"a lone UTF-16 surrogate (\\u{ord(m.group()):04x}): not a Unicode character"
    if "\ufeff" in s:
        return "a byte-order mark (U+FEFF) inside the text"
    return None


def key_words(key: Any) -> str:
    """A key that is not text, as the file spells it: ``5`` (a number), ``.inf``, ``true``, ``null``."""
    if key is None:
        return "`null` (null)"
    if isinstance(key, bool):
        return f"`{'true' if key else 'false'}` (a boolean)"
    if isinstance(key, float):
        if key != key:
            return "`.nan` (a number)"
        if key in (float("inf"), float("-inf")):
            return f"`{'-' if key < 0 else ''}.inf` (a number)"
        return f"`{key!r}` (a number)"
    if isinstance(key, int):
        text = str(key) if key.bit_length() < 200 else f"{str(key)[:20]}..."
        return f"`{text}` (a number)"
    return f"`{str(key)[:40]}`"


def notes(text: str, data: Any, is_json: bool, key_paths: list) -> list[tuple[tuple, str]]:
    """(path, what) for each non-text key (``key_paths``, from the YAML reader) and each string or key
    holding a NUL, a lone surrogate or a BOM; [] for the usual file, without walking it."""
    out = [(p, f"the key {key_words(p[-1])} is not text: keys are strings (quote it)") for p in key_paths[:MAX_NOTES]]
    if (_JSON_SUSPECT if is_json else _YAML_SUSPECT).search(text) is None:
        return out
    stack = [((), data)]
    while stack and len(out) < MAX_NOTES:
        path, node = stack.pop()
        if isinstance(node, str):
            what = _what(node)
            if what is not None:
                out.append((path, f"the string holds {what}"))
            continue
        for k in node if isinstance(node, dict) else ():
            what = _what(k) if isinstance(k, str) else None
            if what is not None:
                out.append((path + (k,), f"the key {k[:40]!r} holds {what}"))
        for k, v in node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ():
            if isinstance(v, (str, dict, list)):
                stack.append((path + (k,), v))
    return out[:MAX_NOTES]
