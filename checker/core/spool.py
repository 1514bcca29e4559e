"""Texts kept on disk instead of in memory: a cohort's findings, encoded by the workers, wait there until
the JSON report is written (docs/performance.md, "Report memory").

A cohort's JSON report is mostly its units' findings, each unit's already encoded by the worker that found
them (``checker.core.json_text.findings_block``). Held as strings until the report is written, they would
double the parent's memory (the findings and their text); spooled as they arrive, the parent holds one
unit's text at a time. The spool is an anonymous temporary file (``tempfile.TemporaryFile``: unlinked, or
never named where the kernel offers ``O_TMPFILE``), so it leaves nothing behind whatever ends the process.
When it cannot be written (a full disk), a text simply stays in memory.
"""
from __future__ import annotations

import os


class TextSpool:
    """Append-only texts in one anonymous temporary file; ``add`` returns what to read them back with."""

    def __init__(self):
        self._file = None
        self._end = 0
        self._broken = False

    def add(self, text: str):
        """A ``Spooled`` handle for ``text`` (``str(handle)`` reads it back), or ``text`` itself when the
        spool cannot be written."""
        if self._broken:
            return text
        data = text.encode("utf-8", "surrogatepass")  # a lone surrogate in a JSON string survives
        try:
            if self._file is None:
                import tempfile

                self._file = tempfile.TemporaryFile(prefix="endpoints-checker-spool-")
            self._file.seek(self._end)
            self._file.write(data)
        except OSError:
            self._broken = True
            return text
        handle = Spooled(self, self._end, len(data))
        self._end += len(data)
        return handle

    def read(self, offset: int, length: int) -> str:
        self._file.flush()
        data = os.pread(self._file.fileno(), length, offset)
        return data.decode("utf-8", "surrogatepass")


class Spooled:
    """One spooled text: ``str(it)`` is the text."""

    __slots__ = ("spool", "offset", "length")

    def __init__(self, spool: TextSpool, offset: int, length: int):
        self.spool, self.offset, self.length = spool, offset, length

    def __str__(self) -> str:
        return self.spool.read(self.offset, self.length)
