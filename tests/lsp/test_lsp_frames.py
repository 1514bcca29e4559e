"""The frame reader (checker/lsp/frames.py) alone: whatever bytes come before good frames, however the
stream is cut into reads, every good frame after them comes out whole, and each malformed frame is one
Problem; memory held stays bounded while a refused frame is skipped."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from checker.lsp.frames import MAX_HEAD, Frames, Problem


def _frame(obj) -> bytes:
    body = json.dumps(obj).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _feed(data: bytes, cuts: list[int], frames: Frames | None = None) -> list:
    frames = frames or Frames()
    out, last = [], 0
    for cut in sorted({c % (len(data) + 1) for c in cuts}) + [len(data)]:
        out += list(frames.feed(data[last:cut]))
        last = cut
    return out


messages = st.lists(st.fixed_dictionaries({"jsonrpc": st.just("2.0"), "id": st.integers(0, 10**6),
                                           "method": st.text(max_size=20), "params": st.text(max_size=200)}),
                    min_size=1, max_size=4)
garbage = st.binary(max_size=600).filter(lambda b: b"content-length" not in b.lower())


@settings(max_examples=300, deadline=None)
@given(garbage, messages, st.lists(st.integers(0, 5000), max_size=8))
def test_good_frames_after_any_garbage_come_out_whole(junk, objs, cuts):
    data = junk + b"".join(_frame(o) for o in objs)
    out = _feed(data, cuts)
    bodies = [json.loads(b) for b in out if isinstance(b, bytes)]
    assert bodies[-len(objs):] == objs
    assert len([p for p in out if isinstance(p, Problem)]) <= 1  # garbage is one refusal at most


@settings(max_examples=200, deadline=None)
@given(messages, st.lists(st.integers(0, 5000), max_size=8))
def test_good_frames_alone_raise_no_problem(objs, cuts):
    data = b"".join(_frame(o) for o in objs)
    assert [json.loads(b) for b in _feed(data, cuts)] == objs


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([b"abc", b"-1", b"", b"99999999999", b"1e3", b" 12 x"]), messages,
       st.lists(st.integers(0, 5000), max_size=8))
def test_a_bad_length_is_one_problem_and_the_next_frame_is_read(length, objs, cuts):
    bad = b"Content-Length: " + length + b"\r\n\r\n" + json.dumps({"id": 1}).encode()
    out = _feed(bad + b"".join(_frame(o) for o in objs), cuts)
    assert [type(x) for x in out][:1] == [Problem]
    assert [json.loads(b) for b in out if isinstance(b, bytes)] == objs


def test_skipping_holds_only_a_tail():
    """A refused frame of 99,999,999,999 bytes, then 5 MB that never holds a header: the reader keeps a
    few dozen bytes, not the megabytes."""
    frames = Frames()
    out = list(frames.feed(b"Content-Length: 99999999999\r\n\r\n{"))
    assert [type(x) for x in out] == [Problem]
    for _ in range(80):
        assert list(frames.feed(b"x" * 65536)) == []
    assert len(frames._buf) < 100
    assert [json.loads(b) for b in frames.feed(_frame({"a": 1}))] == [{"a": 1}]


def test_a_header_block_without_end_is_refused_at_its_bound():
    frames = Frames()
    out = list(frames.feed(b"X-Pad: " + b"y" * (MAX_HEAD + 10)))
    assert [type(x) for x in out] == [Problem] and "header block" in out[0].text
    assert len(frames._buf) < 100
