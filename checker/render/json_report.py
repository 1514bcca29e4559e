"""The JSON report (schemas/report.schema.json): stable key order, sorted findings.

The bytes are exactly ``json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)`` (what this
renderer wrote before, and what ``tests/render/test_json_encoder.py`` property-tests against), but the work
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

The findings are encoded in batches and spliced in as text (``render_chunks``), and a cohort run hands
over each unit's findings already encoded by the worker that found them (``report.json_blocks``: id of
the first finding -> (the findings, their text), see ``checker.engine.pipeline``; a block is used only
where those very findings follow each other in the report). The bytes are the same either way:
``json.dumps(indent=2)`` output is compositional (a nested value is its own rendering with every
later line indented by its depth).
"""
from __future__ import annotations

from itertools import islice
from operator import is_

from checker.core.json_text import encode_indented, findings_block

_SLOT = "@@findings@@"


def render(report, **_options) -> str:
    return "".join(render_chunks(report))


def render_chunks(report):
    """The report as consecutive pieces of text: the findings are encoded a batch at a time (or come
    encoded from a worker) and spliced in, never one dict tree of the whole report (json's indenting
    encoder would hold every small piece of it at once), so a writer holds a bounded piece at a time."""
    blocks = getattr(report, "json_blocks", None) or {}
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
        # (a 100-submission cohort has 267,000 findings)
        out: list = []
        size = 0
        sep = "[\n    "
        for text in _items(report.findings, blocks):
            out += (sep, text)
            sep = ",\n    "
            size += len(text)
            if size >= CHUNK:
                yield "".join(out)
                out, size = [], 0
        out.append("\n  ]")
        yield "".join(out)
    yield head[cut + len(slot):]


#: findings encoded per call: one encode, check and format per batch instead of per finding (a third of
#: the JSON report's time), while a writer still holds a bounded piece of the report at a time
BATCH = 256
#: characters of findings per yielded piece: a few hundred writes for a 100 MB report, a bounded buffer
CHUNK = 1 << 20


def _items(findings: list, blocks: dict):
    """The findings list's items as consecutive texts (``findings_block``'s form): a worker's block whole
    where its findings follow each other, the others encoded BATCH at a time."""
    batch: list = []
    i, n = 0, len(findings)
    while i < n:
        hit = blocks.get(id(findings[i]))
        if hit is not None and _holds(findings, i, hit[0]):
            if batch:
                yield findings_block(batch)
                batch = []
            yield str(hit[1])  # the text, or read back from where it was spooled (checker.core.spool)
            i += len(hit[0])
            continue
        batch.append(findings[i])
        i += 1
        if len(batch) == BATCH:
            yield findings_block(batch)
            batch = []
    if batch:
        yield findings_block(batch)


def _holds(findings: list, i: int, block: list) -> bool:
    """Do ``findings[i:]`` start with the very objects of ``block``? (``is``, in C: a block is a unit's
    thousands of findings)"""
    return len(block) <= len(findings) - i and all(map(is_, block, islice(findings, i, i + len(block))))
