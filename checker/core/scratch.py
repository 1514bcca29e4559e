"""Temporary files of ours: named so a later run recognises them, locked while in use, removed on every
exit path that can be handled.

Every temporary file or folder the checker makes beside what it writes (a report ``.NAME.XXXXXXXX.part``,
a fixed file ``.NAME.<hex>.fix-tmp``, an HTML folder ``.NAME.XXXXXXXX.part/``) is created exclusively and
holds an exclusive ``flock`` from the moment it exists until its writer is done with it. The kernel drops
that lock when the process dies, SIGKILL included, so a temporary file of ours that nobody holds is a
leftover of a run that was killed, which the next run writing there removes (``sweep``); one that is
locked belongs to a run still going and is left alone. ``remove_all`` is the interrupt path: every
temporary this process still holds, removed.
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
import string

try:
    import fcntl
except ImportError:  # not POSIX: no locks, so nothing is ever judged a leftover
    fcntl = None  # type: ignore[assignment]

#: a fixed file's temporary: ``.point.yaml.<12 hex>.fix-tmp`` beside point.yaml (checker.fix.write)
FIX_SUFFIX = ".fix-tmp"
_FIX_TEMP = re.compile(r"^\.(?P<base>.+)\.[0-9a-f]{12}\.fix-tmp$")
#: an output's temporary: ``.report.json.XXXXXXXX.part`` (8 characters, as tempfile.mkstemp names them)
PART_SUFFIX = ".part"
_PART_TEMP = re.compile(r"^\.(?P<base>.+)\.[A-Za-z0-9_]{8}\.part$")
_ALPHABET = string.ascii_lowercase + string.digits + "_"
#: characters of the target's name kept in its temporary's name (a name is at most 255 bytes)
BASE_CHARS = 100
#: a temporary younger than this with nothing written yet may be one a writer has created and not locked
#: yet (the two are consecutive system calls): it is left for a later run
FRESH_SECONDS = 2.0

#: path -> (locked descriptor, is a folder): the temporaries this process holds now
_LIVE: dict[str, tuple[int, bool]] = {}


def fix_temp_name(name: str) -> str:
    return f".{name}.{secrets.token_hex(6)}{FIX_SUFFIX}"


def is_fix_temp(name: str) -> bool:
    """Is ``name`` a fixed file's temporary of ours (``.point.yaml.<hex>.fix-tmp``)?"""
    return name.endswith(FIX_SUFFIX) and _FIX_TEMP.match(name) is not None


def is_part_of(name: str, base: str) -> bool:
    """Is ``name`` an output temporary of ours for the target named ``base``?"""
    m = _PART_TEMP.match(name)
    return m is not None and m.group("base") == base


def _lock(fd: int, wait: bool = False) -> bool:
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        return True
    except OSError:
        return False


def create_file(directory: str, base: str, suffix: str = PART_SUFFIX, mode: int = 0o600,
                dir_fd: int | None = None, name: str | None = None) -> tuple[str, int]:
    """A new temporary file ``.BASE.XXXXXXXX.SUFFIX`` in ``directory`` (or ``name``, relative to ``dir_fd``),
    created exclusively and locked; (its path, its open descriptor, kept until ``release``/``remove``)."""
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
    base = base[:BASE_CHARS]
    for _ in range(100):
        tmp = name or f".{base}.{''.join(secrets.choice(_ALPHABET) for _ in range(8))}{suffix}"
        try:
            fd = os.open(tmp if dir_fd is not None else os.path.join(directory, tmp), flags, mode, dir_fd=dir_fd)
        except FileExistsError:
            if name:
                raise
            continue
        path = os.path.join(directory, tmp)
        _lock(fd)
        _LIVE[path] = (fd, False)
        return path, fd
    raise FileExistsError(0, f"no free temporary name for {base} in {directory}")


def create_dir(directory: str, base: str) -> str:
    """A new temporary folder ``.BASE.XXXXXXXX.part`` in ``directory``, locked while this process holds it."""
    base = base[:BASE_CHARS]
    for _ in range(100):
        tmp = os.path.join(directory, f".{base}.{''.join(secrets.choice(_ALPHABET) for _ in range(8))}{PART_SUFFIX}")
        try:
            os.mkdir(tmp, 0o700)
        except FileExistsError:
            continue
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
        _lock(fd)
        _LIVE[tmp] = (fd, True)
        return tmp
    raise FileExistsError(0, f"no free temporary name for {base}/ in {directory}")


def release(path: str) -> None:
    """Forget a temporary that became a real file (renamed over its target): its lock goes."""
    held = _LIVE.pop(path, None)
    if held is not None:
        try:
            os.close(held[0])
        except OSError:
            pass


def remove(path: str) -> None:
    """Remove a temporary of ours (file or folder) and release it; never raises."""
    held = _LIVE.get(path)
    try:
        if held is not None and held[1]:
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass
    release(path)


def remove_all() -> list[str]:
    """Remove every temporary this process still holds (an interrupted run); the paths removed."""
    paths = list(_LIVE)
    for path in paths:
        remove(path)
    return paths


def stale(path: str) -> bool:
    """Is this temporary of ours a leftover (nobody holds its lock)? False when in doubt."""
    if fcntl is None:
        return False
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if not _lock(fd):
            return False  # a run still writing it
        import time

        if time.time() - st.st_mtime >= FRESH_SECONDS:
            return True
        empty = not os.listdir(path) if stat.S_ISDIR(st.st_mode) else st.st_size == 0
        return not empty  # written into, so it was locked first: its writer is gone
    finally:
        os.close(fd)


def sweep(directory: str, base: str, dirs: bool = False) -> list[str]:
    """Remove the leftover output temporaries of target ``base`` in ``directory``; the names removed."""
    removed = []
    base = base[:BASE_CHARS]
    try:
        names = os.listdir(directory)
    except OSError:
        return removed
    for name in names:
        if not is_part_of(name, base):
            continue
        path = os.path.join(directory, name)
        try:
            is_dir = stat.S_ISDIR(os.lstat(path).st_mode)
        except OSError:
            continue
        if is_dir != dirs or path in _LIVE or not stale(path):
            continue
        try:
            shutil.rmtree(path) if is_dir else os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    return removed


def remove_stale_fix_temp(path: str) -> bool:
    """Remove one ``.NAME.<hex>.fix-tmp`` leftover (``is_fix_temp``) when nobody holds it; True when removed."""
    if not is_fix_temp(os.path.basename(path)) or path in _LIVE or not stale(path):
        return False
    try:
        os.unlink(path)
    except OSError:
        return False
    return True
