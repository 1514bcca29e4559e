"""Whether a value is an http(s) link with a host, as ``urllib.parse`` reads it."""
from __future__ import annotations

from typing import Any


def is_http_url(v: Any) -> bool:
    """An http(s) URL with a host (sources of sourced values, availability links), as ``urllib.parse``
    reads it; the usual case is decided here without importing urllib (and ipaddress) at start-up."""
    if not isinstance(v, str):
        return False
    text = v.strip().lstrip(_C0_OR_SPACE)
    if "\t" in text or "\r" in text or "\n" in text:
        text = text.replace("\t", "").replace("\r", "").replace("\n", "")
    colon = text.find(":")
    scheme = text[:colon]
    if colon <= 0 or not (scheme[0].isascii() and scheme[0].isalpha()) or scheme.strip(_SCHEME_CHARS):
        return False
    if scheme.lower() not in ("http", "https") or text[colon + 1:colon + 3] != "//":
        return False
    rest = text[colon + 3:]
    netloc = rest[:min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))]
    if "[" in netloc or "]" in netloc or not netloc.isascii():  # IPv6 literals, IDNA: urllib's own checks
        from urllib.parse import urlparse

        try:
            return bool(urlparse(v.strip()).netloc)
        except ValueError:
            return False
    return bool(netloc)


_C0_OR_SPACE = "".join(map(chr, range(0x21)))
_SCHEME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-."
