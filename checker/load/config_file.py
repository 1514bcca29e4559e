"""The project's configuration file: ``endpoints-checker.toml`` (its top-level keys) or the
``[tool.endpoints-checker]`` table of a ``pyproject.toml``, found by walking up from a checked path.

This module only finds and reads the file (tomllib) and records the line of each key, so a bad key or
value can be named as ``file:line``; what the keys mean is ``checker.engine.check_settings``'s. The file
is the user's own, but it is read like any input: a regular file of at most 1 MiB, UTF-8, never a FIFO.
"""
from __future__ import annotations

import os
import re
import stat
from typing import Any

import msgspec

#: the file names looked for in each folder, the first found winning within a folder
NAMES = ("endpoints-checker.toml", "pyproject.toml")
#: a pyproject.toml's table holding the settings
TABLE = ("tool", "endpoints-checker")
MAX_BYTES = 1 << 20

_HEADER = re.compile(r"^\s*\[\[?\s*([^\[\]#]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"""^\s*("(?:[^"\\]|\\.)*"|'[^']*'|[A-Za-z0-9_-]+)\s*[=.]""")
_AT_LINE = re.compile(r"\(at line (\d+), column \d+\)")


class ConfigFileError(ValueError):
    """The configuration file cannot be used as it is; the message starts with ``file:line:``."""


class ConfigFile(msgspec.Struct, frozen=True):
    """One configuration file: its path, its settings table and the line of each key (1-based)."""

    path: str
    table: dict
    lines: dict
    #: the line of the table's header ([tool.endpoints-checker]); 0 for endpoints-checker.toml's top level
    header: int = 0

    @property
    def folder(self) -> str:
        return os.path.dirname(self.path)

    def where(self, key: str | None = None) -> str:
        """``file:line`` of ``key`` (of the table when the key has no line of its own)."""
        line = self.lines.get(key) if key is not None else None
        line = line or self.header
        return f"{self.path}:{line}" if line else self.path


def find(start: str, stop: str | None = None) -> str | None:
    """The nearest configuration file at or above ``start`` (a folder, or a file's folder); None when there
    is none. ``stop``: a folder the walk does not go above (the MCP server's root)."""
    here = os.path.abspath(start)
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    stop = os.path.abspath(stop) if stop else None
    while True:
        for name in NAMES:
            cand = os.path.join(here, name)
            if _holds_settings(cand, name):
                return cand
        parent = os.path.dirname(here)
        if parent == here or (stop is not None and here == stop):
            return None
        here = parent


def _holds_settings(path: str, name: str) -> bool:
    """An endpoints-checker.toml always counts; a pyproject.toml only with a [tool.endpoints-checker] table
    (a project's pyproject without one is not ours and the walk goes on, as ruff's does)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
    except (OSError, ValueError):
        return False
    if name != "pyproject.toml":
        return True
    try:
        text = _text(path)
    except ConfigFileError:
        return False  # a pyproject.toml that cannot be read is not taken for ours
    if "endpoints-checker" not in text:
        return False
    import tomllib  # only for a file that names us (its regular expressions cost ~3 ms to compile)

    try:
        return _section(tomllib.loads(text)) is not None
    except (tomllib.TOMLDecodeError, RecursionError, ValueError):
        return True  # it names us: reading it tells the user what is wrong


def _section(doc: dict) -> Any:
    cur: Any = doc
    for part in TABLE:
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def _text(path: str) -> str:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ConfigFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigFileError(f"{path}: not a regular file")
        if st.st_size > MAX_BYTES:
            raise ConfigFileError(f"{path}: {st.st_size} bytes, more than a configuration file's {MAX_BYTES}")
        data = os.read(fd, MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigFileError(f"{path}: cannot be read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigFileError(f"{path}: not UTF-8 text (byte {exc.start})") from None


def read(path: str) -> ConfigFile:
    """Read a configuration file; ConfigFileError (``file:line: why``) when it is no usable one."""
    path = os.path.abspath(path)
    if not os.path.exists(path):
        raise ConfigFileError(f"{path}: configuration file not found")
    import tomllib

    text = _text(path)
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = _AT_LINE.search(str(exc))
        where = f"{path}:{m.group(1)}" if m else path
        raise ConfigFileError(f"{where}: not valid TOML: {_AT_LINE.sub('', str(exc)).strip()}") from None
    except RecursionError:
        raise ConfigFileError(f"{path}: not a usable configuration file: arrays or tables nested too deeply") from None
    except ValueError as exc:  # an integer over Python's digit limit
        raise ConfigFileError(f"{path}: not a usable configuration file: {str(exc)[:120]}") from None
    pyproject = os.path.basename(path) == "pyproject.toml"
    if pyproject:
        table = _section(doc)
        if table is None:
            raise ConfigFileError(f"{path}: holds no [{'.'.join(TABLE)}] table")
        prefix = TABLE
    else:
        table, prefix = doc, ()
    if not isinstance(table, dict):
        raise ConfigFileError(f"{path}: {'.'.join(TABLE)} must be a table")
    header, lines = _key_lines(text, prefix)
    return ConfigFile(path=path, table=table, lines=lines, header=header)


def _split_header(inner: str) -> tuple[str, ...]:
    """``tool."endpoints-checker".x`` as its parts, quotes removed."""
    parts, cur, quote = [], "", ""
    for ch in inner:
        if quote:
            if ch == quote:
                quote = ""
            else:
                cur += ch
        elif ch in "\"'":
            quote = ch
        elif ch == ".":
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return tuple(parts)


def _key_lines(text: str, prefix: tuple[str, ...]) -> tuple[int, dict[str, int]]:
    """(the header's line, {key: line}) of the table at ``prefix``: a key assigned in it, or a sub-table
    ``[prefix.key]`` (its header's line). A line scan is enough: tomllib has already accepted the text."""
    lines: dict[str, int] = {}
    header = 0
    current: tuple[str, ...] = ()
    in_multiline = None
    for no, line in enumerate(text.splitlines(), 1):
        if in_multiline:
            if in_multiline in line:
                in_multiline = None
            continue
        m = _HEADER.match(line)
        if m:
            current = _split_header(m.group(1))
            if current == prefix and not header:
                header = no
            elif current[:len(prefix)] == prefix and len(current) > len(prefix):
                lines.setdefault(current[len(prefix)], no)
            continue
        if current == prefix:
            k = _KEY.match(line)
            if k:
                key = k.group(1)
                lines.setdefault(key[1:-1] if key[0] in "\"'" else key, no)
        for q in ('"""', "'''"):
            if line.count(q) % 2 == 1:
                in_multiline = q
    return header, lines
