"""Mirror one tree of object storage (any fsspec URL: s3://, gs://, ...), by listing it once.

One recursive listing gives every key and size. Directories become directories; a file the loader
reads (``layout.loader_names``) up to the size cap is fetched with a ranged read of at most
``max_bytes + 1`` bytes, in batches of bounded size; every other file is a sparse placeholder; the logs
(``mirror.STREAMED``) are placeholders redirected to their URL, streamed later by the audits. Keys
that cannot be a local path (empty, ``.``/``..`` parts, NUL, over-long names) are left out, never
followed. Credentials and endpoints come from fsspec's usual configuration (environment variables
such as ``AWS_ENDPOINT_URL`` or ``FSSPEC_S3_ENDPOINT_URL``, config files), the same on every worker.
"""
from __future__ import annotations

import os

from checker.load import mirror
from checker.load.layout import loader_names
from checker.load.mirror import MAX_ENTRIES, STREAMED, MirrorError

#: bytes fetched per batch of small files (the batch is held in memory at once)
BATCH_BYTES = 32 << 20
MAX_NAME = 255
#: ranged reads of a streamed log (fsspec's read-ahead block)
STREAM_BLOCK = 8 << 20


def filesystem(url: str):
    """``(fs, path)`` for a URL; a missing protocol package is a ``MirrorError`` saying what to install."""
    try:
        from fsspec.core import url_to_fs
    except ImportError:
        raise MirrorError(f"reading {url.split('://', 1)[0]}:// URLs needs fsspec: "
                           "pip install 'endpoints-checker[dask]'") from None
    try:
        return url_to_fs(url)
    except ImportError as exc:
        raise MirrorError(f"cannot read {url.split('://', 1)[0]}:// URLs here: {exc}") from None
    except ValueError as exc:
        raise MirrorError(f"not a usable URL: {exc}") from None


def open_url(url: str):
    """A streaming binary reader of one object (read-ahead blocks, never the whole object in memory)."""
    fs, path = filesystem(url)
    return fs.open(path, "rb", block_size=STREAM_BLOCK, cache_type="readahead")


def mirror_tree(url: str, dest: str, max_bytes: int, depth: int | None = None) -> None:
    """Mirror the tree at ``url`` into ``dest``; ``depth`` limits a planning skeleton (nothing fetched)."""
    fs, root = filesystem(url)
    root = root.rstrip("/")
    try:
        info = fs.info(root)
    except FileNotFoundError:
        raise MirrorError("does not exist", missing=True) from None
    except OSError as exc:
        raise MirrorError(f"cannot be listed: {exc}") from None
    if info.get("type") != "directory":
        raise MirrorError("not a directory")
    try:
        listing = fs.find(root, withdirs=True, detail=True)
    except OSError as exc:
        raise MirrorError(f"cannot be listed: {exc}") from None
    if len(listing) > MAX_ENTRIES:
        raise MirrorError(f"holds {len(listing)} objects, over the {MAX_ENTRIES} a check mirrors")
    os.makedirs(dest)
    wanted = loader_names()
    fetch: list[tuple[str, str, int]] = []
    for key in sorted(listing):
        meta = listing[key]
        parts = _parts(key, root)
        if parts is None or (depth is not None and len(parts) > depth):
            continue
        local = os.path.join(dest, *parts)
        if not _parent_ok(dest, local):
            continue
        if meta.get("type") == "directory":
            os.makedirs(local, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(local), exist_ok=True)
        if os.path.lexists(local):  # a key that is also a "directory" prefix: the directory wins
            continue
        size = int(meta.get("size") or 0)
        name = parts[-1]
        if depth is None and name in wanted and size <= max_bytes:
            fetch.append((key, local, size))
            continue
        mirror.sparse(local, size)
        if depth is None and name in STREAMED:
            mirror.REDIRECTS[local] = _url_of(fs, key)
    _fetch(fs, fetch, max_bytes)


def _parts(key: str, root: str) -> list[str] | None:
    if not key.startswith(root + "/"):
        return None
    parts = key[len(root) + 1:].split("/")
    if any(p in ("", ".", "..") or "\x00" in p or len(p.encode("utf-8", "replace")) > MAX_NAME for p in parts):
        return None
    return parts


def _parent_ok(dest: str, local: str) -> bool:
    """The path stays under ``dest`` and no parent is a file already (keys never write through anything)."""
    parent = os.path.dirname(local)
    while parent != dest and len(parent) > len(dest):
        if os.path.lexists(parent) and not os.path.isdir(parent):
            return False
        parent = os.path.dirname(parent)
    return parent == dest


def _url_of(fs, key: str) -> str:
    protocol = fs.protocol[0] if isinstance(fs.protocol, (tuple, list)) else fs.protocol
    return f"{protocol}://{key}"


def _fetch(fs, todo: list[tuple[str, str, int]], max_bytes: int) -> None:
    """Copy the small files, a bounded batch at a time; one that cannot be read fails the mirror."""
    batch: list[tuple[str, str, int]] = []
    held = 0
    for item in todo:
        if batch and held + item[2] > BATCH_BYTES:
            _fetch_batch(fs, batch, max_bytes)
            batch, held = [], 0
        batch.append(item)
        held += item[2]
    if batch:
        _fetch_batch(fs, batch, max_bytes)


def _fetch_batch(fs, batch, max_bytes: int) -> None:
    keys = [k for k, _, _ in batch]
    try:
        blobs = fs.cat_ranges(keys, [0] * len(keys), [max_bytes + 1] * len(keys), on_error="return")
    except OSError as exc:
        raise MirrorError(f"cannot read {keys[0]}: {exc}") from None
    for (key, local, _size), blob in zip(batch, blobs):
        if isinstance(blob, BaseException):
            raise MirrorError(f"cannot read {_url_of(fs, key)}: {blob}")
        if len(blob) > max_bytes:  # it grew since the listing: the loader reports it as over the cap
            mirror.sparse(local, len(blob))
        else:
            mirror.write_new(local, blob)
