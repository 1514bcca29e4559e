"""The marked placeholder ``draft`` writes where only a person can make the disclosure: ``<FILL: what>``.

One spelling, read the same way by the drafter (checker.draft) and by the rule that reports an unfilled
one (``draft-placeholder``): a line of a hand-written file holding ``<FILL:`` holds a placeholder, in a
value (``link_to_model: "<FILL: a link to the model>"``) or in a commented line standing for a field
whose type a string cannot take (``# max_supported_concurrency: <FILL: C_max>``).
"""
from __future__ import annotations

import re

MARK = "<FILL:"
_FOUND = re.compile(r"<FILL:\s*([^>\n]*)>?")


def placeholder(what: str) -> str:
    """The placeholder text asking for ``what``."""
    return f"{MARK} {what}>"


def find(text: str | None) -> list[tuple[int, int, str, str]]:
    """(line, column, the key on that line or "", what it asks for) of each placeholder in ``text``."""
    if not text or MARK not in text:
        return []
    out = []
    for i, line in enumerate(text.split("\n"), 1):
        for m in _FOUND.finditer(line):
            head = line[:m.start()].lstrip(" \t#-").split(":", 1)[0].strip().strip("'\"")
            out.append((i, m.start() + 1, head, m.group(1).strip()))
    return out
