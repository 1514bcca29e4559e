"""Read a run archive (``.tar.gz`` as uploaded, local or by URL) in place, in one streaming pass.

The archive is never extracted: each member is seen once, in order. The files the loader reads are
copied into the mirror (up to the size cap), other files become sparse placeholders, and the logs are
audited while they stream by (their results are redirected to the placeholders). Limits: at most
``MAX_MEMBERS`` members and ``MAX_TOTAL_BYTES`` of member data; a member whose path is absolute, climbs
out with ``..``, repeats an earlier member, or lies under a link member refuses the whole archive.
Symbolic links are kept as links, so the loader's own symlink rules judge them (one leaving the run
folder is a ``symlink-escape`` FAIL, never followed); hard links become links to their member;
FIFOs and devices become FIFOs, which the loader refuses as special files.
"""
from __future__ import annotations

import os
import posixpath
import tarfile
import zlib

from checker.load import mirror
from checker.load.layout import is_run_folder, loader_names
from checker.load.mirror import STREAMED, MirrorError

MAX_MEMBERS = 20_000
MAX_TOTAL_BYTES = 64 << 30
MAX_PARTS = 32
READ_BYTES = 1 << 20


def mirror_archive(location: str, dest: str, max_bytes: int, events: bool = True) -> str:
    """Stage the archive at ``location`` into ``dest``; return the run folder's directory."""
    raw = _open(location)
    try:
        with raw, tarfile.open(fileobj=raw, mode="r|gz", bufsize=READ_BYTES) as tf:
            _Members(dest, max_bytes, events).take(tf)
    except MirrorError:
        raise
    except (tarfile.TarError, EOFError, zlib.error) as exc:
        raise MirrorError(f"not a readable .tar.gz archive: {exc}") from None
    except OSError as exc:
        raise MirrorError(f"archive read error: {exc.strerror or exc}") from None
    return _root(dest)


def _open(location: str):
    if mirror.is_url(location):
        from checker.load.remote import filesystem, open_url

        fs, path = filesystem(location)
        try:
            if not fs.isfile(path):
                raise MirrorError("does not exist" if not fs.exists(path) else "not a file",
                                   missing=not fs.exists(path))
            return open_url(location)
        except FileNotFoundError:
            raise MirrorError("does not exist", missing=True) from None
    from checker.load.events_data import open_regular

    if not os.path.lexists(location):
        raise MirrorError("does not exist", missing=True)
    try:
        return open_regular(location, None)
    except OSError as exc:
        raise MirrorError(f"cannot open the archive: {exc.strerror or exc}") from None


class _Members:
    """The per-member decisions of one pass, with the archive's running counts."""

    def __init__(self, dest: str, max_bytes: int, events: bool):
        self.dest = dest
        self.max_bytes = max_bytes
        self.events = events
        self.wanted = loader_names()
        self.seen: set[str] = set()
        self.links: set[str] = set()
        self.count = 0
        self.total = 0
        os.makedirs(dest)

    def take(self, tf) -> None:
        for m in tf:
            self.count += 1
            if self.count > MAX_MEMBERS:
                raise MirrorError(f"the archive holds more than {MAX_MEMBERS} members")
            parts = _member_parts(m.name)
            if not parts:
                continue  # the archive root itself ("./")
            rel = "/".join(parts)
            if rel in self.seen:
                raise MirrorError(f"archive member {rel!r} appears twice")
            self.seen.add(rel)
            if any("/".join(parts[:i]) in self.links for i in range(1, len(parts))):
                raise MirrorError(f"archive member {rel!r} lies under a link member")
            local = os.path.join(self.dest, *parts)
            try:
                self._member(tf, m, parts, rel, local)
            except (FileExistsError, NotADirectoryError):
                raise MirrorError(f"archive member {rel!r} collides with another member") from None

    def _member(self, tf, m, parts: list[str], rel: str, local: str) -> None:
        if m.isdir():
            os.makedirs(local, exist_ok=True)
            return
        os.makedirs(os.path.dirname(local), exist_ok=True)
        if m.isreg():
            self.total += m.size
            if self.total > MAX_TOTAL_BYTES:
                raise MirrorError(f"the archive's members exceed {MAX_TOTAL_BYTES} bytes")
            self._regular(tf, m, parts, local)
        elif m.issym() or m.islnk():
            self.links.add(rel)
            target = m.linkname
            if m.islnk():
                inner = _member_parts(target)
                if not inner:
                    raise MirrorError(f"archive member {rel!r} is a hard link to {target!r}")
                target = os.path.relpath(os.path.join(self.dest, *inner), os.path.dirname(local))
            os.symlink(target, local)
        else:
            os.mkfifo(local, 0o644)

    def _regular(self, tf, m, parts: list[str], local: str) -> None:
        name = parts[-1]
        if name in STREAMED and len(parts) <= 2:
            mirror.sparse(local, m.size)
            if name == "events.jsonl" and not self.events:
                return
            fh = tf.extractfile(m)
            if name == "events.jsonl":
                from checker.load.events import audit_stream

                mirror.REDIRECTS[local] = audit_stream(fh, local)
            else:
                from checker.load.sample_map import summarize_stream

                mirror.REDIRECTS[local] = summarize_stream(fh, m.size, local)
        elif name in self.wanted and m.size <= self.max_bytes:
            mirror.write_new(local, tf.extractfile(m).read(self.max_bytes + 1))
        else:
            mirror.sparse(local, m.size)


def _member_parts(name: str) -> list[str]:
    """A member path as parts under the archive root; one that leaves the root refuses the archive."""
    if name.startswith("/") or "\x00" in name:
        raise MirrorError(f"archive member {name[:200]!r} lies outside the archive root")
    norm = posixpath.normpath(name)
    if norm in (".", ""):
        return []
    parts = norm.split("/")
    if parts[0] == ".." or len(parts) > MAX_PARTS or any(len(p.encode("utf-8", "replace")) > 255 for p in parts):
        raise MirrorError(f"archive member {name[:200]!r} lies outside the archive root")
    return parts


def _root(dest: str) -> str:
    """An archive holding one directory (``run1/...``) has that directory as its run folder."""
    entries = os.listdir(dest)
    if len(entries) != 1 or is_run_folder(dest):
        return dest
    top = os.path.join(dest, entries[0])
    if os.path.islink(top) or not os.path.isdir(top):
        return dest
    moved = dest + ".root"
    os.rename(top, moved)
    os.rmdir(dest)
    os.rename(moved, dest)
    for key in [k for k in mirror.REDIRECTS if k.startswith(top + os.sep)]:
        mirror.REDIRECTS[dest + key[len(top):]] = mirror.REDIRECTS.pop(key)
    return dest
