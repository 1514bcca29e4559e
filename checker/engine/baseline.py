"""Baselines (``--baseline previous.json``): which FAILs are new, unchanged or resolved.

A finding's identity is ``checker.render.common.fingerprint``: rule id, subject label and data
path; never the line number or the message, so edits that move lines or reword messages keep a
finding "unchanged". The baseline is any earlier JSON report of this tool (schema 1.x).
"""
from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass

from checker.core.findings import Finding, Status, Subject
from checker.render.common import fingerprint

MAX_BASELINE_BYTES = 512 * 1024 * 1024


class BaselineError(ValueError):
    """The baseline file cannot be read or is not an endpoints-checker JSON report (exit 2)."""


@dataclass
class Baseline:
    file: str
    failing: dict  # fingerprint -> the previous finding's dict (FAIL findings only)


def dict_fingerprint(d: dict) -> str:
    """``fingerprint`` of a finding dict from an earlier JSON report (same key, same hash)."""
    s = d.get("subject") or {}
    subject = Subject(*(str(s.get(k, "")) for k in ("submission", "system", "model", "point", "entry")))
    path = "/".join(str(p) for p in ((d.get("location") or {}).get("path") or ()))
    key = "|".join([str(d.get("rule_id", "")), subject.label(), path])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def load_baseline(source: str | dict) -> Baseline:
    if isinstance(source, dict):
        doc, name = source, "<baseline>"
    else:
        name = source
        try:
            if os.path.getsize(source) > MAX_BASELINE_BYTES:
                raise BaselineError(f"baseline {source} is larger than {MAX_BASELINE_BYTES} bytes")
            with open(source, encoding="utf-8") as fh:
                doc = json.load(fh)
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            if isinstance(exc, BaselineError):
                raise
            raise BaselineError(f"cannot read baseline {source}: {exc}") from exc
    if not isinstance(doc, dict) or not isinstance(doc.get("findings"), list) \
            or not str(doc.get("schema_version", "")).startswith("1."):
        raise BaselineError(f"baseline {name} is not an endpoints-checker JSON report (schema 1.x)")
    failing = {}
    for d in doc["findings"]:
        if isinstance(d, dict) and d.get("status") == "FAIL":
            failing.setdefault(dict_fingerprint(d), d)
    return Baseline(file=name, failing=failing)


def mark(findings: list[Finding], base: Baseline | None) -> tuple[list[Finding], dict | None]:
    """Tag each current FAIL new/unchanged; return the findings and the report's ``baseline`` section."""
    if base is None:
        return findings, None
    seen = set()
    counts = {"new": 0, "unchanged": 0, "resolved": 0}
    for f in findings:
        if f.status is not Status.FAIL:
            continue
        fp = fingerprint(f)
        seen.add(fp)
        f.baseline = "unchanged" if fp in base.failing else "new"
        counts[f.baseline] += 1
    resolved = []
    for fp, d in sorted(base.failing.items(), key=lambda kv: _resolved_key(kv[1], kv[0])):
        if fp in seen:
            continue
        entry = {k: d[k] for k in ("rule_id", "severity", "family", "subject", "message", "location") if k in d}
        entry["fingerprint"] = fp
        resolved.append(entry)
    counts["resolved"] = len(resolved)
    return findings, {"file": base.file, "counts": counts, "resolved": resolved}


def _resolved_key(d: dict, fp: str) -> tuple:
    s = d.get("subject") or {}
    return (tuple(str(s.get(k, "")) for k in ("submission", "system", "model", "point", "entry")),
            str(d.get("rule_id", "")), fp)
