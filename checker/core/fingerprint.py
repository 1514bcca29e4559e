"""A finding's identity across runs (rule id, subject, data path; never the message or the line) and
the visible spelling of a lone surrogate every output writes.

Core holds it because both the baseline (engine) and the SARIF and GitHub outputs (render) name
findings by it, and the engine never imports a renderer.
"""
from __future__ import annotations

import hashlib
import re

from checker.core.findings import Finding, path_step


_SURROGATE = re.compile("[\ud800-\udfff]")


def visible(text: str) -> str:
    """``text`` with each lone UTF-16 surrogate (a non-UTF-8 byte in a file name, a ``\\ud800`` in a JSON
    file) spelled as the visible escape ``\\udcxx``: what every output writes in its place."""
    return _SURROGATE.sub(lambda m: "\\u%04x" % ord(m.group()), text)


def fingerprint_key(key: str) -> str:
    """sha256 of the key as written in a report (surrogates as their visible escape), 32 hex digits."""
    return hashlib.sha256(visible(key).encode("utf-8")).hexdigest()[:32]


def fingerprint(f: Finding) -> str:
    """Stable across runs and line moves: rule id, subject and data path; never the message or line."""
    path = "/".join(str(path_step(p)) for p in (f.location.path if f.location else ()))
    return fingerprint_key("|".join([f.rule_id, f.subject.label(), path]))
