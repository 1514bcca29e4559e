"""Hostile input, round two (issue 17): option files are input too.

--baseline, --waivers, --policy (every file of the edition), --seed-sets and --approved-drafters go
through the bounded readers and schema validation: a bad one is a usage error (exit 2) or a FAIL
finding, never a traceback, a hang, an internal-error finding or a report that does not validate.
Option values are validated at the CLI.
"""
from __future__ import annotations

import copy
import json
import os
import shutil
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casefixtures import REPO
from conftest import assert_valid_report
from hostile_gen import (REAL_RUNS, VALID, data_paths, deep_json_text, dump_json, examples, hostile_values,
                         internal_errors, realise, run_cli, set_path, slow)

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

POLICY = os.path.join(REPO, "rules", "policy", "v1.0")
SLOW = slow(15)

_BASE = None


def _base_report():
    global _BASE
    if _BASE is None:
        from checker.engine.pipeline import run_check

        # a failing package: its FAILs make a baseline worth comparing against
        _BASE = run_check([os.path.join(REAL_RUNS, "var_poisson_perf"), VALID], keep_packages=False, jobs=1)
    return _BASE


def _write(text: str | bytes) -> str:
    fd, path = tempfile.mkstemp(prefix="ec-opt-", suffix=".json")
    with os.fdopen(fd, "wb") as fh:
        fh.write(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    return path


#: raw texts every option file kind gets: nesting, size, encoding, syntax, YAML tricks
RAW_TEXTS = [
    deep_json_text(100_000), deep_json_text(100_000, "dict"), deep_json_text(65), "", "null", "[]", "42", '"x"',
    "{}", "\ufeff{}", b"\xff\xfe\x00{", "{" * 10 + "}", '{"a": 1, "a": 2}',
    "a: &a [x]\nb: [" + ", ".join(["*a"] * 20000) + "]",
    '{"n": ' + "9" * 5000 + "}", "NaN", '{"x": Infinity}', "\x00\x00\x00", "x: !!python/object:os.system ls\n",
    "--- a\n--- b\n", '{"s": "' + "\\ud800" * 10 + '"}',
]
raw_texts = st.sampled_from(RAW_TEXTS)


def mutated(doc):
    """One path of ``doc`` replaced by a hostile value (or the whole document replaced)."""
    paths = [p for p, _v in data_paths(doc)]
    return st.tuples(st.sampled_from(paths), hostile_values).map(
        lambda pv: set_path(copy.deepcopy(doc), pv[0], realise(pv[1])))


# ---------------------------------------------------------------------------------------------------------
# --baseline


def _baseline_doc():
    return json.loads(json.dumps(_base_report().to_dict()))


BASELINE_CASES = {  # the examples, one path each
    "location-is-a-string": ("location", "here"),
    "path-is-an-int": ("location.path", 7),
    "subject-is-a-list": ("subject", ["a", "b"]),
    "nan-message": ("message", float("nan")),
    "rule-id-is-a-dict": ("rule_id", {"x": 1}),
    "line-is-a-string": ("location.line", "three"),
}


def _first_fail(doc):
    return next(f for f in doc["findings"] if f["status"] == "FAIL" and f.get("location"))


@pytest.mark.parametrize("case", sorted(BASELINE_CASES))
def test_baseline_wrong_types_are_usage_errors(case):
    from checker.engine.baseline import BaselineError, load_baseline

    doc = _baseline_doc()
    f = _first_fail(doc)
    key, value = BASELINE_CASES[case]
    target = f
    parts = key.split(".")
    for p in parts[:-1]:
        target = target[p]
    target[parts[-1]] = value
    path = _write(json.dumps(doc))
    try:
        with pytest.raises(BaselineError) as exc:
            load_baseline(path)
        assert "findings[" in str(exc.value)
    finally:
        os.unlink(path)


@SLOW
@given(st.data())
def test_baseline_any_document(data):
    """A mutated earlier report, or any raw text: a BaselineError or a baseline that marks cleanly."""
    from checker.engine.baseline import BaselineError, load_baseline, mark

    doc = _baseline_doc()
    fails = [f for f in doc["findings"] if f["status"] == "FAIL"][:3]
    small = {"schema_version": doc["schema_version"], "findings": fails}
    text = data.draw(raw_texts | mutated(small).map(dump_json), label="baseline")
    path = _write(text)
    try:
        try:
            base = load_baseline(path)
        except BaselineError as exc:
            assert str(exc)
            return
        rep = _base_report()
        findings = [copy.copy(f) for f in rep.findings]
        _, section = mark(findings, base)
        json.dumps(section, allow_nan=False)
    finally:
        os.unlink(path)


@pytest.mark.parametrize("special", ["/dev/zero", "fifo", "dir", "deep"])
def test_baseline_special_files_are_usage_errors(tmp_path, special):
    if special == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    elif special == "dir":
        target = str(tmp_path)
    elif special == "deep":
        target = str(tmp_path / "deep.json")
        open(target, "w").write(deep_json_text(100_000, "dict"))
    else:
        target = special
    rc, _, stderr, cpu, rss = run_cli(["check", VALID, "--baseline", target, "-f", "json", "-o",
                                       str(tmp_path / "r.json")], timeout=30)
    assert rc == 2, stderr
    assert "Traceback" not in stderr and "baseline" in stderr
    assert cpu < 5 and rss < 300


# ---------------------------------------------------------------------------------------------------------
# --waivers


def _waivers_doc():
    from checker.load.yaml_reader import parse_yaml

    with open(os.path.join(REPO, "docs", "examples", "waivers.yaml"), encoding="utf-8") as fh:
        return parse_yaml(fh.read(), want_positions=False).data


@SLOW
@given(st.data())
def test_waivers_any_document(data):
    from checker.engine.pipeline import run_check
    from checker.engine.waivers import WaiverError

    doc = _waivers_doc()
    doc["waivers"][0]["expires"] = "2999-12-31"
    doc["waivers"][0]["rule"] = "*"
    text = data.draw(raw_texts | mutated(doc).map(dump_json), label="waivers")
    path = _write(text)
    try:
        try:
            rep = run_check([VALID], waivers=path, today="2026-01-01", select=["structure", "waivers"])
        except WaiverError as exc:
            assert str(exc)
            return
        assert not internal_errors(rep.findings)
        assert_valid_report(json.loads(json.dumps(rep.to_dict(), allow_nan=False)))
    finally:
        os.unlink(path)


# ---------------------------------------------------------------------------------------------------------
# --policy DIR, --seed-sets, --approved-drafters


POLICY_FILES = sorted(f[:-5] for f in os.listdir(POLICY) if f.endswith(".yaml"))


def _policy_doc(name):
    from checker.load.yaml_reader import parse_yaml

    with open(os.path.join(POLICY, name + ".yaml"), encoding="utf-8") as fh:
        return parse_yaml(fh.read(), want_positions=False).data


@SLOW
@given(st.data())
def test_policy_edition_any_file(tmp_path, data):
    """One file of a copied edition replaced by a mutated or raw document: a policy FAIL, never a crash."""
    from checker.engine.pipeline import run_check

    name = data.draw(st.sampled_from(POLICY_FILES), label="policy file")
    text = data.draw(raw_texts | mutated(_policy_doc(name)).map(dump_json), label="text")
    d = tempfile.mkdtemp(dir=tmp_path)
    ed = os.path.join(d, "v1.0")
    shutil.copytree(POLICY, ed)
    with open(os.path.join(ed, name + ".yaml"), "wb") as fh:
        fh.write(text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text)
    rep = run_check([VALID], policy_dir=ed)
    assert not internal_errors(rep.findings), internal_errors(rep.findings)
    assert_valid_report(json.loads(json.dumps(rep.to_dict(), allow_nan=False)))


@SLOW
@given(st.sampled_from(["seed_sets", "approved_drafters"]), st.data())
def test_registry_overrides_any_document(kind, data):
    from checker.engine.pipeline import run_check

    text = data.draw(raw_texts | mutated(_policy_doc(kind)).map(dump_json), label="text")
    path = _write(text)
    try:
        rep = run_check([VALID], policy_overrides={kind: path})
        assert not internal_errors(rep.findings), internal_errors(rep.findings)
        assert_valid_report(json.loads(json.dumps(rep.to_dict(), allow_nan=False)))
    finally:
        os.unlink(path)


@pytest.mark.parametrize("option", ["--seed-sets", "--approved-drafters", "--waivers", "--policy"])
@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_special_option_files_never_block(tmp_path, option, special):
    target = special
    if special == "fifo":
        target = str(tmp_path / "fifo")
        os.mkfifo(target)
    out = tmp_path / "r.json"
    rc, _, stderr, cpu, rss = run_cli(["check", VALID, option, target, "-f", "json", "-o", str(out)], timeout=30)
    assert "Traceback" not in stderr, stderr
    assert rc in (1, 2), stderr
    assert cpu < 5 and rss < 300
    if rc == 1:  # a registry that cannot be used: a FAIL finding in a written report
        doc = json.loads(out.read_text())
        assert_valid_report(doc)
        assert [f for f in doc["findings"] if f["status"] == "FAIL"
                and ("regular file" in f["message"] or "cannot be read" in f["message"])], doc["findings"][:3]


# ---------------------------------------------------------------------------------------------------------
# option values


@pytest.mark.parametrize("args", [
    ["--timeout", str(10 ** 30)], ["--timeout", "-1"], ["--jobs", str(10 ** 30)], ["--jobs", "0"],
    ["--max-file-size", str(10 ** 30)], ["--max-file-size", "0"], ["--max-concurrency", "0"], ["--dataset-size", "-5"],
    ["--today", "2026-13-45", "--waivers", os.path.join(REPO, "docs", "examples", "waivers.yaml")],
])
def test_option_values_out_of_range_are_usage_errors(args, tmp_path):
    rc, _, stderr, *_ = run_cli(["check", VALID, *args, "-f", "json", "-o", str(tmp_path / "r.json")])
    assert rc == 2, stderr
    assert "Traceback" not in stderr


def test_timeout_overflow_in_the_pool_is_clamped():
    """A timeout past SIGALRM's range (given through the API) is no limit, not an OverflowError per unit."""
    from checker.engine.pool import run_isolated

    res = run_isolated(abs, [-1, -2], jobs=2, timeout=10 ** 30)
    assert res == [(True, 1), (True, 2)]


@settings(max_examples=examples(15), deadline=None)
@given(st.sampled_from([1, 2, 33, 10 ** 6, 2 ** 63, 10 ** 30]), st.sampled_from([1, 7, 10 ** 9, 2 ** 64, 10 ** 30]),
       st.sampled_from(["A", "", "\x00", "\udcff", "Z" * 500, "１"]),
       st.sampled_from(["2026-11-C0", "２０２６-11-C0", "9999-99-C9", "\udcff", "1-1-C" + "1" * 5000]))
def test_run_folder_option_values(c_max, size, seed_set, cohort):
    """Huge or strange run-folder options reach the rules: findings, never an internal error."""
    from checker.engine.pipeline import run_check

    rep = run_check([os.path.join(REAL_RUNS, "var_poisson_perf")], jobs=1,
                    options={"max_concurrency": c_max, "dataset_size": size, "seed_set": seed_set,
                             "cohort": cohort, "events": True})
    assert not internal_errors(rep.findings), internal_errors(rep.findings)
