"""Keys and strings that are not plain text (issue 28): package content, never a usage error or a lost unit.

Generated: a key that is not text (.inf, -.inf, .nan, numbers, booleans, null) anywhere in point.yaml, in
config.yaml or in a --point file; strings holding lone surrogates, NUL characters and byte-order marks in
JSON and YAML; tagged scalars. Each is a FAIL on that file at the line where it is, the JSON report
encodes every finding (strict JSON: no NaN or Infinity), and the process exits with the report's code.
"""
import json
import os
import shutil

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_gen import CURVE, NASTY_CHARS, REAL_RUNS, VALID, copy_valid, dump_json, run_cli, slow

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

POINT = f"{CURVE}/r8/point.yaml"
#: keys that are not text, as YAML spells them
KEYS = [".inf", "-.inf", ".nan", "5", "1.5", "true", "null", "0x1F", "123456789012345678901234567890"]
#: where in point.yaml: (the line to insert after, the indent) - a known block of each kind
PLACES = {
    "top": (None, ""),
    "steady_state.state": ("  state:\n", "    "),
    "runtime_settings": ("runtime_settings:\n", "  "),
    "model_equivalence.kv_cache": ("  kv_cache:\n", "    "),
    "speculative_decoding": (None, "speculative_decoding:\n  "),
}


def _insert(root, rel, place, line_text):
    """Insert ``line_text`` at ``place``; its 1-based line number."""
    path = os.path.join(root, rel)
    text = open(path, encoding="utf-8").read()
    after, indent = PLACES[place]
    if after is None:
        line = text.count("\n") + 1 + indent.count("\n")
        text += indent + line_text + "\n"
    else:
        assert after in text, after
        line = text.count("\n", 0, text.index(after)) + 2
        text = text.replace(after, after + indent + line_text + "\n", 1)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    return line


def _strict(report) -> dict:
    """The JSON report, decoded the strict way: NaN and Infinity are not JSON."""
    from checker.render.json_report import render

    def refuse(token):
        raise AssertionError(f"not JSON: {token}")

    return json.loads(render(report), parse_constant=refuse)


def _fails_at(report, file_end: str):
    return [f for f in report.findings if f.status.value == "FAIL" and f.location is not None
            and f.location.file.endswith(file_end)]


@slow(12)
@given(key=st.sampled_from(KEYS), place=st.sampled_from(sorted(PLACES)))
def test_a_key_that_is_not_text_is_a_fail_at_its_line(tmp_path_factory, key, place):
    from checker.engine.pipeline import run_check

    root = copy_valid(str(tmp_path_factory.mktemp("k") / "sub"))
    line = _insert(root, POINT, place, f"{key}: x")
    report = run_check([root], select=["parsing", "loading"])
    fails = _fails_at(report, "r8/point.yaml")
    assert fails, [(f.rule_id, f.message) for f in report.findings if f.status.value == "FAIL"]
    assert any(f.location.line == line for f in fails), [(f.rule_id, f.location) for f in fails]
    assert any("is not text" in f.message for f in fails)
    doc = _strict(report)
    assert doc["summary"]["exit_code"] == report.exit_code() in (0, 1)
    assert not any("internal error" in f["message"] for f in doc["findings"])


def test_the_process_exits_with_the_reports_code_for_such_keys(tmp_path):
    """The issue's case: `.inf:` at the top of point.yaml exited 2 while the report said 0."""
    root = copy_valid(str(tmp_path / "sub"))
    _insert(root, POINT, "top", ".inf: 1")
    _insert(root, POINT, "steady_state.state", "-.inf: Plateau")
    out = tmp_path / "r.json"
    rc, _o, stderr, cpu, mb = run_cli(["check", root, "-f", "json", "-o", str(out)])
    doc = json.loads(out.read_text())
    assert rc == doc["summary"]["exit_code"] == 1, stderr
    assert "output_problems" not in doc["summary"]
    fail = [f for f in doc["findings"] if f["rule_id"] == "point-config-valid" and f["status"] == "FAIL"]
    assert len(fail) == 1 and fail[0]["location"]["path"][-1] in (".inf", "-.inf"), fail
    assert "`.inf` (a number) is not text" in fail[0]["message"] and "`-.inf`" in fail[0]["message"]
    assert cpu < 5 and mb < 300


def test_a_point_file_with_such_a_key(tmp_path):
    rf = str(tmp_path / "run")
    shutil.copytree(os.path.join(REAL_RUNS, "var_poisson_perf"), rf)
    point = tmp_path / "point.yaml"
    point.write_text(open(os.path.join(VALID, POINT), encoding="utf-8").read() + ".inf: 2\n")
    out = tmp_path / "r.json"
    rc, _o, stderr, *_ = run_cli(["check", rf, "--point", str(point), "-f", "json", "-o", str(out)])
    doc = json.loads(out.read_text())
    assert rc == doc["summary"]["exit_code"], stderr
    hits = [f for f in doc["findings"] if f["rule_id"] == "text-characters" and f["status"] == "FAIL"]
    assert hits and hits[0]["location"]["file"].endswith("point.yaml") and hits[0]["location"]["line"]


def test_a_cohort_unit_is_never_lost_for_its_content(tmp_path):
    """A .inf key made that submission 'did not complete' and lost its findings; now it is checked."""
    from checker.engine.pipeline import run_check

    coh = tmp_path / "cohort"
    for org in ("orgA", "orgB"):
        copy_valid(str(coh / org / f"sub-{org}"))
    _insert(str(coh / "orgA" / "sub-orgA"), POINT, "top", ".inf: 1")
    report = run_check([str(coh)], jobs=2, prerender_json=True)
    assert not [f for f in report.findings if f.rule_id == "submission-checked" and f.status.value == "FAIL"]
    bad = [f for f in report.findings if f.rule_id == "point-config-valid" and f.status.value == "FAIL"]
    assert [f.subject.submission for f in bad] == ["orgA/sub-orgA"]
    _strict(report)


# ---------------------------------------------------------------------------------------------------------
# strings


@slow(12)
@given(text=st.lists(st.sampled_from(NASTY_CHARS) | st.text(max_size=3), min_size=1, max_size=6).map("".join),
       as_key=st.booleans())
def test_json_strings_and_keys_holding_odd_characters_are_named_where_they_are(tmp_path_factory, text, as_key):
    from checker.engine.pipeline import run_check

    root = copy_valid(str(tmp_path_factory.mktemp("s") / "sub"))
    path = os.path.join(root, CURVE, "r64", "result_summary.json")
    doc = json.load(open(path))
    doc.update({text: "x"} if as_key else {"note": text})
    with open(path, "w") as fh:
        fh.write(dump_json(doc))  # surrogates as \udxxx escapes, as a JSON writer leaves them
    report = run_check([root], select=["parsing", "loading"])
    hits = [f for f in report.findings if f.rule_id == "text-characters" and f.status.value == "FAIL"]
    read = json.loads(dump_json(text))  # what the file says: an escaped surrogate pair is one character
    odd = [c for c in read if c in "\x00\ufeff" or "\ud800" <= c <= "\udfff"]
    if odd:
        assert hits and hits[0].location.file.endswith("r64/result_summary.json"), report.findings
        assert hits[0].location.line == 1 and any(w in hits[0].message for w in ("NUL", "surrogate", "byte-order"))
    else:
        assert not hits, [f.message for f in hits]
    _strict(report)


def test_yaml_escapes_and_byte_order_marks(tmp_path):
    from checker.engine.pipeline import run_check

    root = copy_valid(str(tmp_path / "sub"))
    p = os.path.join(root, POINT)
    text = open(p, encoding="utf-8").read()
    text = text.replace("model_notes: FP8", 'model_notes: "FP8\\0 post"\nx_note: "\\ufeffhidden"\nmodel_x: FP8', 1)
    open(p, "w", encoding="utf-8").write("\ufeff\ufeff" + text)
    report = run_check([root], select=["parsing"])
    hit = [f for f in report.findings if f.rule_id == "text-characters" and f.status.value == "FAIL"]
    assert hit and "2 byte-order marks" in hit[0].message and "NUL" in hit[0].message and "U+FEFF" in hit[0].message
    assert hit[0].location.line == 1


def test_a_tagged_scalar_is_read_as_its_tag_says_then_checked():
    from checker.load.yaml_reader import YamlLoadError, parse_yaml

    data = parse_yaml("a: ! 8\nb: !!str 8\nc: !!int 8\nd: !!float 8\ne: ! [1]\n").data
    assert data == {"a": "8", "b": "8", "c": 8, "d": 8.0, "e": [1]}
    assert type(data["d"]) is float
    try:
        parse_yaml("a: !foo 8\n")
    except YamlLoadError as exc:
        assert exc.code == "parse-error" and exc.line == 1
    else:
        raise AssertionError("an unknown tag must be refused")
