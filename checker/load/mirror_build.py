"""Build the local mirror of a URL or a ``.tar.gz`` run archive (``checker.load.mirror`` keeps the
registry of mirrors and their redirects; ``archive`` and ``remote`` lay out each kind of tree).

Discovery and the cohort worker call ``build`` and then load the directory it returns like any
local path. fsspec is imported by ``remote`` only when a URL is opened.
"""
from __future__ import annotations

import os
import tempfile

from checker.load import mirror
from checker.load.archive import mirror_archive
from checker.load.remote import mirror_tree


def build(location: str, max_bytes: int, shallow: bool = False, events: bool = True) -> str:
    """Mirror ``location`` locally and return the directory to load; raise ``MirrorError``."""
    tmp = tempfile.mkdtemp(prefix="endpoints-mirror-")
    try:
        if mirror.is_archive(location):
            local = mirror_archive(location, os.path.join(tmp, mirror.archive_stem(location)), max_bytes, events)
        else:
            local = os.path.join(tmp, *_mirror_parts(location))
            mirror_tree(location, local, max_bytes, mirror.SKELETON_DEPTH if shallow else None)
    except BaseException:
        mirror.drop(tmp)
        raise
    mirror.register(local, location, tmp)
    return local


def _mirror_parts(url: str) -> list[str]:
    """``s3://bucket/a/b`` -> ["bucket", "a", "b"]: the mirror keeps the names (org = parent's name)."""
    from urllib.parse import urlsplit

    parts = urlsplit(url)
    names = [p for p in (parts.netloc + "/" + parts.path).split("/") if p not in ("", ".", "..")]
    return [n[:200] for n in names] or ["root"]
