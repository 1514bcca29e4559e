"""Where the bytes of an output go: a file staged beside its target and renamed over it (never left empty
or half written), a device, FIFO or descriptor name written in place (never blocking on a FIFO without a
reader), standard output, and an appended file (``$GITHUB_STEP_SUMMARY``). Every failure is an OSError
naming what happened; ``checker.cli.output`` decides what it means for the run.
"""
from __future__ import annotations

import os
import stat
import sys

from checker.core import scratch
from checker.core.writing import write_all


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_file(path: str, data) -> None:
    """Write ``data`` (bytes, or an iterable of bytes) to ``path`` whole: a temporary file beside it renamed
    over it (an existing symlink is followed to its file). A device or FIFO, or a name of the process's own
    descriptors (``/dev/stdout``, ``/proc/self/fd/1``), is written in place, never blocking on the open."""
    if in_place(path):
        write_special(path, data, truncate=stat.S_ISREG(os.stat(path).st_mode))
        return
    commit(stage_file(path, data))


def in_place(path: str) -> bool:
    """Is ``path`` written where it is (a device, a FIFO, a descriptor's name) rather than staged beside it?
    Raises OSError for an empty name or a directory."""
    st = _output_stat(path)
    return st is not None and (not stat.S_ISREG(st.st_mode) or _names_a_descriptor(path))


def stage_file(path: str, data) -> tuple[str, str]:
    """Write ``data`` whole into a temporary file beside ``path`` (its real path: a symlink is followed);
    (temporary file, target) for ``commit``. The temporary is one of ours (``checker.core.scratch``: named
    ``.NAME.XXXXXXXX.part``, locked until committed or discarded); nothing is left behind when it fails."""
    real = os.path.realpath(path)
    tmp, fd = scratch.create_file(os.path.dirname(real) or ".", os.path.basename(real))
    try:
        write_all(fd, data)
        os.fchmod(fd, 0o666 & ~_umask())
    except BaseException:
        discard((tmp, real))
        raise
    return tmp, real


def commit(staged: tuple[str, str]) -> None:
    """Rename a staged file over its target (``stage_file``); the temporary file is removed if that fails."""
    tmp, real = staged
    try:
        os.replace(tmp, real)
    except BaseException:
        discard(staged)
        raise
    scratch.release(tmp)


def discard(staged: tuple[str, str]) -> None:
    scratch.remove(staged[0])


def _output_stat(path: str):
    """What an output path names now (None: nothing yet); an empty name or a directory is refused."""
    if path == "":
        raise OSError(0, "an empty path is not a file name")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    if stat.S_ISDIR(st.st_mode):
        raise OSError(0, "is a directory")
    return st


def _names_a_descriptor(path: str) -> bool:
    """/dev/stdout, /dev/fd/N, /proc/self/fd/N: the file behind an open descriptor, written where it is."""
    a = os.path.abspath(path)
    return a.startswith(("/dev/", "/proc/"))


def write_special(path: str, data, append: bool = False, truncate: bool = False) -> None:
    flags = (os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | (os.O_APPEND if append else 0)
             | (os.O_TRUNC if truncate and not append else 0))
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == getattr(__import__("errno"), "ENXIO", None):
            raise OSError(exc.errno, "no process is reading this FIFO or socket") from None
        raise
    try:
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a reader exists: wait for it like any pipe writer
        write_all(fd, data)
    finally:
        os.close(fd)


def append_file(path: str, data: bytes) -> None:
    """Append to ``path`` (``$GITHUB_STEP_SUMMARY``): never blocks on a FIFO without a reader."""
    st = _output_stat(path)
    if st is not None and not stat.S_ISREG(st.st_mode):
        write_special(path, data, append=True)
        return
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOCTTY", 0), 0o666)
    try:
        write_all(fd, data)
    finally:
        os.close(fd)
