"""Inputs that are not plain directories (URLs, ``.tar.gz`` run archives) seen through the local loader.

A PATH may be ``s3://``, ``gs://`` (any fsspec URL) or ``file://``, and a run folder may be a
``.tar.gz`` archive. Rather than a second loader, such an input is *mirrored*: its tree is laid out
in a private temporary directory where the files the loader reads (small YAML/JSON files under the
size cap) are real copies and every other file is a sparse placeholder of its true size, so the one local
loader applies every rule of ``checker.load.reader`` to it unchanged (size caps, refusals, symlink
escapes for archive members). The logs (``events.jsonl``, ``sample_idx_map.json``) are never copied:
their placeholders are redirected to the storage URL, streamed by the audits, or, inside an archive,
audited in the one streaming pass that reads it. This module is the registry (what a location is,
which mirrors exist, where a placeholder redirects); ``checker.load.mirror_build`` builds a mirror,
with ``archive`` and ``remote``. Plain local paths never reach the builder; fsspec is imported only
for a URL.
"""
from __future__ import annotations

import atexit
import os
import re

_URL = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
ARCHIVE_SUFFIXES = (".tar.gz", ".tgz")
#: streamed, never copied: their bytes stay in storage (or are audited while the archive streams by)
STREAMED = ("events.jsonl", "sample_idx_map.json")
#: entries of one mirrored tree at most (a listing larger than this is refused, not mirrored)
MAX_ENTRIES = 200_000
#: a planning skeleton mirrors this many levels below the PATH (enough to tell what each entry is)
SKELETON_DEPTH = 4

#: mirrored placeholder (absolute path) -> a URL to stream, or an audit already made while streaming
REDIRECTS: dict[str, object] = {}
#: mirror root (absolute path) -> (the location it mirrors, the temporary directory holding it)
_ROOTS: dict[str, tuple[str, str]] = {}


class MirrorError(Exception):
    """An input that cannot be mirrored; ``missing`` when it does not exist at all."""

    def __init__(self, message: str, missing: bool = False):
        super().__init__(message)
        self.missing = missing


def is_url(path) -> bool:
    return isinstance(path, str) and _URL.match(path) is not None


def is_archive(path) -> bool:
    return isinstance(path, str) and path.lower().endswith(ARCHIVE_SUFFIXES)


def archive_stem(path: str) -> str:
    """``run1.tar.gz`` -> ``run1`` (the run folder's name)."""
    base = path.rstrip("/").rsplit("/", 1)[-1]
    for suffix in ARCHIVE_SUFFIXES:
        if base.lower().endswith(suffix):
            return base[: -len(suffix)] or base
    return base


def file_url_path(path: str) -> str:
    """``file:///a/b`` -> ``/a/b``; anything else unchanged (a file URL is simply a local path)."""
    if path[:7].lower() == "file://":
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(path)
        return unquote(parts.path) or "/"
    return path


def display_of(path: str) -> str:
    """How the report names an input: a URL as given (no trailing slash), a local path normalised."""
    return path.rstrip("/") if is_url(path) else os.path.normpath(path)


def needs_mirror(path) -> bool:
    """Is this location read through a mirror (a remote URL or an archive), not as a local directory?"""
    return isinstance(path, str) and (is_url(path) or is_archive(path))


def origin(local: str) -> str:
    """The location a mirrored path stands for (URL or archive path joined with the inner part); else ``local``."""
    if not _ROOTS:
        return local
    for root, (where, _tmp) in _ROOTS.items():
        if local == root or local.startswith(root + os.sep):
            inner = local[len(root):].lstrip(os.sep)
            return where + "/" + inner.replace(os.sep, "/") if inner else where
    return local


def source(path: str):
    """What a log path really reads: a URL or a finished audit for a mirrored placeholder, else the path."""
    if not REDIRECTS:
        return path
    return REDIRECTS.get(path, path)


def release(local: str) -> None:
    """Delete the mirror holding ``local`` and forget its redirects."""
    for root, (_where, tmp) in list(_ROOTS.items()):
        if local == root or local.startswith(root + os.sep):
            del _ROOTS[root]
            drop(tmp)


def register(local: str, location: str, tmp: str) -> None:
    """Record a mirror built in ``tmp`` at ``local`` for ``location`` (checker.load.mirror_build)."""
    _ROOTS[local] = (location.rstrip("/"), tmp)


def drop(tmp: str) -> None:
    """Delete the temporary directory of a mirror and its redirects."""
    import shutil

    for key in [k for k in REDIRECTS if k.startswith(tmp + os.sep)]:
        del REDIRECTS[key]
    shutil.rmtree(tmp, ignore_errors=True)


def release_all() -> None:
    """Delete every mirror this process built (a no-op when it built none)."""
    for root in list(_ROOTS):
        release(root)


atexit.register(release_all)


def sparse(path: str, size: int) -> None:
    """A placeholder of ``size`` bytes that takes no disk space (the loader sees the true size)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    try:
        os.ftruncate(fd, max(0, size))
    finally:
        os.close(fd)


def write_new(path: str, data: bytes) -> None:
    """Create a file that did not exist, never through a symlink."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)


