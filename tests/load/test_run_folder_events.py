"""The events.jsonl audit: exact rebuild of the real runs, damaged logs as findings, the percentile method."""
import json
import math
import os
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casefixtures import REAL_RUNS, make_writable
from checker.load.events import PERCENTILES, Series, audit_events, percentile_lower

RUNS = ("echo_accuracy_only", "var_concurrency_allchunks", "var_poisson_perf")


def _summary(name):
    with open(os.path.join(REAL_RUNS, name, "performance", "result_summary.json"), encoding="utf-8") as fh:
        return json.load(fh)


def _copy(name, tmp_path):
    dest = os.path.join(str(tmp_path), name)
    shutil.copytree(os.path.join(REAL_RUNS, name), dest)
    make_writable(dest)
    return dest


def _lines(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read().splitlines(keepends=True)


def _write(path, lines):
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(lines)


@pytest.mark.parametrize("name", ["var_concurrency_allchunks", "var_poisson_perf"])
def test_real_runs_rebuild_exactly(name):
    a = audit_events(os.path.join(REAL_RUNS, name, "events.jsonl"))
    s = _summary(name)
    assert a.error is None and a.problems == {}
    assert (a.issued, a.completed, a.failed) == (s["n_samples_issued"], s["n_samples_completed"], s["n_samples_failed"])
    assert a.duration_ns == s["duration_ns"]
    for key, series in (("ttft", a.ttft), ("latency", a.latency)):
        assert series.min == s[key]["min"] and series.max == s[key]["max"] and series.total == s[key]["total"]
        assert {k: float(v) for k, v in series.percentiles.items()} == s[key]["percentiles"]


def test_real_run_details():
    chunks = audit_events(os.path.join(REAL_RUNS, "var_concurrency_allchunks", "events.jsonl"))
    assert chunks.recv_non_first == 31503 and chunks.in_flight_at_end == 8 and chunks.warmup_issued == 0
    assert chunks.ttft.count == 649 and chunks.latency.count == 642  # TTFT also for samples that never completed
    poisson = audit_events(os.path.join(REAL_RUNS, "var_poisson_perf", "events.jsonl"))
    assert poisson.warmup_issued == 50 and poisson.warmup_salted == 50
    assert poisson.warmup_perf_overlap == 0 and poisson.warmup_perf_overlap_salted > 0
    assert 0 < poisson.warmup_span_ns < 86_400 * 10**9
    acc = audit_events(os.path.join(REAL_RUNS, "echo_accuracy_only", "events.jsonl"))
    assert not acc.has_tracking and acc.issued == 0 and acc.warmup_issued == 0
    assert acc.post_issued == 10 and acc.post_completed == 10


def test_truncated_last_line(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "events.jsonl")
    os.truncate(p, os.path.getsize(p) - 40)
    a = audit_events(p)
    assert a.truncated_last_line and a.problems == {"truncated-last-line": 1}
    assert a.examples["truncated-last-line"] == [3704]
    assert a.issued == 1200  # everything before the cut still counts


def test_malformed_unknown_and_out_of_order(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "events.jsonl")
    lines = _lines(p)
    first = json.loads(lines[1])
    late = dict(first, event_type="sample.recv_first", timestamp_ns=first["timestamp_ns"] - 10**11)
    lines[5:5] = ["{not json\n", "\n", json.dumps({"event_type": "sample.bogus", "timestamp_ns": 1}) + "\n",
                  json.dumps({"event_type": "sample.issued", "timestamp_ns": "soon"}) + "\n",
                  json.dumps(late) + "\n",
                  json.dumps({"event_type": "sample.complete", "timestamp_ns": first["timestamp_ns"],
                              "sample_uuid": "f" * 32}) + "\n"]
    _write(p, lines)
    a = audit_events(p)
    assert a.error is None
    assert a.problems["malformed-line"] == 2 and a.examples["malformed-line"] == [6, 9]
    assert a.problems["blank-line"] == 1
    assert a.problems["unknown-event-type"] == 1 and a.unknown_types == {"sample.bogus": 1}
    assert a.problems["event-for-unknown-sample"] == 1
    assert a.max_backstep_ns >= 10**11


def test_event_before_issue_and_session_order(tmp_path):
    d = _copy("var_concurrency_allchunks", tmp_path)
    p = os.path.join(d, "events.jsonl")
    lines = _lines(p)
    issued = json.loads(lines[2])
    lines.insert(3, json.dumps(dict(issued, event_type="sample.recv_first", timestamp_ns=issued["timestamp_ns"] - 5,
                                    data=None)) + "\n")
    lines.append(lines[0])  # session.started again, after everything
    _write(p, lines)
    a = audit_events(p)
    assert a.problems["event-before-issue"] == 1
    assert a.problems["session-started-late"] == 1
    assert a.problems["event-after-session-ended"] == 1


def test_unreadable_and_special_files(tmp_path):
    missing = audit_events(str(tmp_path / "nope.jsonl"))
    assert missing.error and missing.error.startswith("cannot open")
    fifo = tmp_path / "events.jsonl"
    os.mkfifo(fifo)
    assert audit_events(str(fifo)).error == "cannot open: not a regular file"
    (tmp_path / "d").mkdir()
    assert audit_events(str(tmp_path / "d")).error is not None


def test_symlink_escape_is_refused(tmp_path):
    root = tmp_path / "run"
    root.mkdir()
    os.symlink(os.path.join(REAL_RUNS, "var_poisson_perf", "events.jsonl"), root / "events.jsonl")
    a = audit_events(str(root / "events.jsonl"), os.path.realpath(str(root)))
    assert a.error and "outside" in a.error


def test_chunk_boundaries_do_not_matter(tmp_path):
    p = os.path.join(REAL_RUNS, "var_poisson_perf", "events.jsonl")
    whole = audit_events(p)
    for size in (61, 97, 4096):
        assert audit_events(p, chunk_bytes=size) == whole


def test_overlong_line_is_skipped(tmp_path, monkeypatch):
    import checker.load.events_lines as ev

    monkeypatch.setattr(ev, "MAX_LINE_BYTES", 1000)
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "events.jsonl")
    lines = _lines(p)
    lines.insert(3, "x" * 5000 + "\n")
    lines.append("y" * 5000)  # and an overlong unterminated last line
    _write(p, lines)
    a = audit_events(p, chunk_bytes=256)
    assert a.problems == {"line-too-long": 2} and a.examples["line-too-long"] == [4, 3706]
    assert a.issued == 1200 and a.lines == 3706


def test_empty_log(tmp_path):
    p = tmp_path / "events.jsonl"
    p.write_bytes(b"")
    a = audit_events(str(p))
    assert a.lines == 0 and a.error is None and not a.has_tracking


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(min_value=-10**12, max_value=10**12), min_size=1, max_size=200),
       st.sampled_from([float(k) for k in PERCENTILES] + [0.0, 100.0, 33.3]))
def test_percentile_lower_matches_numpy_definition(values, q):
    """numpy 'lower': the largest element with at most floor((n-1)q/100) elements strictly below it."""
    s = sorted(values)
    r = percentile_lower(s, q)
    h = math.floor((len(s) - 1) * q / 100)
    assert r in s
    assert sum(1 for x in s if x < r) <= h < sum(1 for x in s if x <= r)


def test_percentile_edges():
    assert percentile_lower([], 50) is None
    assert percentile_lower([7], 99.9) == 7
    assert percentile_lower(list(range(1000)), 99.9) == 998  # floor(999 * 0.999) = 998
    assert Series.of([]).count == 0 and Series.of([]).percentiles == {}


def test_idx_map_scan_equals_full_decode(tmp_path, monkeypatch):
    import checker.load.sample_map as im

    for name in RUNS:
        p = os.path.join(REAL_RUNS, name, "sample_idx_map.json")
        full = im.summarize_idx_map(p)
        assert full.error is None and full.phases
        monkeypatch.setattr(im, "FULL_DECODE_BYTES", 0)
        for size in (7, 64, 4096):
            monkeypatch.setattr(im, "CHUNK_BYTES", size)
            assert im.summarize_idx_map(p).phases == full.phases
        monkeypatch.setattr(im, "FULL_DECODE_BYTES", 16 << 20)
    compact = tmp_path / "m.json"
    compact.write_text('{"performance":{"a":1,"b":2},"acc":{"c":3}}')
    monkeypatch.setattr(im, "FULL_DECODE_BYTES", 0)
    monkeypatch.setattr(im, "CHUNK_BYTES", 5)
    assert im.summarize_idx_map(str(compact)).phases == {"performance": (2, 2), "acc": (1, 3)}
    compact.write_text('{"performance":{"a":"x"}}')
    assert im.summarize_idx_map(str(compact)).error


def test_idx_map_errors(tmp_path):
    from checker.load.sample_map import summarize_idx_map

    p = tmp_path / "sample_idx_map.json"
    p.write_text('{"performance": [1, 2]}')
    assert "not a {phase" in summarize_idx_map(str(p)).error
    assert summarize_idx_map(str(tmp_path / "none.json")).error.startswith("cannot open")


def test_out_of_range_timestamps_are_malformed(tmp_path):
    p = tmp_path / "events.jsonl"
    good = {"event_type": "session.started", "timestamp_ns": 5, "sample_uuid": ""}
    rows = [good, dict(good, timestamp_ns=-1), dict(good, timestamp_ns=2**64 - 1), dict(good, timestamp_ns=10**40),
            dict(good, timestamp_ns=1.5), dict(good, event_type=None)]
    p.write_text("".join(json.dumps(r) + "\n" for r in rows))
    a = audit_events(str(p))
    assert a.error is None and a.problems == {"malformed-line": 5}


def test_first_chunk_logged_after_completion_is_not_unknown(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "events.jsonl")
    lines = _lines(p)
    i = next(k for k, ln in enumerate(lines) if '"sample.recv_first"' in ln and k > 200)
    uuid = json.loads(lines[i])["sample_uuid"]
    j = next(k for k, ln in enumerate(lines) if '"sample.complete"' in ln and uuid in ln)
    moved = lines.pop(i)
    lines.insert(j, moved)  # now just after its completion
    _write(p, lines)
    a = audit_events(p)
    assert a.problems == {} and a.late_first_chunks == 1 and a.ttft.count == 1199


def test_session_structure_problems(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "events.jsonl")
    lines = [ln for ln in _lines(p) if '"session.started"' not in ln and '"session.stop_performance_tracking"' not in ln]
    _write(p, lines)
    a = audit_events(p)
    assert a.problems == {"session-never-started": 1, "tracking-never-stopped": 1}
    assert a.issued == 1200 and a.duration_ns > 0


_EVENT_TYPES = ["session.started", "session.start_performance_tracking", "session.stop_performance_tracking",
                "session.ended", "sample.issued", "sample.recv_first", "sample.recv_non_first", "sample.complete",
                "error.generic", "sample.bogus"]
_line = st.one_of(
    st.builds(lambda t, ts, u: json.dumps({"event_type": t, "timestamp_ns": ts, "sample_uuid": u,
                                          "data": ["PromptData", f"p{u}", None]}),
              st.sampled_from(_EVENT_TYPES), st.integers(min_value=-5, max_value=2**64),
              st.sampled_from(["", "a" * 32, "b" * 32, "c" * 32])),
    st.binary(max_size=40).map(lambda b: b.replace(b"\n", b" ").decode("latin-1")),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_line, max_size=40), st.booleans(), st.sampled_from([3, 64, 1 << 20]))
@pytest.mark.slow
def test_audit_never_raises_on_arbitrary_logs(tmp_path_factory, lines, final_newline, chunk):
    p = tmp_path_factory.mktemp("fuzz") / "events.jsonl"
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    raw = text.encode("utf-8", "surrogateescape")
    p.write_bytes(raw)
    a = audit_events(str(p), chunk_bytes=chunk)
    assert a.error is None
    tail = raw.rsplit(b"\n", 1)[-1]
    assert a.lines == raw.count(b"\n") + (1 if tail.strip() else 0)
    assert 0 <= a.failed and a.completed <= a.issued
    assert a.ttft.count <= a.issued and a.latency.count == a.completed
