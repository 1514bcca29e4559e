"""The JSON report is encoded by msgspec, and its bytes are exactly the standard library's.

The reference is what the report renderer wrote before it used msgspec:
``json.dumps(doc, indent=2, ensure_ascii=False, allow_nan=False)`` (plus a final newline), including
its errors: NaN and infinity raise ValueError, an unknown type TypeError.
"""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.core.findings import Finding, Location, Severity, Status, Subject
from checker.engine.report import Report
from checker.core.json_text import encode_indented
from checker.render.json_report import render

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def stdlib(v):
    return json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)


def outcome(fn, v):
    try:
        return "ok", fn(v)
    except Exception as exc:  # noqa: BLE001 - the error itself is compared
        return type(exc).__name__, str(exc)


#: every float the encoders must agree on: exponents both ways, subnormals, -0.0, NaN and infinity
floats = st.floats() | st.sampled_from([1e16, 1e-5, 1e-7, 1e22, 1.5e300, 5e-324, -0.0, 0.0001, 1e15, 123456789.125,
                                         float("nan"), float("inf"), -float("inf")])
#: big integers (msgspec's native range is 64 bits), booleans (an int subclass)
ints = st.integers() | st.integers(min_value=2**62, max_value=2**200) | st.integers(min_value=-2**200, max_value=-2**62)
#: any text: non-ASCII, control characters, quotes, backslashes, U+2028, lone surrogates
texts = st.text() | st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x7F)) \
    | st.sampled_from(["\ud800", "a\udfffb", "\u2028\u2029", "\x7f\x00\x1f\b\f", "é 名前 🚀", '"\\/'])
keys = st.text(max_size=6) | ints | st.booleans() | st.none() | floats
leaves = st.none() | st.booleans() | ints | floats | texts
values = st.recursive(
    leaves,
    lambda kids: st.lists(kids, max_size=4) | st.tuples(kids, kids)
    | st.dictionaries(st.text(max_size=6), kids, max_size=4)
    | st.dictionaries(keys, kids, max_size=3),
    max_leaves=25)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(values)
def test_encoder_matches_stdlib_json(v):
    assert outcome(encode_indented, v) == outcome(stdlib, v)


@settings(max_examples=300, deadline=None)
@given(values, st.sampled_from(["  ", "    ", "\t"]))
def test_indent_is_applied_to_every_later_line(v, ind):
    want = outcome(stdlib, v)
    if want[0] == "ok":
        want = ("ok", want[1].replace("\n", "\n" + ind))
    assert outcome(lambda x: encode_indented(x, ind), v) == want


@pytest.mark.parametrize("v", [float("nan"), {"x": [float("inf")]}, [1, -float("inf")], {1.5: float("nan")},
                               {"a": {1, 2}}, object()])
def test_errors_are_the_stdlib_errors(v):
    want = outcome(stdlib, v)
    assert want[0] != "ok"
    assert outcome(encode_indented, v) == want


subjects = st.builds(Subject, texts, texts, texts, st.sampled_from(["", "r8", "r16", "r1024"]) | texts, texts)
locations = st.none() | st.builds(Location, texts, st.none() | ints, st.none() | ints,
                                  st.tuples(*[st.text(max_size=4) | ints | floats] * 2))
findings = st.builds(
    Finding, rule_id=st.from_regex(r"[a-z]+(-[a-z0-9]+){0,3}", fullmatch=True), status=st.sampled_from(list(Status)),
    severity=st.sampled_from(list(Severity)), subject=subjects, message=texts, family=st.text(max_size=10),
    title=texts, clause=st.text(max_size=8), location=locations, observed=values, expected=values,
    fix=st.none() | texts, reason=st.none() | texts, extra=st.dictionaries(st.text(max_size=6), values, max_size=3),
    baseline=st.sampled_from([None, "new", "unchanged"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(findings, max_size=6), st.dictionaries(st.text(max_size=6), values, max_size=2), st.booleans())
def test_report_bytes_match_stdlib(fs, sections, spliced):
    report = Report(findings=fs, rules=[], paths=["pkg", "名前"], policy_edition="v1.0", policy_version="1.0",
                    generated_at="2026-01-01T00:00:00+00:00", sections=sections)
    want = outcome(lambda r: stdlib(r.to_dict()) + "\n", report)
    if spliced:  # the cohort path: findings encoded by the workers, a block per unit, spliced in as text
        report.json_blocks = worker_texts(fs, range(len(fs)))
    assert outcome(render, report) == want


def worker_texts(fs, which) -> dict:
    """The ``json_blocks`` a cohort run hands over: each run of consecutive findings ``which`` (by index)
    as one block, encoded as a worker encodes it (a block json refuses is left to the renderer)."""
    from checker.core.json_text import findings_block

    blocks, run = {}, []
    for i, f in enumerate(fs + [None]):
        if i in which and f is not None:
            run.append(f)
            continue
        if run:
            try:
                blocks[id(run[0])] = (run, findings_block(run))
            except ValueError:
                pass
        run = []
    return blocks


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(findings, min_size=2, max_size=8), st.data())
def test_a_block_whose_findings_moved_is_encoded_again(fs, data):
    """A block is spliced in only where its very findings still follow each other: after one of them was
    replaced (a waiver), dropped or moved, the renderer encodes them itself, to the same bytes."""
    import msgspec

    blocks = worker_texts(fs, range(len(fs)))
    changed = list(fs)
    k = data.draw(st.integers(0, len(fs) - 1))
    how = data.draw(st.sampled_from(["replace", "drop", "move"]))
    if how == "replace":
        changed[k] = msgspec.structs.replace(fs[k], message=fs[k].message + " (waived)")
    elif how == "drop":
        del changed[k]
    else:
        changed.append(changed.pop(k))
    report = Report(findings=changed, rules=[], paths=["pkg"], policy_edition="v1.0", policy_version="1.0",
                    generated_at="2026-01-01T00:00:00+00:00")
    want = outcome(lambda r: stdlib(r.to_dict()) + "\n", report)
    report.json_blocks = blocks
    assert outcome(render, report) == want


def test_real_report_matches_stdlib(tmp_path):
    import os

    from casefixtures import FIXTURES
    from checker.engine.pipeline import run_check

    report = run_check([os.path.join(FIXTURES, "valid")])
    assert render(report) == stdlib(report.to_dict()) + "\n"


def test_plain_documents_never_reach_the_stdlib_encoder(monkeypatch):
    """The fast path handles what a report holds, float rewriting included; json is only the fallback."""
    doc = {"a": [1e16, 1e-07, 0.5, -0.0, 2**100, -2**70], "b": {"k": "é\u2028\x00"}, "c": [], "d": {}, "e": None}
    want = stdlib(doc)
    assert "1e+16" in want and "1e-07" in want

    def refuse(*a, **k):
        raise AssertionError("fell back to json.dumps")

    monkeypatch.setattr(json, "dumps", refuse)
    assert encode_indented(doc) == want
    assert encode_indented(doc, "  ") == want.replace("\n", "\n  ")


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(findings, min_size=3, max_size=9), st.integers(1, 4), st.sets(st.integers(0, 8)),
       st.integers(1, 2000))
def test_batches_and_worker_texts_splice_to_the_same_bytes(fs, batch, cached, chunk):
    """Findings are encoded in batches (BATCH at a time), a worker's block spliced between them, the pieces
    gathered into chunks of about CHUNK characters: same bytes, whatever the batch and chunk sizes."""
    import checker.render.json_report as jr

    report = Report(findings=fs, rules=[], paths=["pkg"], policy_edition="v1.0", policy_version="1.0",
                    generated_at="2026-01-01T00:00:00+00:00")
    want = outcome(lambda r: stdlib(r.to_dict()) + "\n", report)
    report.json_blocks = worker_texts(fs, cached)
    old = jr.BATCH, jr.CHUNK
    jr.BATCH, jr.CHUNK = batch, chunk
    try:
        assert outcome(render, report) == want
        if want[0] == "ok":  # between the head and the last two pieces (the list's end, the tail): whole chunks
            pieces = list(jr.render_chunks(report))
            assert all(len(p) >= chunk for p in pieces[1:-2])
    finally:
        jr.BATCH, jr.CHUNK = old
