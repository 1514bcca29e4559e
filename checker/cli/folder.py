"""A cohort's HTML folder (``-o DIR/``) replaced whole, so a reader never sees pages of two runs.

The new folder is built beside the old one, as ``.DIR.XXXXXXXX.part/`` (a temporary of ours,
``checker.core.scratch``), and only when every page is in it does it take the old folder's place: on
Linux by one ``renameat2(RENAME_EXCHANGE)``, which swaps the two names atomically (a reader opening
``DIR/x.html`` gets the old page or the new one, never a missing one), then the old folder, now under
the temporary name, is removed. Where the kernel or file system cannot exchange, the old folder is
renamed aside and the new one renamed in: for that instant ``DIR`` does not exist, but it never holds
a mix. Any failure before the swap (a full disk, an interrupt) removes the temporary folder and leaves
the old one exactly as it was.

Replacing a folder whole deletes what it held, so only a folder holding nothing but ``.html`` files
(an earlier report) or nothing at all is replaced; any other is refused with the reason (``problem``).
"""
from __future__ import annotations

import os
import shutil
import stat

from checker.core import scratch
from checker.core.writing import write_all

RENAME_EXCHANGE = 2  # linux/fs.h
AT_FDCWD = -100


def problem(outdir: str) -> str | None:
    """Why ``outdir`` cannot be replaced whole by a report folder (None: it can, or does not exist yet)."""
    real = os.path.realpath(outdir)
    try:
        names = sorted(os.listdir(real))
    except FileNotFoundError:
        return None
    except NotADirectoryError:
        return "it is not a directory"
    except OSError as exc:
        return exc.strerror or str(exc)
    foreign = [n for n in names if not (n.endswith(".html") and _regular(os.path.join(real, n)))]
    if not foreign:
        return None
    more = f" and {len(foreign) - 1} more entries" if len(foreign) > 1 else ""
    return (f"it holds {foreign[0]!r}{more}, not a page of a report: the folder is replaced whole, so give a "
            "new or empty folder, or one holding only an earlier report")


def _regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def stage(outdir: str, pages: dict[str, bytes]) -> tuple[tuple[str, str], list[str]]:
    """Write every page into a temporary folder beside ``outdir``: ((temporary folder, the real folder), the
    leftover temporaries of earlier runs removed on the way). Raises OSError; nothing is left then."""
    why = problem(outdir)
    if why:
        raise OSError(0, why)
    real = os.path.realpath(outdir)
    parent, base = os.path.split(real)
    removed = scratch.sweep(parent, base, dirs=True)
    tmp = scratch.create_dir(parent, base)
    try:
        mask = _umask()
        for name, data in pages.items():
            fd = os.open(os.path.join(tmp, name), os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                         0o666 & ~mask)
            try:
                write_all(fd, data)
            finally:
                os.close(fd)
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except OSError:
            mode = 0o777 & ~mask
        os.chmod(tmp, mode)
    except BaseException:
        scratch.remove(tmp)
        raise
    return (tmp, real), removed


def commit(staged: tuple[str, str]) -> None:
    """Put the staged folder in the old one's place (see the module's note); the old folder is then removed."""
    tmp, real = staged
    try:
        if not os.path.lexists(real):
            os.rename(tmp, real)  # nothing to replace
            scratch.release(tmp)
            return
        why = problem(real)  # something else may have been written there since
        if why:
            raise OSError(0, why)
        if _exchange(tmp, real):
            old = tmp  # the previous folder, now under the temporary name
        else:
            old = _swap_aside(tmp, real)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        scratch.remove(tmp)  # before the swap: the new folder; after it: the old one
        raise
    scratch.release(tmp)


def discard(staged: tuple[str, str]) -> None:
    scratch.remove(staged[0])


def _swap_aside(tmp: str, real: str) -> str:
    """The portable swap: the old folder renamed aside (a name ``sweep`` recognises), the new one renamed in."""
    parent, base = os.path.split(real)
    aside = scratch.create_dir(parent, base)
    os.rmdir(aside)
    scratch.release(aside)
    os.rename(real, aside)
    try:
        os.rename(tmp, real)
    except BaseException:
        os.rename(aside, real)
        raise
    return aside


def _exchange(a: str, b: str) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    import ctypes
    import errno

    from checker.core.libc import function

    fn = function("renameat2", ctypes.c_int, ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                  ctypes.c_uint)
    if fn is None:
        return False
    if fn(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, getattr(errno, "ENOTSUP", errno.EOPNOTSUPP)):
        return False
    raise OSError(err, os.strerror(err))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
