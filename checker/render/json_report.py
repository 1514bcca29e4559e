"""The JSON report (schemas/report.schema.json): stable key order, sorted findings.

The bytes are exactly ``json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)`` (what this
renderer wrote before, and what ``tests/test_json_encoder.py`` property-tests against), but the work
is done by msgspec (``checker.core.json_text``, shared with the cohort workers): encode in C,
re-indent in C, then two cheap guards make the result the standard library's:

- msgspec writes a float in its own shortest form (``1e16``, ``1e-7``) where Python writes
  ``1e+16``, ``1e-07``: the check below sees every float token, and when one is not Python's
  repr the float tokens are rewritten with ``float.__repr__`` (the repr round-trips, so the value
  is unchanged);
- msgspec writes NaN and infinity as ``null``, and would encode values json refuses (dataclasses,
  enums of other types) or read non-string keys its own way: the encoded text is decoded again and
  must equal the document. When it does not, or msgspec refuses the value (a lone surrogate, a
  type it cannot encode), the standard library encodes it, raising exactly today's ValueError or
  TypeError.

The findings are encoded one at a time and spliced in as text (``render_chunks``), and a cohort
run may hand over each finding's JSON text already encoded by the worker that found it
(``report.json_cache``: id(finding) -> (finding, text), see ``checker.engine.pipeline``; the entry is used
only while it still names that very finding object). The bytes are the same either way:
``json.dumps(indent=2)`` output is compositional (a nested value is its own rendering with every
later line indented by its depth).
"""
from __future__ import annotations

from checker.core.json_text import encode_indented

_SLOT = "@@findings@@"


def render(report, **_options) -> str:
    return "".join(render_chunks(report))


def render_chunks(report):
    """The report as consecutive pieces of text: the findings are encoded one at a time and spliced in,
    never one dict tree of the whole report (json's indenting encoder would hold every small piece of it
    at once), so a writer holds one finding at a time."""
    cache = getattr(report, "json_cache", None) or {}
    doc = report.to_dict(with_findings=False)
    doc["findings"] = _SLOT
    try:
        head = encode_indented(doc) + "\n"
    except (TypeError, ValueError):
        # a value JSON refuses: encode the whole report so the error names what json.dumps names
        # first (the findings come before the later keys), never a different value of the same report
        yield encode_indented(report.to_dict()) + "\n"
        return
    # a JSON string never holds a raw newline, so this key at two spaces' indent is the top-level one
    slot = f'\n  "findings": "{_SLOT}"'
    cut = head.index(slot)
    yield head[:cut] + '\n  "findings": '
    if not report.findings:
        yield "[]"
    else:
        # pieces are gathered into chunks of about CHUNK characters: one write per chunk, not per finding
        # (a 100-submission cohort has 267,000 findings); a run of consecutive worker-encoded findings is
        # joined, then indented with one replace (its separators' newlines take the same indent)
        out: list = []
        size = 0
        sep = "[\n    "
        batch: list = []
        run: list = []
        for f in report.findings:
            hit = cache.get(id(f))
            if hit is not None and hit[0] is f:
                if batch:
                    piece = sep + _batch_json(batch)
                    out.append(piece)
                    size += len(piece)
                    batch, sep = [], ",\n    "
                run.append(hit[1])
                size += len(hit[1])
                if size >= CHUNK:
                    out.append(sep + ",\n".join(run).replace("\n", "\n    "))
                    run, sep = [], ",\n    "
                    yield "".join(out)
                    out, size = [], 0
            else:
                if run:
                    out.append(sep + ",\n".join(run).replace("\n", "\n    "))
                    run, sep = [], ",\n    "
                batch.append(f.as_dict())
                if len(batch) == BATCH:
                    piece = sep + _batch_json(batch)
                    out.append(piece)
                    size += len(piece)
                    batch, sep = [], ",\n    "
                    if size >= CHUNK:
                        yield "".join(out)
                        out, size = [], 0
        if run:
            out.append(sep + ",\n".join(run).replace("\n", "\n    "))
        if batch:
            out.append(sep + _batch_json(batch))
        out.append("\n  ]")
        yield "".join(out)
    yield head[cut + len(slot):]


#: findings encoded per call: one encode, check and format per batch instead of per finding (a third of
#: the JSON report's time), while a writer still holds a bounded piece of the report at a time
BATCH = 256
#: characters of findings per yielded piece: a few hundred writes for a 100 MB report, a bounded buffer
CHUNK = 1 << 20


def _batch_json(dicts: list) -> str:
    """Consecutive findings as they sit in the report's list (items at depth 2, separated by commas).

    ``json.dumps(indent=2)`` of a list is ``[`` + its items at 2 spaces, one per line group + ``]``: the
    items are taken from between the brackets and indented two spaces more."""
    text = encode_indented(dicts)
    return text[4:-2].replace("\n", "\n  ")
