"""The JSON report (schemas/report.schema.json): stable key order, sorted findings.

A cohort run may hand over each finding's JSON text already encoded by the worker that found it
(``report.json_cache``: id(finding) -> (finding, text), see ``checker.engine.pipeline``; the entry is used
only while it still names that very finding object); the findings array is then
spliced in as text. The bytes are the same either way: ``json.dumps(indent=2)`` output is
compositional (a nested value is its own rendering with every later line indented by its depth).
"""
from __future__ import annotations

import json
from json.encoder import encode_basestring as _string  # the C escaper json itself uses (ensure_ascii=False)

_ENCODER = json.JSONEncoder(indent=2, ensure_ascii=False, allow_nan=False)
_SLOT = "@@findings@@"
_INF = float("inf")


def finding_json(finding) -> str:
    """One finding as the report renders it at depth 0."""
    return encode_indented(finding.as_dict())


def encode_indented(v, ind: str = "") -> str:
    """``json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)``, same bytes, about twice as fast
    for plain values (str keys, str/int/float/bool/None leaves); anything else takes json's own path."""
    if isinstance(v, str):
        return _string(v)
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, int):
        return int.__repr__(v)
    if isinstance(v, float) and v == v and v != _INF and v != -_INF:
        return float.__repr__(v)
    if isinstance(v, dict) and all(isinstance(k, str) for k in v):
        if not v:
            return "{}"
        inner = ind + "  "
        return "{\n" + ",\n".join([inner + _string(k) + ": " + encode_indented(x, inner) for k, x in v.items()]) \
            + "\n" + ind + "}"
    if isinstance(v, (list, tuple)):
        if not v:
            return "[]"
        inner = ind + "  "
        return "[\n" + ",\n".join([inner + encode_indented(x, inner) for x in v]) + "\n" + ind + "]"
    return _ENCODER.encode(v).replace("\n", "\n" + ind)


def render(report, **_options) -> str:
    return "".join(render_chunks(report))


def render_chunks(report):
    """The report as consecutive pieces of text: the findings are encoded one at a time and spliced in,
    never one dict tree of the whole report (json's indenting encoder would hold every small piece of it
    at once), so a writer holds one finding at a time."""
    cache = getattr(report, "json_cache", None) or {}
    doc = report.to_dict(with_findings=False)
    doc["findings"] = _SLOT
    head = json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    # a JSON string never holds a raw newline, so this key at two spaces' indent is the top-level one
    slot = f'\n  "findings": "{_SLOT}"'
    cut = head.index(slot)
    yield head[:cut] + '\n  "findings": '
    if not report.findings:
        yield "[]"
    else:
        sep = "[\n    "
        for f in report.findings:
            hit = cache.get(id(f))
            text = hit[1] if hit is not None and hit[0] is f else finding_json(f)
            yield sep + text.replace("\n", "\n    ")
            sep = ",\n    "
        yield "\n  ]"
    yield head[cut + len(slot):]
