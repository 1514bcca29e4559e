"""Hostile input, round two (issue 17): deep or huge values inside the streamed files, sparse or endless
files, and the bounded readers' budgets.

events.jsonl and sample_idx_map.json are streamed; a hostile line is a counted problem (never an
exception, never an "internal error" audit), a run of NUL bytes (a zero-filled or sparse tail) ends the
audit with a problem while the real part is still audited, integers and depth are bounded as in the
YAML/JSON readers, and YAML aliases are budgeted by the text they expand to as well as by nodes.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hostile_gen import (REAL_RUNS, RawJSON, deep_json_text, dump_json, examples, hostile_scalars, hostile_values,
                         internal_errors, realise, run_cli)

RUN = os.path.join(REAL_RUNS, "var_poisson_perf")
with open(os.path.join(RUN, "events.jsonl"), "rb") as _fh:
    LINES = _fh.read().split(b"\n")[:-1]  # the log ends with a newline
TS = json.loads(LINES[1])["timestamp_ns"]


def _event(event_type="sample.issued", ts=TS, uuid="u-hostile", data=None) -> bytes:
    doc = {"event_type": event_type, "timestamp_ns": ts, "sample_uuid": uuid, "conversation_id": "", "turn": None,
           "data": "@@DATA@@"}
    return dump_json(doc).replace('"@@DATA@@"', dump_json(data)).encode("utf-8", "surrogatepass")


#: one hostile line: a valid event whose data (or another field) is hostile, or bytes that are no event
hostile_lines = st.one_of(
    st.builds(lambda d: _event(data=realise(d)), hostile_values),
    st.builds(lambda d: _event(data=["PromptData", None, None, realise(d)]), hostile_values),
    st.builds(lambda t, ts: _event(event_type=t, ts=ts), st.sampled_from(["sample.complete", "session.ended",
                                                                          "x" * 300, "sample.recv_first", ""]),
              hostile_scalars),
    st.builds(lambda u: _event(uuid=u), hostile_scalars),
    st.binary(max_size=64).filter(lambda b: b"\n" not in b),
    st.sampled_from([b"", b"   ", b"\x00" * 100, b"{", b"[" * 5000, _event(data=RawJSON(deep_json_text(100_000))),
                     _event(data=RawJSON('{"d":' * 3000 + "1" + "}" * 3000)),
                     b'{"event_type": "sample.issued", "timestamp_ns": ' + b"9" * 5000 + b"}",
                     _event(data="x" * (3 << 20))]),
)


def _audit_fields(a) -> dict:
    d = msgspec.structs.asdict(a)
    d.pop("path")
    d.pop("bytes_read")
    return d


@settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(LINES)), hostile_lines), min_size=1, max_size=6),
       st.sampled_from([1 << 20, 4096, 61]), st.booleans())
@pytest.mark.slow
def test_events_hostile_lines_are_counted_problems(inserts, chunk, final_newline):
    """Any hostile lines anywhere: the audit completes (no error), counts every line, and gives the same
    result whatever the read size."""
    from checker.load.events import audit_events

    lines = list(LINES)
    for pos, line in sorted(inserts, key=lambda x: -x[0]):
        lines.insert(pos, line)
    raw = b"\n".join(lines) + (b"\n" if final_newline else b"")
    fd, path = tempfile.mkstemp(suffix=".jsonl")
    with os.fdopen(fd, "wb") as fh:
        fh.write(raw)
    try:
        base = audit_events(path)
        assert base.error is None, base.error
        assert base.lines in (len(lines), len(lines) - 1)  # a blank last line without a newline is no line
        if chunk != 1 << 20:
            other = audit_events(path, chunk_bytes=chunk)
            assert _audit_fields(other) == _audit_fields(base)
    finally:
        os.unlink(path)


def test_deep_data_is_one_problem_not_an_internal_error(tmp_path):
    """Issue 17: a sample.issued whose data nests 100,000 levels turned every events rule into an error."""
    from checker.engine.pipeline import run_check

    rf = tmp_path / "run"
    shutil.copytree(RUN, rf)
    lines = list(LINES)
    lines.insert(2, _event(data=RawJSON(deep_json_text(100_000))))
    (rf / "events.jsonl").write_bytes(b"\n".join(lines) + b"\n")
    rep = run_check([str(rf)], jobs=1)
    assert not internal_errors(rep.findings), internal_errors(rep.findings)
    log = [f for f in rep.findings if f.rule_id == "run-folder-events-log"]
    assert log and log[0].status.value == "FAIL" and "nested too deep" in log[0].message
    # the other events rules still audit the log
    assert [f for f in rep.findings if f.rule_id.startswith("run-folder-events-") and f.status.value != "SKIP"
            and f.rule_id != "run-folder-events-log"]


@pytest.mark.parametrize("where", ["tail", "middle"])
def test_sparse_nul_tail_stops_the_audit_fast(tmp_path, where):
    """Issue 17: an events.jsonl followed by 200 GB of sparse NUL bytes ran past any time limit."""
    from checker.load.events import audit_events

    path = tmp_path / "events.jsonl"
    whole = b"\n".join(LINES) + b"\n"
    if where == "tail":
        path.write_bytes(whole)
        with open(path, "r+b") as fh:
            fh.truncate(len(whole) + (200 << 30))
    else:
        half = len(LINES) // 2
        path.write_bytes(b"\n".join(LINES[:half]) + b"\n" + b"\x00" * (1 << 20) + b"\n".join(LINES[half:]) + b"\n")
    base = audit_events(os.path.join(RUN, "events.jsonl"))
    t0 = time.process_time()
    a = audit_events(str(path))
    assert time.process_time() - t0 < 2
    assert a.error is None
    assert a.problems.get("nul-run") == 1, a.problems
    if where == "tail":
        assert a.stopped_at_byte == len(whole)
        assert set(a.problems) == {"nul-run"}
        assert (a.issued, a.completed, a.lines, a.ttft, a.latency) == (base.issued, base.completed, base.lines,
                                                                         base.ttft, base.latency)
    else:
        assert a.lines < base.lines


def test_short_nul_runs_are_malformed_lines_not_a_stop(tmp_path):
    from checker.load.events import audit_events
    from checker.load.events_lines import MAX_NUL_RUN

    path = tmp_path / "events.jsonl"
    lines = list(LINES)
    lines.insert(3, b"\x00" * (MAX_NUL_RUN - 1))
    path.write_bytes(b"\n".join(lines) + b"\n")
    a = audit_events(str(path), chunk_bytes=4096)
    assert "nul-run" not in a.problems and a.problems.get("malformed-line") == 1
    assert a.lines == len(lines)


@pytest.mark.slow
def test_sparse_run_folder_through_the_cli(tmp_path):
    rf = tmp_path / "run"
    shutil.copytree(RUN, rf)
    ev = rf / "events.jsonl"
    with open(ev, "r+b") as fh:
        fh.truncate(ev.stat().st_size + (200 << 30))
    out = tmp_path / "r.json"
    rc, _, stderr, cpu, rss = run_cli(["check", str(rf), "-f", "json", "-o", str(out)], timeout=60)
    assert "Traceback" not in stderr and rc == 1, stderr
    assert cpu < 10 and rss < 200, (cpu, rss)
    doc = json.loads(out.read_text())
    assert not internal_errors(doc["findings"])
    log = [f for f in doc["findings"] if f["rule_id"] == "run-folder-events-log"][0]
    assert log["status"] == "FAIL" and "NUL" in log["message"]


# ---------------------------------------------------------------------------------------------------------
# sample_idx_map.json


idx_values = (hostile_scalars | st.sampled_from([10 ** 5000, -(10 ** 70), 10 ** 63])
              | st.lists(st.integers(), max_size=2))
idx_docs = st.dictionaries(st.sampled_from(["performance", "accuracy", "\udcff", "x" * 200]),
                           st.dictionaries(st.text(max_size=8), idx_values, max_size=5) | hostile_values, max_size=3)


def _dump_idx(doc) -> bytes:
    """Ints past Python's str limit are written as 5,000 digits."""
    text = dump_json({k: v if not isinstance(v, dict) else {kk: ("@@BIG@@" if isinstance(vv, int) and
                                                                  abs(vv) > 10 ** 4000 else realise(vv))
                                                           for kk, vv in v.items()}
                      for k, v in doc.items()})
    return text.replace('"@@BIG@@"', "9" * 5000).encode("utf-8", "surrogatepass")


@settings(max_examples=examples(60), deadline=None)
@given(idx_docs, st.booleans())
def test_sample_map_never_raises(doc, scan):
    import checker.load.sample_map as sm

    raw = _dump_idx(doc)
    fd, path = tempfile.mkstemp(suffix=".json")
    with os.fdopen(fd, "wb") as fh:
        fh.write(raw)
    old = sm.FULL_DECODE_BYTES
    sm.FULL_DECODE_BYTES = -1 if scan else old  # -1: the chunked scan, as for a file over 16 MiB
    try:
        m = sm.summarize_idx_map(path)
        assert m.error is not None or all(isinstance(v[0], int) for v in m.phases.values())
        for c, top in m.phases.values():
            assert top is None or len(str(abs(top))) <= 64
    finally:
        sm.FULL_DECODE_BYTES = old
        os.unlink(path)


@pytest.mark.parametrize("scan", [False, True])
def test_sample_map_huge_row_index_is_an_error_not_a_crash(tmp_path, monkeypatch, scan):
    """Issue 17: a 5,000-digit row index raised ValueError."""
    import checker.load.sample_map as sm

    if scan:
        monkeypatch.setattr(sm, "FULL_DECODE_BYTES", -1)
    p = tmp_path / "sample_idx_map.json"
    p.write_text('{"performance": {"a": 1, "b": ' + "9" * 5000 + "}}")
    m = sm.summarize_idx_map(str(p))
    assert m.error and ("digits" in m.error or "out of range" in m.error), m.error


# ---------------------------------------------------------------------------------------------------------
# the bounded readers' budgets


alias_docs = st.builds(
    lambda n, size, nest, reps: ("s: &s " + "x" * size + "\n"
                                 + "".join(f"l{i}: &l{i} [{', '.join([('*l' + str(i - 1)) if i else '*s'] * reps)}]\n"
                                           for i in range(nest))
                                 + "all: [" + ", ".join([f"*l{nest - 1}" if nest else "*s"] * n) + "]\n"),
    st.integers(1, 3000), st.integers(1, 4000), st.integers(0, 3), st.integers(1, 12))


def _chars(v) -> int:
    total, stack = 0, [v]
    while stack:
        x = stack.pop()
        if isinstance(x, str):
            total += len(x)
        elif isinstance(x, dict):
            stack.extend(x.keys())
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return total


@settings(max_examples=examples(80), deadline=None)
@given(alias_docs)
def test_yaml_aliases_expand_to_bounded_text(text):
    """Issue 17: 9,000 aliases of a 700 KiB string passed the node budget and made a rule read 6 GB."""
    from checker.load.yaml_reader import MAX_ALIAS_CHARS, MAX_ALIAS_NODES, YamlLoadError, parse_yaml

    try:
        data = parse_yaml(text, want_positions=False).data
    except YamlLoadError as exc:
        assert exc.code == "alias-budget", exc.message
        return
    assert _chars(data) <= len(text) + MAX_ALIAS_CHARS
    assert text.count("*") <= MAX_ALIAS_NODES


def test_config_alias_flood_is_refused_in_a_run_folder(tmp_path):
    from checker.engine.pipeline import run_check

    rf = tmp_path / "run"
    shutil.copytree(RUN, rf)
    with open(rf / "config.yaml", "a") as fh:
        fh.write("flood_s: &flood " + "k" * (700 << 10) + "\nflood: [" + ", ".join(["*flood"] * 9000) + "]\n")
    t0 = time.process_time()
    rep = run_check([str(rf)], jobs=1)
    assert time.process_time() - t0 < 10
    assert [f for f in rep.findings if f.rule_id == "alias-budget" and f.status.value == "FAIL"]
    assert not internal_errors(rep.findings)


json_docs = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=5), c, max_size=4), max_leaves=25)


@settings(max_examples=examples(150), deadline=None)
@given(json_docs, st.sampled_from([None, 1, 2]), st.booleans())
def test_json_locator_agrees_with_the_position_map(doc, indent, ascii_only):
    """Large JSON files find positions by walking the text: the same line:col as the full map."""
    from checker.load.json_reader import locate_json
    from checker.load.yaml_reader import YamlLoadError, parse_yaml

    text = json.dumps(doc, indent=indent, ensure_ascii=ascii_only)
    try:
        positions = parse_yaml(text).positions
    except YamlLoadError:
        return  # e.g. a key YAML reads as a duplicate ("1" and 1 are one JSON key, two YAML keys)
    for path, pos in positions.items():
        i = locate_json(text, path)
        assert i is not None, path
        assert (text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1) == pos, path
    assert locate_json(text, ("no such key",) * 2) is None or not isinstance(doc, dict)


def test_big_list_positions_are_bounded():
    from checker.load.yaml_reader import MAX_LIST_POSITIONS, parse_yaml

    doc = parse_yaml("a: [" + ", ".join(["1"] * 5000) + "]\nb: 2\n")
    data, positions = doc.data, doc.positions
    assert len(data["a"]) == 5000
    assert len(positions) <= MAX_LIST_POSITIONS + 3
    assert positions[("b",)] == (2, 4)


yaml_docs = st.recursive(
    st.none() | st.booleans() | st.integers(-10 ** 6, 10 ** 6) | st.text(alphabet="abc xyz:-#", max_size=6),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(alphabet="abcdef", min_size=1, max_size=4), c,
                                                        max_size=4), max_leaves=25)


@settings(max_examples=examples(100), deadline=None)
@given(yaml_docs, st.booleans())
def test_yaml_locator_agrees_with_the_position_map(doc, flow):
    """Large YAML files find a position by parsing only up to it: the same line:col as the full map."""
    import yaml

    from checker.load.yaml_reader import YamlLoadError, locate_yaml, parse_yaml

    text = yaml.safe_dump({"root": doc, "after": 1}, default_flow_style=flow)
    try:
        positions = parse_yaml(text).positions
    except YamlLoadError:
        return
    for path, pos in positions.items():
        assert locate_yaml(text, path) == pos, path
    assert locate_yaml(text, ("no such key",)) is None


def test_positions_count_newlines_only():
    """NEL, LS and PS break lines for the YAML parser but not in an editor, grep or JSON: a value after
    one is still on the line the user sees (found by the locator property above with ``["\\x85", null]``)."""
    from checker.load.yaml_reader import parse_yaml

    text = json.dumps(["\x85", None, "\u2028\u2029", 7], ensure_ascii=False)
    positions = parse_yaml(text).positions
    assert positions[(1,)] == (1, 7) and positions[(3,)] == (1, 19)
    positions = parse_yaml('a: "x\x85y"\nb: 1\n').positions
    assert positions[("b",)] == (2, 4)


def test_sample_map_row_index_bound_is_the_same_decoded_whole_or_scanned():
    """A row index over MAX_INT_DIGITS is refused whether the file is decoded whole or scanned in chunks
    (msgspec decodes such integers; only the scan refused them, found by the property above)."""
    import io

    import checker.load.sample_map as sm

    raw = b'{"p": {"u": 1' + b"0" * 64 + b"}}"
    whole = sm.summarize_stream(io.BytesIO(raw), len(raw))
    old = sm.FULL_DECODE_BYTES
    sm.FULL_DECODE_BYTES = -1
    try:
        scanned = sm.summarize_stream(io.BytesIO(raw), len(raw))
    finally:
        sm.FULL_DECODE_BYTES = old
    for m in (whole, scanned):
        assert m.error is not None and "65 digits (limit 64)" in m.error, m.error
    ok = sm.summarize_stream(io.BytesIO(b'{"p": {"u": 1' + b"0" * 63 + b"}}"), 70)
    assert ok.error is None and ok.phases["p"] == (1, 10 ** 63)
