"""Read every submitter file once, safely, into plain values plus a source map.

Refusals (each becomes a FAIL finding of its own rule id, never an exception):
special files (FIFO, device, directory), symlinks that loop or leave the submission root,
unreadable files, files over the size cap, non-UTF-8 or binary content, nesting deeper than 64,
YAML alias expansion over budget, duplicate keys, integers longer than 64 digits, syntax errors.

YAML goes through ``checker.load.yaml_reader`` (positions recorded while parsing). JSON goes through
``checker.load.json_reader`` (the C ``json`` scanner, for speed); its positions are recovered lazily, only
when a finding needs one, by running the YAML reader over the retained text (JSON is YAML 1.2).
"""
from __future__ import annotations

import os
import stat
from typing import Any

import msgspec

from checker.core.values import value_at
from checker.load import yaml_reader as yamlread
from checker.load.json_reader import locate_json, parse_json
from checker.load.yaml_reader import MAX_VALUES, YamlLoadError

DEFAULT_MAX_BYTES = 8 * 1024 * 1024

#: loader refusal code -> rule id reporting it. "parse-error" maps to the file kind's own rule.
REFUSAL_RULES = {
    "file-unreadable": "file-unreadable",
    "symlink-escape": "symlink-escape",
    "file-too-large": "file-too-large",
    "file-encoding": "file-encoding",
    "nesting-too-deep": "nesting-too-deep",
    "alias-budget": "alias-budget",
    "duplicate-key": "duplicate-key",
    "integer-too-long": "integer-too-long",
}


class LoadError(msgspec.Struct):
    code: str
    message: str
    line: int | None = None
    column: int | None = None


class LoadedFile(msgspec.Struct):
    """One submitter file: where it is, whether it loaded, its values and their positions."""

    kind: str  # point_yaml, system_desc, result_summary, accuracy, config, power, ...
    rel: str  # path relative to the checked root (display form)
    abspath: str
    exists: bool = False
    error: LoadError | None = None
    data: Any = None
    text: str | None = None
    is_json: bool = False
    _positions: dict | None = None
    model: Any = None  # typed model (pydantic, checker.load.models) when the kind has one
    field_errors: list = msgspec.field(default_factory=list)  # model validation problems (FieldProblem)
    spellings: list = msgspec.field(default_factory=list)  # non-plain spellings read as their value (filemodels.spelling)
    _located: dict | None = None  # large JSON files: path -> position, found by walking the text
    bom: bool = False  # the file started with a UTF-8 byte-order mark (not part of ``text``)
    #: (path, what) of each value that is not plain text: a key that is not a string, a NUL, a lone
    #: surrogate, a byte-order mark (checker.load.text_check; the text-characters warning)
    text_notes: list = msgspec.field(default_factory=list)
    #: YAML: the path of each string value not written as a plain scalar (quoted, block or tagged), as the
    #: parser reported its style; a quoted 'yes' is a string in YAML 1.1 too (checker.load.models.spelling)
    quoted: set = msgspec.field(default_factory=set)

    @property
    def ok(self) -> bool:
        return self.exists and self.error is None

    def position(self, path: tuple = ()) -> tuple[int | None, int | None]:
        """1-based (line, column) of the value at ``path``, or of its nearest existing parent."""
        if self.error is not None and not path:
            return self.error.line, self.error.column
        if self._positions is None and self.text is not None and len(self.text) > LOCATE_ABOVE:
            return self._located_position(tuple(path))
        if self._positions is None:
            self._positions = {}
            if self.text is not None:
                try:
                    self._positions = yamlread.parse_yaml(self.text).positions
                except YamlLoadError:
                    self._positions = {}
        path = tuple(path)
        while True:
            pos = self._positions.get(path)
            if pos is not None:
                return pos
            if not path:
                return (1, 1) if self.exists else (None, None)
            path = path[:-1]

    def _located_position(self, path: tuple) -> tuple[int | None, int | None]:
        """A large file: find ``path`` alone instead of mapping every value (about 250 bytes each). JSON
        walks the text, skipping siblings at the C decoder's speed; YAML parses only up to the value."""
        if self._located is None:
            self._located = {}
        cache = self._located
        text = self.text
        while True:
            if path in cache:
                return cache[path]
            if self.is_json:
                idx = locate_json(text, path)
                pos = None if idx is None else (text.count("\n", 0, idx) + 1, idx - (text.rfind("\n", 0, idx) + 1) + 1)
            else:
                pos = yamlread.locate_yaml(text, path)
            if pos is not None:
                cache[path] = pos
                return pos
            if not path:
                return (1, 1)
            path = path[:-1]

    def get(self, *path: Any, default: Any = None) -> Any:
        """Raw value lookup by path (``checker.core.values.value_at``); ``default`` when absent or the
        file did not load."""
        return value_at(self.data, path, default)


#: a file longer than this (characters) finds each position on its own, never by a map of every value
LOCATE_ABOVE = 256 * 1024

class Reads:
    """What one check reads besides the disk, passed in by whoever runs it (``RunConfig.reads``, down the
    loaders on ``Options.reads``): ``overlay``, texts standing in for files (real path -> bytes: the fixed
    texts ``check --fix``/``--diff`` checks again before anything is written, or an editor's unsaved buffers),
    read only for a file that exists on disk, under the same cap; and ``cache``, parsed files reused between
    checks (``checker.load.parse_cache.ParseCache``: a long-lived process's, the language server's). The
    plain one, :data:`DISK`, reads the disk and parses every file."""

    __slots__ = ("overlay", "cache")

    def __init__(self, overlay: dict | None = None, cache=None) -> None:
        self.overlay = overlay or {}
        self.cache = cache

    def overlaid(self, abspath: str) -> bytes | None:
        """The text standing in for the file at ``abspath``, else None."""
        if not self.overlay:
            return None
        return self.overlay.get(os.path.realpath(abspath))


#: what a check reads without an overlay or a cache: the files on disk, each parsed
DISK = Reads()


#: values all the files of one unit (a submission, a run folder) may hold: a real submission of 64 points
#: holds about 160,000 (YAML about 40,000). They bound a unit's memory (about 100 bytes a value) and time
#: (YAML parses at about 3 µs a value, JSON at 0.1 µs) whatever the number of files near the size cap
MAX_UNIT_VALUES = 2_000_000
MAX_UNIT_YAML_VALUES = 500_000


class LoadBudget:
    """What the files of one unit may still hold; a file past it is refused (file-too-large), never parsed whole."""

    def __init__(self, values: int = MAX_UNIT_VALUES, yaml_values: int = MAX_UNIT_YAML_VALUES):
        self.values = values
        self.yaml_values = yaml_values

    def limit(self, is_json: bool) -> int:
        return self.values if is_json else min(self.values, self.yaml_values)

    def spend(self, n: int, is_json: bool) -> None:
        self.values -= n
        if not is_json:
            self.yaml_values -= n

    def refusal(self, is_json: bool) -> LoadError:
        what = "JSON/YAML" if is_json or self.values <= self.yaml_values else "YAML"
        total = MAX_UNIT_VALUES if what == "JSON/YAML" else MAX_UNIT_YAML_VALUES
        return LoadError("file-too-large", f"not read whole: this unit's {what} files hold more than {total:,} values "
                                           "in all (the checker's limit per submission or run folder)")


def missing(kind: str, rel: str, abspath: str) -> LoadedFile:
    return LoadedFile(kind=kind, rel=rel, abspath=abspath, exists=False)


def entry_problem(abspath: str, root_real: str, parent_real: str | None = None, lst=None) -> LoadError | None:
    """Check a path (file or directory entry) for symlink loops/escapes without following blindly.
    ``parent_real``: its directory's real path when the caller has resolved it already (the files of
    one point share it), so it is not resolved again per file; ``lst``: its ``os.lstat`` when taken."""
    try:
        st = lst if lst is not None else os.lstat(abspath)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return LoadError("file-unreadable", f"cannot stat: {exc.strerror or exc}")
    if stat.S_ISLNK(st.st_mode):
        try:
            real = os.path.realpath(abspath, strict=True)
        except OSError as exc:
            what = "symlink loop" if "loop" in str(exc).lower() or exc.errno == 40 else "dangling symlink"
            return LoadError("file-unreadable", f"{what}: {os.readlink(abspath)[:200]!r}")
        if not _inside(real, root_real):
            return LoadError(
                "symlink-escape",
                f"symlink resolves outside the submission root (to {real[:200]})",
            )
        parent_real = parent_real or os.path.realpath(os.path.dirname(abspath))
        if os.path.isdir(real) and _inside(parent_real, real):
            return LoadError("file-unreadable", "symlink cycle: points at one of its own parent directories")
        return None
    # the entry is no symlink, but a directory on its way may be (a run folder's performance/ -> /etc)
    parent_real = parent_real or os.path.realpath(os.path.dirname(abspath))
    if not _inside(parent_real, root_real):
        return LoadError("symlink-escape",
                         f"a directory on its path resolves outside the checked root (to {parent_real[:200]})")
    return None


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def read_file(kind: str, rel: str, abspath: str, root_real: str, max_bytes: int = DEFAULT_MAX_BYTES,
              max_values: int | None = MAX_VALUES, as_json: bool | None = None,
              parent_real: str | None = None, json_hook=None, budget: LoadBudget | None = None,
              post=None, reads: Reads = DISK) -> LoadedFile:
    """Load one YAML/JSON file by extension; every failure is recorded, nothing is raised. ``max_values``
    bounds the values (nodes) one file may hold (None: only the byte cap bounds them); ``parent_real``
    as for ``entry_problem``; ``json_hook`` as for ``json_reader.parse_json``; ``budget``: the values the
    unit's files may still hold (spent by this file); ``post``: what completes the file once read
    (``attach_model``): with it, the completed file may be reused from ``reads.cache`` when its bytes are
    the same as last time; ``reads``: the overlay and parse cache of the check (``Reads``)."""
    lf = LoadedFile(kind=kind, rel=rel, abspath=abspath)
    try:
        st = os.lstat(abspath)
    except FileNotFoundError:
        return lf
    except OSError as exc:
        lf.exists = True
        lf.error = LoadError("file-unreadable", f"cannot stat: {exc.strerror or exc}")
        return lf
    lf.exists = True
    problem = entry_problem(abspath, root_real, parent_real, st)
    if problem is not None:
        lf.error = problem
        return lf
    if stat.S_ISLNK(st.st_mode):  # what it points at (inside the root, checked above)
        try:
            st = os.stat(abspath)
        except OSError as exc:
            lf.error = LoadError("file-unreadable", f"cannot stat: {exc.strerror or exc}")
            return lf
    if not stat.S_ISREG(st.st_mode):
        lf.error = LoadError("file-unreadable", f"not a regular file ({filetype(st.st_mode)})")
        return lf
    if st.st_size > max_bytes and reads.overlaid(abspath) is None:
        lf.error = LoadError(
            "file-too-large", f"file is {st.st_size} bytes, over the {max_bytes}-byte limit"
        )
        return lf
    raw = _read_bounded(abspath, max_bytes, lf, reads)
    if raw is None:
        return lf
    cache = reads.cache
    if cache is not None and post is not None and json_hook is None:
        identity = (kind, rel, abspath, root_real, max_bytes, max_values, as_json, post)
        is_json = abspath.endswith(".json") if as_json is None else as_json
        return cache.read(identity, raw, is_json, budget,
                          lambda: _parse(raw, lf, max_values, as_json, None, budget), post)
    lf = _parse(raw, lf, max_values, as_json, json_hook, budget)
    if post is not None:
        post(lf)
    return lf


def _parse(raw: bytes, lf: LoadedFile, max_values: int | None, as_json: bool | None, json_hook,
           budget: LoadBudget | None) -> LoadedFile:
    """Decode and parse the bytes read for ``lf`` (into ``lf``)."""
    abspath = lf.abspath
    text = decode(raw, lf)
    del raw  # the text holds it now: never both while parsing
    if text is None:
        return lf
    lf.text = text
    lf.is_json = abspath.endswith(".json") if as_json is None else as_json
    keys: list = []
    counted: list = []
    limit = max_values
    if budget is not None:
        left = budget.limit(lf.is_json)
        if left <= 0:
            lf.error, lf.text = budget.refusal(lf.is_json), None
            return lf
        limit = left if limit is None else min(limit, left)
    if lf.is_json:
        lf.data, refusal = parse_json(text, limit, json_hook, counted)
        if refusal is not None:
            lf.error = LoadError(*refusal)
            lf.text = None
    else:
        # positions are recovered lazily (like JSON's): most files never need one, and skipping the
        # map makes parsing ~20 % cheaper
        try:
            doc = yamlread.parse_yaml(text, want_positions=False, max_values=limit, styles=True)
            lf.data, lf.quoted, keys, counted = doc.data, doc.quoted, doc.keys, [doc.values]
        except YamlLoadError as exc:
            if exc.code == "duplicate-key":  # re-read with positions so the message names the first line
                try:
                    yamlread.parse_yaml(text)
                except YamlLoadError as full:
                    exc = full
            lf.error = LoadError(exc.code, exc.message, exc.line, exc.column)
            lf.text = None
    if budget is not None:
        if lf.error is not None and lf.error.code == "file-too-large" and limit != max_values:
            lf.error = budget.refusal(lf.is_json)  # the unit's budget ran out, not this file's own limit
            budget.spend(limit, lf.is_json)
        else:
            budget.spend(counted[0] if counted else 0, lf.is_json)
    if lf.error is None:
        from checker.load.text_check import notes

        lf.text_notes += notes(text, lf.data, lf.is_json, keys)
    return lf


def filetype(mode: int) -> str:
    """What a non-regular entry is, in words ("a FIFO")."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _read_bounded(abspath: str, max_bytes: int, lf: LoadedFile, reads: Reads) -> bytes | None:
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(abspath, flags)
    except OSError as exc:
        lf.error = LoadError("file-unreadable", f"cannot open: {exc.strerror or exc}")
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped under us
            lf.error = LoadError("file-unreadable", f"not a regular file ({filetype(st.st_mode)})")
            return None
        fixed = reads.overlaid(abspath)
        if fixed is not None:  # an editor's buffer or a fix round's text: the same cap as the file's
            if len(fixed) > max_bytes:
                lf.error = LoadError("file-too-large", f"buffer is {len(fixed)} bytes, over the {max_bytes}-byte limit")
                return None
            return fixed
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > max_bytes:
                lf.error = LoadError("file-too-large", f"file grew over the {max_bytes}-byte limit while read")
                return None
        return b"".join(chunks)
    except OSError as exc:
        lf.error = LoadError("file-unreadable", f"read error: {exc.strerror or exc}")
        return None
    finally:
        os.close(fd)


def decode(raw: bytes, lf: LoadedFile) -> str | None:
    nul = raw.find(b"\x00")
    if nul >= 0:
        lf.error = LoadError("file-encoding", f"binary content: NUL byte at byte offset {nul}")
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        lf.error = LoadError(
            "file-encoding",
            f"not valid UTF-8: byte 0x{raw[exc.start]:02x} at byte offset {exc.start}",
            *_line_col(raw, exc.start),
        )
        return None
    if text.startswith("\ufeff"):
        boms = len(text) - len(text.lstrip("\ufeff"))
        text = text[boms:]
        lf.bom = True
        if lf.abspath.endswith(".json"):  # JSON must not carry one (RFC 8259); YAML may
            from checker.load.models.spelling import Spelling

            lf.spellings.append(Spelling((), None, None, "UTF-8 byte-order mark"))
        if boms > 1:  # a file saved twice with a BOM: every one is read as absent, and noted
            lf.text_notes.append(((), f"{boms} byte-order marks at the start of the file (one at most is allowed)"))
    return text


def _line_col(raw: bytes, offset: int) -> tuple[int, int]:
    line = raw.count(b"\n", 0, offset) + 1
    col = offset - (raw.rfind(b"\n", 0, offset) + 1) + 1
    return line, col
