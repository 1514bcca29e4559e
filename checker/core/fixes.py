"""A fix as data: what a rule asks to change in a file it read, and the exact text edit it becomes.

A rule attaches ``Edit`` values to its outcome (pure: the file it read, the data path, the value it
saw, the text to write). The engine resolves each one against the file's retained text into a
``TextEdit`` (``checker.fix.locate``): the exact span, the text there now, the text to put there and a
digest of the file as it was read, so the fix engine (``checker.fix``) applies it without deriving
anything again. Neither type knows the file models: a fix is about text and data paths only.
"""
from __future__ import annotations

from typing import Any

import msgspec

#: what an edit changes: a mapping key's name, a scalar value, a new key of a mapping, a leading BOM
PARTS = ("key", "value", "insert", "bom")
#: the file kinds a fix may edit: the ones the submitter writes by hand. What the client wrote
#: (config.yaml, result_summary.json, accuracy results, logs) is the record of what ran: never edited.
FIXABLE_KINDS = ("point_yaml", "system_desc")


def fixable_file(lf) -> bool:
    """A loaded file a fix may edit: a hand-written kind, read whole with its text kept."""
    return (lf is not None and getattr(lf, "kind", None) in FIXABLE_KINDS and getattr(lf, "ok", False)
            and getattr(lf, "text", None) is not None)


class Edit(msgspec.Struct, frozen=True):
    """A rule's request: at ``path`` in ``file``, write ``new`` (a YAML/JSON token or key name).

    ``part``: ``key`` renames the key at ``path`` to ``new``; ``value`` replaces the scalar at ``path``
    (which must still read as ``old``) with ``new``, read back as ``value``; ``insert`` adds the key
    ``path[-1]`` with the token ``new`` to the mapping at ``path[:-1]`` (after the key ``after`` when it is
    there); ``bom`` drops a leading byte-order mark. ``plain``: write ``new`` as it is (a number, a
    boolean), else keep the quoting the file used for the old value."""

    file: Any  # the LoadedFile the rule read (resolved by the engine, never stored in a report)
    path: tuple
    part: str
    new: str = ""
    old: Any = None  # the value (or key) the rule saw there
    value: Any = None  # what ``new`` reads as (checked after the edit: the file then says exactly this)
    plain: bool = True
    after: str | None = None


class TextEdit(msgspec.Struct, frozen=True):
    """One resolved edit: replace ``text[start:end]`` (which is ``old``) with ``new``.

    Offsets count characters of the file's text as decoded (a byte-order mark, when there is one, is
    character 0); lines and columns are 1-based, columns in characters after the mark (as editors
    show them), the end exclusive. ``digest`` is the SHA-256 of the file's bytes as the check read
    them: a file that no longer has it is never touched. ``path``, ``part`` and ``value`` say what the
    edit means, so a fix engine can check the edited file reads as intended."""

    file: str  # display path, as the report shows it
    abspath: str
    start: int
    end: int
    old: str
    new: str
    start_line: int
    start_column: int
    end_line: int
    end_column: int
    digest: str
    path: tuple = ()
    part: str = "value"
    value: Any = None
    #: the rule's request with its file left out (to resolve it again in another copy of the file)
    intent: Edit | None = None
    #: aliases of the edited anchor that read the new value too (their paths)
    also: tuple = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "path": list(self.path),
            "start": {"line": self.start_line, "column": self.start_column, "offset": self.start},
            "end": {"line": self.end_line, "column": self.end_column, "offset": self.end},
            "old": self.old,
            "new": self.new,
            "file_sha256": self.digest,
        }

    def key(self) -> tuple:
        """Identity of the change (the same edit reached through two findings is applied once)."""
        return (self.abspath, self.start, self.end, self.new)


def yaml_token(value: Any) -> str:
    """The plain YAML (and JSON) spelling of an integer or boolean value a fix writes."""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    raise TypeError(f"no plain token for {type(value).__name__}")
