"""Where an edit lands (checker/fix/locate.py) and what the in-memory layer accepts (checker/fix/edits.py)."""
import pytest

from checker.core.fixes import Edit
from checker.fix.edits import apply_edits, merge, reads_as_intended, unified_diff
from checker.fix.locate import resolve
from checker.load.reader import LoadedFile
from checker.load.yaml_reader import parse_yaml


def lf_of(text: str, is_json: bool = False, bom: bool = False) -> LoadedFile:
    import json

    data = json.loads(text) if is_json else parse_yaml(text).data
    return LoadedFile(kind="point_yaml", rel="p.yaml", abspath="/x/p.yaml", exists=True, text=text, is_json=is_json,
                      bom=bom, data=data)


def fixed(text: str, *edits, is_json: bool = False, bom: bool = False) -> str:
    lf = lf_of(text, is_json, bom)
    tes = [resolve(lf, Edit(lf, *e[:2], **e[2])) for e in edits]
    assert all(tes), tes
    keep, dropped = merge(tes)
    assert not dropped
    full = ("\ufeff" if bom else "") + text
    new = apply_edits(full, keep)
    assert reads_as_intended(full, new, keep, is_json)
    return new


def refused(text: str, path, part, **kw) -> bool:
    lf = lf_of(text)
    return resolve(lf, Edit(lf, path, part, **kw)) is None


def test_a_value_keeps_its_anchor_comment_and_spacing():
    assert fixed("a:   &x 8.0   # c\nb: 1\n", (("a",), "value", {"new": "8", "old": 8.0, "value": 8})) == \
        "a:   &x 8   # c\nb: 1\n"


def test_a_string_value_keeps_its_quotes():
    text = "m: 'llama3.1-8b'\nn: \"x\"\n"
    assert fixed(text, (("m",), "value", {"new": "llama3_1-8b", "old": "llama3.1-8b", "value": "llama3_1-8b",
                                          "plain": False})) == "m: 'llama3_1-8b'\nn: \"x\"\n"
    text = 'm: "llama3.1-8b"\n'
    assert fixed(text, (("m",), "value", {"new": "it's", "old": "llama3.1-8b", "value": "it's", "plain": False})) == \
        'm: "it\'s"\n'


def test_a_plain_string_that_would_read_as_something_else_is_quoted():
    assert fixed("m: x\n", (("m",), "value", {"new": "yes", "old": "x", "value": "yes", "plain": False})) == 'm: "yes"\n'
    assert fixed("m: x\n", (("m",), "value", {"new": "8", "old": "x", "value": "8", "plain": False})) == 'm: "8"\n'


@pytest.mark.parametrize("text", ["a: *x\n", "a: !!str 8.0\n", "a: |\n  8.0\n", "a: 9.0\n", "b: 8.0\n"])
def test_no_value_edit_where_it_is_not_certain(text):
    if text.startswith("a: *x"):
        text = "x: &x 8.0\n" + text
    assert refused(text, ("a",), "value", new="8", old=8.0, value=8)


def test_a_key_keeps_its_quoting_and_is_never_renamed_onto_another():
    assert fixed('"seedset": A\nq: 1\n', (("seedset",), "key", {"new": "seed_set", "old": "seedset",
                                                                  "value": "seed_set"})) == '"seed_set": A\nq: 1\n'
    assert fixed("{seedset: A, q: 1}\n", (("seedset",), "key", {"new": "seed_set", "old": "seedset",
                                                                 "value": "seed_set"})) == "{seed_set: A, q: 1}\n"
    assert refused("seedset: A\nseed_set: B\n", ("seedset",), "key", new="seed_set", old="seedset", value="seed_set")


def test_insert_after_a_key_with_a_comment_and_crlf():
    text = "concurrency: 8  # n\r\noffline: none\r\n"
    assert fixed(text, (("region",), "insert", {"new": "low_latency", "value": "low_latency",
                                                "after": "concurrency"})) == \
        "concurrency: 8  # n\r\nregion: low_latency\r\noffline: none\r\n"


def test_insert_at_the_end_of_a_file_without_a_last_newline_and_of_a_nested_block():
    assert fixed("a: 1\nb:\n  c: 2", (("z",), "insert", {"new": "3", "value": 3})) == "a: 1\nb:\n  c: 2\nz: 3"
    assert fixed("a: 1\nb:\n  c: 2\n  d: |\n    x\nz: 0\n", (("b", "e"), "insert", {"new": "3", "value": 3})) == \
        "a: 1\nb:\n  c: 2\n  d: |\n    x\n  e: 3\nz: 0\n"


def test_insert_into_a_list_item_mapping_and_into_flow_mappings():
    assert fixed("l:\n- a: 1\n  b: 2\n", (("l", 0, "c"), "insert", {"new": "3", "value": 3})) == \
        "l:\n- a: 1\n  b: 2\n  c: 3\n"
    assert fixed("r: {a: 1,\n  b: 2}  # c\n", (("r", "c"), "insert", {"new": "3", "value": 3})) == \
        "r: {a: 1,\n  b: 2, c: 3}  # c\n"
    assert fixed('{"a": 1}', (("b",), "insert", {"new": "2", "value": 2}), is_json=True) == '{"a": 1, "b": 2}'


def test_no_insert_of_a_key_that_exists_or_into_what_is_not_a_mapping():
    assert refused("a: 1\nregion: x\n", ("region",), "insert", new="y", value="y")
    assert refused("a: [1, 2]\n", ("a", "b"), "insert", new="1", value=1)
    assert refused("a:\n", ("a", "b"), "insert", new="1", value=1)


def test_offsets_count_the_byte_order_mark_and_columns_do_not():
    text = '{\n  "a": 1.0\n}\n'
    lf = lf_of(text, is_json=True, bom=True)
    te = resolve(lf, Edit(lf, ("a",), "value", "1", old=1.0, value=1))
    assert (te.start, te.end, te.start_line, te.start_column) == (10, 13, 2, 8)
    bom = resolve(lf, Edit(lf, (), "bom"))
    assert (bom.start, bom.end, bom.old, bom.new) == (0, 1, "\ufeff", "")
    keep, _ = merge([te, bom])
    assert apply_edits("\ufeff" + text, keep) == '{\n  "a": 1\n}\n'


def test_merge_keeps_one_copy_and_drops_what_overlaps():
    lf = lf_of("a: 8.0\n")
    one = resolve(lf, Edit(lf, ("a",), "value", "8", old=8.0, value=8))
    other = resolve(lf, Edit(lf, ("a",), "value", "9", old=8.0, value=9))
    assert merge([one, one]) == ([one], [])
    keep, dropped = merge([one, other])
    assert keep == [] and len(dropped) == 2
    ins1 = resolve(lf, Edit(lf, ("b",), "insert", "1", value=1))
    ins2 = resolve(lf, Edit(lf, ("c",), "insert", "1", value=1))
    keep, dropped = merge([ins1, ins2])
    assert keep == [] and len(dropped) == 2


def test_an_edit_that_would_change_anything_else_does_not_read_as_intended():
    import msgspec

    lf = lf_of("a: 8.0\nb: 2\n")
    te = resolve(lf, Edit(lf, ("a",), "value", "8", old=8.0, value=8))
    wide = msgspec.structs.replace(te, end=te.end + 5, old="8.0\nb: 2"[:len(lf.text[te.start:te.end + 5])],
                                   new="8\nb: 3")
    new = apply_edits(lf.text, [wide])
    assert not reads_as_intended(lf.text, new, [wide], False)


def test_the_unified_diff_marks_a_last_line_without_a_newline_and_keeps_odd_breaks_inside_lines():
    d = unified_diff("p.yaml", "a: 1\nb: x\x85y", "a: 2\nb: x\x85y")
    assert d.split("\n")[-3:] == [" b: x\x85y", "\\ No newline at end of file", ""]
    assert "-a: 1\n+a: 2\n" in d
