"""Finding and edit positions (1-based lines, columns in characters) as LSP positions (0-based, in the
client's position encoding: UTF-16 code units unless it asked for UTF-32 or UTF-8)."""
from __future__ import annotations

import re

from lsprotocol import types


class Text:
    """The lines of one file as the check read it (an editor's buffer, else the text on disk)."""

    __slots__ = ("lines", "bom", "encoding")

    def __init__(self, text: str | None, encoding: str = "utf-16"):
        self.bom = bool(text) and text.startswith("\ufeff")
        self.lines = (text or "").split("\n")
        self.encoding = encoding

    def line(self, i: int) -> str:
        return self.lines[i].rstrip("\r") if 0 <= i < len(self.lines) else ""

    def position(self, line0: int, ch: int) -> types.Position:
        """A code-point position -> the client's units (clamped to the line)."""
        text = self.line(line0)
        ch = max(0, min(ch, len(text)))
        head = text[:ch]
        if self.encoding == "utf-32":
            n = ch
        elif self.encoding == "utf-8":
            n = len(head.encode("utf-8", "surrogatepass"))
        else:
            n = ch + sum(1 for c in head if ord(c) > 0xFFFF)
        return types.Position(line=max(0, line0), character=n)

    def char(self, line1: int, col1: int) -> tuple[int, int]:
        """(0-based line, code-point index in that line) of a 1-based (line, column) counted after a BOM."""
        line0, ch = line1 - 1, col1 - 1
        if line0 == 0 and self.bom:
            ch += 1
        return line0, ch

    def finding_range(self, line1: int | None, col1: int | None) -> types.Range:
        """The token at (line, column) to its end on that line; no line: the whole first line."""
        if not line1:
            first = self.line(0)
            return types.Range(self.position(0, 1 if self.bom else 0), self.position(0, len(first)))
        line0, ch = self.char(line1, col1 or 1)
        text = self.line(line0)
        if ch >= len(text.rstrip()):
            start = len(text) - len(text.lstrip())
            return types.Range(self.position(line0, start), self.position(line0, len(text.rstrip())))
        return types.Range(self.position(line0, ch), self.position(line0, token_end(text, ch)))

    def edit_range(self, sl: int, sc: int, el: int, ec: int) -> types.Range:
        return types.Range(self.position(*self.char(sl, sc)), self.position(*self.char(el, ec)))


def token_end(line: str, ch: int) -> int:
    """Where the scalar starting at ``ch`` ends: a quoted string at its closing quote, a flow collection at the
    end of the line, a plain value before a comment (YAML) or a trailing comma (JSON), a plain key at its colon."""
    rest = line[ch:]
    q = rest[0]
    if q in "\"'":
        i = 1
        while i < len(rest):
            if q == '"' and rest[i] == "\\":
                i += 2
                continue
            if rest[i] == q:
                if q == "'" and rest[i + 1:i + 2] == "'":
                    i += 2
                    continue
                return ch + i + 1
            i += 1
        return ch + len(rest.rstrip())
    if q in "{[":
        return ch + len(rest.rstrip())
    cut = rest.find(" #")
    if cut >= 0:
        rest = rest[:cut]
    colon = re.search(r":(\s|$)", rest)  # a plain mapping key (a plain scalar never holds ": ") ends at its colon
    if colon is not None:
        rest = rest[:colon.start()]
    rest = rest.rstrip().rstrip(",").rstrip()
    return ch + max(len(rest), 1)
