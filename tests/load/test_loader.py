"""The loader: YAML 1.2 reading, positions, budgets, and property tests (hypothesis)."""
from __future__ import annotations

import json
import math
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from checker.load.reader import LoadedFile, read_file
from checker.load.yaml_reader import MAX_DEPTH, YamlLoadError, parse_yaml
from treepaths import tree_paths

# printable text: YAML treats NEL/LS/PS as line breaks and forbids most C0/C1 controls
TEXT = st.characters(blacklist_categories=("Cs", "Cc", "Zl", "Zp", "Co", "Cn"), blacklist_characters="\x85\ufeff")
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, width=64), st.text(TEXT, max_size=20),
)
keys = st.text(TEXT, min_size=1, max_size=12)
trees = st.recursive(scalars, lambda children: st.one_of(st.lists(children, max_size=5),
                                                         st.dictionaries(keys, children, max_size=5)), max_leaves=30)



def _eq(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return a == b or (math.isnan(a) and math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_eq(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_eq(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _dump12(data) -> str:
    """Dump with a YAML 1.2 writer (PyYAML is 1.1: it leaves '0E0' unquoted, which 1.2 reads as a float)."""
    import io

    from ruamel.yaml import YAML

    y = YAML(typ="safe", pure=True)
    y.default_flow_style = False
    buf = io.StringIO()
    y.dump(data, buf)
    return buf.getvalue()


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.dictionaries(keys, trees, max_size=6))
@pytest.mark.slow
def test_yaml_round_trip_and_every_value_has_a_position(data):
    text = _dump12(data)
    doc = parse_yaml(text)
    parsed, positions = doc.data, doc.positions
    assert _eq(parsed, data)
    nlines = text.count("\n") + 1
    for path in tree_paths(parsed):
        if path:
            assert path in positions, path
            line, col = positions[path]
            assert 1 <= line <= nlines and col >= 1


@settings(max_examples=200)
@given(st.dictionaries(keys, trees, max_size=6))
@pytest.mark.slow
def test_json_through_the_loader_matches_json_module(tmp_path_factory, data):
    d = tmp_path_factory.mktemp("j")
    p = d / "x.json"
    text = json.dumps(data, indent=2, ensure_ascii=False)
    p.write_text(text, encoding="utf-8")
    lf = read_file("result_summary", "x.json", str(p), str(d))
    assert lf.error is None, lf.error
    assert _eq(lf.data, json.loads(text))
    for path in tree_paths(lf.data):
        if len(path) == 1:
            line, _col = lf.position(path)
            assert json.dumps(path[0], ensure_ascii=False) in text.splitlines()[line - 1]


@settings(max_examples=300)
@given(st.text(max_size=200))
def test_arbitrary_text_never_raises_anything_else(text):
    try:
        parse_yaml(text)
    except YamlLoadError as exc:
        assert exc.code in {"parse-error", "nesting-too-deep", "alias-budget", "duplicate-key", "integer-too-long"}


def test_yaml_12_scalars():
    data = parse_yaml("a: yes\nb: on\nc: 1e3\nd: 0o17\ne: 0x1F\nf: ~\ng: .inf\nh: 2026-10-21\ni: '42'\nj: 1_000\n").data
    assert data == {"a": "yes", "b": "on", "c": 1000.0, "d": 15, "e": 31, "f": None, "g": math.inf,
                    "h": "2026-10-21", "i": "42", "j": "1_000"}


def test_big_seed_integers_exact():
    data = parse_yaml("s: 10487924139932647040\nm: 18446744073709551616\n").data
    assert data["s"] == 10487924139932647040 and data["m"] == 2**64


def test_duplicate_key_has_line():
    with pytest.raises(YamlLoadError) as e:
        parse_yaml("a: 1\nb: 2\na: 3\n")
    assert e.value.code == "duplicate-key" and e.value.line == 3 and "first at line 1" in e.value.message


def test_depth_limit_exact():
    ok = "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
    parse_yaml(ok)
    with pytest.raises(YamlLoadError) as e:
        parse_yaml("x: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert e.value.code == "nesting-too-deep"


def test_multiple_documents_refused():
    with pytest.raises(YamlLoadError):
        parse_yaml("a: 1\n---\nb: 2\n")


def test_positions_for_missing_path_fall_back_to_parent(tmp_path):
    p = tmp_path / "p.yaml"
    p.write_text("a:\n  b: 1\n  c:\n    d: 2\n")
    lf = read_file("point_yaml", "p.yaml", str(p), str(tmp_path))
    assert lf.position(("a", "c", "d")) == (4, 8)
    assert lf.position(("a", "c", "zzz")) == lf.position(("a", "c"))
    assert lf.position(("nope",)) == (1, 1)


def test_non_utf8_offset(tmp_path):
    p = tmp_path / "p.yaml"
    p.write_bytes(b"a: 1\n# caf\xe9\n")
    lf = read_file("point_yaml", "p.yaml", str(p), str(tmp_path))
    assert lf.error.code == "file-encoding" and "byte offset 10" in lf.error.message and lf.error.line == 2


def test_bom_is_accepted(tmp_path):
    p = tmp_path / "p.json"
    p.write_bytes(b'\xef\xbb\xbf{"a": 1}')
    lf = read_file("result_summary", "p.json", str(p), str(tmp_path))
    assert lf.error is None and lf.data == {"a": 1}


def test_loadedfile_get():
    lf = LoadedFile(kind="x", rel="x", abspath="x", exists=True, data={"a": [{"b": 2}]})
    assert lf.get("a", 0, "b") == 2 and lf.get("a", 5, default="d") == "d" and lf.get("z") is None


def test_size_cap(tmp_path):
    p = tmp_path / "big.json"
    p.write_text(" " * 2000 + "{}")
    lf = read_file("result_summary", "big.json", str(p), str(tmp_path), max_bytes=1000)
    assert lf.error.code == "file-too-large"


def test_special_file(tmp_path):
    p = tmp_path / "fifo.yaml"
    os.mkfifo(p)
    lf = read_file("point_yaml", "fifo.yaml", str(p), str(tmp_path))
    assert lf.error.code == "file-unreadable" and "FIFO" in lf.error.message
