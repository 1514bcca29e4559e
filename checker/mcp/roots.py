"""The path guard: a tool opens nothing outside the client's declared roots.

The roots are the ``file://`` URIs of the client's ``roots/list`` answer, or the server's working directory
when the client declares none. A path (relative ones are taken from the working directory) is resolved
with every symlink followed before it is compared, so ``../..`` or a symlink pointing out of the roots is
refused before anything under it is read; inside a package the loader already refuses symlinks that
escape the submission.
"""
from __future__ import annotations

import os
from urllib.parse import unquote, urlparse


class PathRefused(ValueError):
    """A path the tools will not open: it does not exist, or it lies outside the roots."""


def roots_of(uris: list[str] | None, cwd: str | None = None) -> list[str]:
    """The real directories of the declared root URIs (non-file URIs are ignored); the working directory
    when none is declared."""
    out = []
    for uri in uris or ():
        parsed = urlparse(str(uri))
        if parsed.scheme == "file" and parsed.netloc in ("", "localhost"):
            out.append(os.path.realpath(unquote(parsed.path)))
    if not uris:
        out.append(os.path.realpath(cwd or os.getcwd()))
    return out


def inside(path: str, root: str) -> bool:
    try:
        return os.path.commonpath([path, root]) == root
    except ValueError:  # one absolute and one relative, or different drives
        return False


def guard(path: str, roots: list[str], what: str = "path") -> str:
    """The real path of ``path`` if it exists inside one of ``roots``; PathRefused saying why otherwise."""
    if not isinstance(path, str) or not path or "\0" in path:
        raise PathRefused(f"{what} must be a non-empty file name without NUL characters")
    real = os.path.realpath(os.path.abspath(os.path.expanduser(path)))
    if not any(inside(real, r) for r in roots):
        shown = ", ".join(roots) if roots else "(none)"
        raise PathRefused(f"{what} {path!r} resolves to {real}, outside the client's roots ({shown}): refused")
    if not os.path.exists(real):
        raise PathRefused(f"{what} {path!r} does not exist")
    return real
