"""``is_http_url`` decides the usual case without urllib: it must agree with ``urllib.parse`` everywhere."""
from urllib.parse import urlparse

import pytest
from hypothesis import given, settings, strategies as st

from checker.load.models.urls import is_http_url

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def reference(v) -> bool:
    if not isinstance(v, str):
        return False
    try:
        u = urlparse(v.strip())
    except ValueError:
        return False
    return u.scheme in ("http", "https") and bool(u.netloc)


PIECES = st.sampled_from(["http", "https", "HTTPS", "hTtp", "ftp", "h", "1http", "+x", ":", "//", "/", "?", "#",
                          "@", "[", "]", "[::1]", "[v1.x]", "[1.2.3.4]", "example.com", "é.com", "ｅ.com", "\t",
                          "\n", "\r", " ", "\x00", "\x1f", "%", "host:80", "x", "\u2100", "."])
URLS = st.lists(PIECES, max_size=8).map("".join) | st.text(max_size=24)


@settings(max_examples=600, deadline=None)
@given(URLS)
def test_agrees_with_urllib(v):
    assert is_http_url(v) == reference(v), repr(v)


def test_examples():
    assert is_http_url("https://example.com/x") and is_http_url("  http://h?q") and is_http_url("http://[::1]/")
    assert not is_http_url("https:///path") and not is_http_url("http://[::1/") and not is_http_url(7)
    assert not is_http_url("mailto:x@y") and not is_http_url("example.com") and not is_http_url("http://[1.2.3.4]/")
