"""A finding's identity across runs (rule id, subject, data path; never the message or the line), the
identity of each problem a grouped finding lists (its ``parts``), and the visible spelling of a lone
surrogate every output writes.

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


def path_key(path) -> str:
    """A data path as one string, ``a/0/b``: the ``where`` of a fingerprint and of a problem part."""
    return "/".join(str(path_step(p)) for p in path)


def fingerprint(f: Finding) -> str:
    """Stable across runs and line moves: rule id, subject and data path; never the message or line."""
    return fingerprint_key("|".join([f.rule_id, f.subject.label(), path_key(f.location.path if f.location else ())]))


def problem_wheres(f: Finding) -> tuple[str, ...]:
    """Where each problem of the finding is: its parts (each wrong seed, each point of a grouped finding), else
    its one data path. A finding listing one problem has the part its data path names, so its identity is the
    same whether the rule groups or not."""
    return tuple(f.parts) if f.parts else (path_key(f.location.path if f.location else ()),)


def fingerprints(f: Finding) -> tuple[str, ...]:
    """One fingerprint per problem (``problem_wheres``): what a baseline compares, so a new problem never hides
    behind an old one of the same finding."""
    head = f"{f.rule_id}|{f.subject.label()}|"
    return tuple(fingerprint_key(head + w) for w in problem_wheres(f))


def dict_fingerprints(d: dict) -> tuple[str, ...]:
    """``fingerprints`` of a finding dict from an earlier JSON report (same keys, same hashes)."""
    s = d.get("subject") or {}
    label = "/".join(str(s.get(k) or "") for k in ("submission", "system", "model", "point", "entry")
                     if s.get(k)) or "(package)"
    parts = d.get("parts") or ()
    wheres = tuple(str(p) for p in parts) or ("/".join(str(p) for p in ((d.get("location") or {}).get("path") or ())),)
    head = f"{d.get('rule_id', '')}|{label}|"
    return tuple(fingerprint_key(head + w) for w in wheres)
