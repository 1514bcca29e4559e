"""Writing a fixed file: only inside the checked roots, never through a symlink, atomically, or not at all.

The file is opened by its real path relative to its directory's descriptor (``O_NOFOLLOW``): a path
that leaves the roots, or a name swapped for a symlink meanwhile, is refused. Its bytes must still
have the digest the check read; the new text goes to a temporary file in the same directory (same
mode and owner), is flushed to disk, and replaces the original by ``rename`` only if the original is
still the same file, unchanged; the directory is then flushed too. Any failure leaves the original
as it was and removes the temporary file: a fix is written whole or not at all.
"""
from __future__ import annotations

import errno
import hashlib
import os
import stat

from checker.core import scratch
from checker.core.writing import write_all

#: a file the fixer reads back: the loader's own cap on what it reads
MAX_BYTES = 1 << 30


class FixRefused(Exception):
    """Why one file was not written (the message names the reason in words)."""


def inside(path: str, roots: list[str]) -> bool:
    return any(path == r or path.startswith(r.rstrip(os.sep) + os.sep) for r in roots)


def real_target(abspath: str, roots: list[str]) -> str:
    """The real path a fix of ``abspath`` writes, or FixRefused when it is outside every root."""
    real = os.path.realpath(abspath)
    if not inside(real, roots):
        raise FixRefused(f"it resolves outside the checked paths (to {real[:200]})")
    return real


def _open_dir(path: str) -> int:
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    return os.open(path, flags)


def read_current(real: str, dfd: int) -> tuple[bytes, os.stat_result]:
    """The file's bytes and stat, read through the directory descriptor without following a symlink."""
    name = os.path.basename(real)
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, dir_fd=dfd)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise FixRefused("it is now a symlink") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FixRefused("it is no longer a regular file")
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_BYTES:
                raise FixRefused("it has grown past the size limit")
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino, a.st_size, a.st_mtime_ns) == (b.st_dev, b.st_ino, b.st_size, b.st_mtime_ns)


def replace_file(real: str, expected_digest: str, new_bytes: bytes, before_rename=None) -> None:
    """Replace the file at ``real`` with ``new_bytes`` atomically, if its bytes still have ``expected_digest``.

    ``before_rename`` (tests) runs between writing the temporary file and the rename. Raises FixRefused
    or OSError; the original is untouched then."""
    directory, name = os.path.split(real)
    dfd = _open_dir(directory)
    tmp = None
    try:
        if os.path.realpath(directory) != directory:
            raise FixRefused("its directory is now reached through a symlink")
        data, st = read_current(real, dfd)
        if digest(data) != expected_digest:
            raise FixRefused("it changed since the check read it")
        if not st.st_mode & 0o222 or not os.access(name, os.W_OK, dir_fd=dfd):
            raise FixRefused("it is read-only")
        # a temporary of ours (checker.core.scratch): locked while this process lives, so a run that finds
        # it unlocked knows it for a leftover of a killed --fix
        tmp, fd = scratch.create_file(directory, name, dir_fd=dfd, name=scratch.fix_temp_name(name),
                                      mode=stat.S_IMODE(st.st_mode) | stat.S_IWUSR)
        write_all(fd, new_bytes)
        try:
            os.fchown(fd, st.st_uid, st.st_gid)
        except OSError:
            pass  # not the owner's to give away (an unprivileged user): the file is theirs anyway
        os.fchmod(fd, stat.S_IMODE(st.st_mode))
        os.fsync(fd)
        if before_rename is not None:
            before_rename(real)
        now = os.stat(name, dir_fd=dfd, follow_symlinks=False)
        if not stat.S_ISREG(now.st_mode) or not _same_file(now, st):
            raise FixRefused("it changed while the fix was being written")
        os.rename(os.path.basename(tmp), name, src_dir_fd=dfd, dst_dir_fd=dfd)
        scratch.release(tmp)
        tmp = None
        try:
            os.fsync(dfd)
        except OSError:
            pass  # some file systems cannot flush a directory; the rename itself is atomic
    finally:
        if tmp is not None:
            try:
                os.unlink(os.path.basename(tmp), dir_fd=dfd)
            except OSError:
                pass
            scratch.release(tmp)
        os.close(dfd)
