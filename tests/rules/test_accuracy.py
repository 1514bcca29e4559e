"""Unit tests of the accuracy file model, the gate arithmetic and the policy-dependent paths."""
import os
import shutil
import subprocess
import sys

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from casefixtures import FIXTURES
from checker.engine.pipeline import run_check
from rules.accuracy.view import read_accuracy
from checker.load.reader import read_file
from checker.engine.policy import load_policy
from rules.accuracy.results import _match
from rules.accuracy.gate import gate_values
from rules.accuracy.policy import entry_scale


def real_runs() -> str:
    """The real run folders in fixtures/real-runs."""
    from casefixtures import REAL_RUNS

    return REAL_RUNS


def _pol():
    import rules  # noqa: F401

    return load_policy().get("accuracy")


def _entry(name, score, unit=100, reps=1, dtype="accuracy", **kw):
    return {"dataset_name": name, "score": score, "unit_samples": unit, "num_repeats": reps,
            "total_samples": None if unit is None else unit * reps, "dataset_type": dtype, **kw}


def test_real_accuracy_file_parses():
    root = real_runs()
    path = os.path.join(root, "echo_accuracy_only", "accuracy", "accuracy_results.json")
    lf = read_file("accuracy", "acc.json", path, root, 1 << 23)
    acc = read_accuracy(lf.data)
    assert acc.shape == "list" and not acc.problems
    (e,) = acc.runs
    assert e.name == "echo_accuracy" and e.scalar and e.metrics == {"score": 0.8}
    assert e.sample_count == 10 and e.complete is True and acc.inline is None
    assert lf.position(e.metric_paths["score"])[0] == 9


def test_entries_are_indexed_by_name_not_position():
    a = read_accuracy({"accuracy_scores": [_entry("gpqa", 0.7), _entry("performance", 0.5, dtype="performance")]})
    b = read_accuracy({"accuracy_scores": [_entry("performance", 0.5, dtype="performance"), _entry("gpqa", 0.7)]})
    for acc in (a, b):
        assert acc.entry("gpqa").metrics == {"score": 0.7}
        assert acc.inline.name == "performance"
        assert [e.name for e in acc.runs] == ["gpqa"]


def test_untyped_entry_named_performance_is_inline():
    acc = read_accuracy({"accuracy_scores": [{"dataset_name": "performance", "score": 0.6}]})
    assert acc.inline is not None and not acc.runs


def test_mapping_shape_and_aliases():
    acc = read_accuracy({"average_accuracy": 1.0,
                          "aime25": {"num_samples": 30, "n_repeats": 8, "score": 0.9},
                          "gpqa": {"dataset_name": "gpqa", "num_samples": 198, "n_repeats": 5, "exact_match": 80.0}})
    assert acc.shape == "mapping" and not acc.problems
    assert acc.entry("aime25").sample_count == 240
    assert acc.entry("gpqa").metrics == {"exact_match": 80.0}


@pytest.mark.parametrize("data, needle", [
    ([], "mapping at the top level"),
    ({"accuracy_scores": {}}, "no scored dataset"),
    ({"accuracy_scores": "x"}, "must be a list of entries or a mapping keyed by dataset"),
    ({"accuracy_scores": {"a": 1}}, "expected a mapping"),
    ({"accuracy_scores": {"a": _entry("b", 1), "b": _entry("b", 2)}}, "appears twice"),
    ({"accuracy_scores": []}, "no scored dataset"),
    ({"accuracy_scores": [1]}, "expected a mapping"),
    ({"accuracy_scores": [None]}, "must be a mapping, got null"),
    ({"accuracy_scores": [{"score": 1}]}, "no `dataset_name`"),
    ({"accuracy_scores": [_entry("a", 1), _entry("a", 2)]}, "appears twice"),
    ({"accuracy_scores": [_entry("a", 1, unit=10, reps=2) | {"total_samples": 5}]}, "total_samples"),
    ({"accuracy_scores": [_entry("a", 1) | {"num_samples": 7}]}, "disagree"),
    ({"accuracy_scores": [_entry("a", 1, unit=-1)]}, "non-negative"),
    ({"accuracy_scores": [_entry("a", "high")]}, "must be a number or a mapping"),
    ({"accuracy_scores": [_entry("a", 1, dtype="performance"), _entry("b", 1, dtype="performance")]}, "at most one"),
    ({"accuracy_scores": [_entry("a", 1, complete="yes")]}, "true or false"),
])
def test_invalid_shapes_become_problems(data, needle):
    acc = read_accuracy(data)
    assert any(needle in p.message for p in acc.problems), [p.message for p in acc.problems]


def test_gpt_oss_scalar_scores_are_sample_weighted():
    t = _pol().models["gpt-oss-120b"]
    acc = read_accuracy({"accuracy_scores": [
        _entry("aime25", 0.9, unit=30, reps=8), _entry("gpqa", 0.8, unit=198, reps=5),
        _entry("livecodebench", 0.85, unit=1000, reps=3)]})
    r = gate_values(acc, t, 100)["exact_match"]
    expect = (90 * 240 + 80 * 990 + 85 * 3000) / (240 + 990 + 3000)
    assert r["problem"] is None and r["value"] == pytest.approx(expect)


def test_scalar_score_is_not_a_named_metric_of_a_multi_metric_model():
    t = _pol().models["llama3_1-8b"]
    acc = read_accuracy({"accuracy_scores": [_entry("cnn_dailymail", 39.0, unit=13368)]})
    vals = gate_values(acc, t, 100)
    assert all("is missing" in vals[m]["problem"] for m in t.metrics)


def test_gen_len_is_never_rescaled():
    t = _pol().models["llama3_1-8b"]
    score = {"rouge1": 0.39, "rouge2": 0.16, "rougeL": 0.25, "rougeLsum": 0.36, "gen_len": 8_000_000}
    vals = gate_values(read_accuracy({"accuracy_scores": [_entry("cnn", score, unit=13368)]}), t, 100)
    assert vals["rouge1"]["value"] == pytest.approx(39.0)
    assert vals["gen_len"]["value"] == 8_000_000


@given(st.floats(min_value=0, max_value=1, allow_nan=False))
def test_fractions_are_read_as_percent(f):
    assert entry_scale([f], [1, 100], 100) == 100
    assert entry_scale([f], [100], 100) == 1


@given(st.floats(min_value=1.0001, max_value=100, allow_nan=False))
def test_percent_values_are_read_as_written(v):
    assert entry_scale([v, 0.5], [1, 100], 100) == 1
    assert entry_scale([v], [1], 100) == 100  # a fraction-only scorer is always scaled


def test_bipartite_match_prefers_full_coverage():
    cands = {"r1": {"ultra_low"}, "r16": {"ultra_low", "low_concurrency"}, "r4": {"ultra_low", "low_concurrency"}}
    m = _match(cands, ["ultra_low", "low_concurrency"])
    assert sorted(m.values()) == ["low_concurrency", "ultra_low"] and len(m) == 2


def _policy_without(tmp_path, section, model):
    src = os.path.join(os.path.dirname(FIXTURES), "rules", "policy", "v1.0", "accuracy.yaml")
    with open(src) as fh:
        data = yaml.safe_load(fh)
    del data[section][model]
    out = tmp_path / "accuracy.yaml"
    out.write_text(yaml.safe_dump(data))
    return str(out)


def _finding(report, rule_id, point=""):
    hits = [f for f in report.findings if f.rule_id == rule_id and f.subject.point == point]
    assert len(hits) == 1, hits
    return hits[0]


def test_model_without_thresholds_skips(tmp_path):
    over = _policy_without(tmp_path, "models", "llama3_1-8b")
    rep = run_check([os.path.join(FIXTURES, "valid")], policy_overrides={"accuracy": over},
                    select=["accuracy-gate", "accuracy-sample-count"])
    for rid in ("accuracy-gate", "accuracy-sample-count"):
        f = _finding(rep, rid, "r32")
        assert f.status.value == "SKIP" and "No accuracy thresholds defined" in f.message and f.reason == "no-thresholds"


def test_agentic_model_without_targets_warns(tmp_path):
    over = _policy_without(tmp_path, "agentic", "kimi-k3")
    rep = run_check([os.path.join(FIXTURES, "agentic")], policy_overrides={"accuracy": over})
    f = _finding(rep, "agentic-accuracy")
    assert f.status.value == "FAIL" and f.severity.value == "warn"
    assert _finding(rep, "agentic-accuracy-inline", "r8").status.value == "SKIP"
    assert _finding(rep, "agentic-accuracy-swebench").status.value == "SKIP"


def test_broken_accuracy_policy_skips_the_gate(tmp_path):
    bad = tmp_path / "accuracy.yaml"
    bad.write_text("schema_version: one\n")
    rep = run_check([os.path.join(FIXTURES, "valid")], policy_overrides={"accuracy": str(bad)})
    f = _finding(rep, "accuracy-gate", "r32")
    assert f.status.value == "SKIP" and f.reason == "missing-policy"


def test_accuracy_metric_shown_per_point():
    from checker.domain.point_metrics import metrics_for
    from checker.engine.evaluate import Context

    rep = run_check([os.path.join(FIXTURES, "valid")], select=["accuracy-gate"])
    pkg = rep.package
    ctx = Context(package=pkg, policy=load_policy())
    from checker.engine.catalogue import load_catalogue

    metrics = load_catalogue().point_metrics
    pts = {p.name: metrics_for(p, ctx, metrics) for p in pkg.submissions[0].points()}
    assert pts["r32"]["accuracy"] == pytest.approx(38.91)
    assert pts["r8"]["accuracy"] is None
    assert pts["r64"]["tpot_p90_ms"] == pytest.approx(8.61)


@pytest.mark.parametrize("name, module", [("agentic", "make_agentic.py")])
def test_generated_fixture_is_committed(tmp_path, name, module):
    out = tmp_path / name
    subprocess.run([sys.executable, os.path.join(FIXTURES, module), str(out)], check=True, capture_output=True)
    committed = os.path.join(FIXTURES, name)
    for dirpath, _d, files in os.walk(out):
        for fn in files:
            rel = os.path.relpath(os.path.join(dirpath, fn), out)
            with open(os.path.join(dirpath, fn), "rb") as a, open(os.path.join(committed, rel), "rb") as b:
                assert a.read() == b.read(), rel
    shutil.rmtree(out)


def test_sample_count_ignores_entries_without_gated_metrics():
    from rules.accuracy.gate import gated_entries

    t = _pol().models["llama3_1-8b"]
    acc = read_accuracy({"accuracy_scores": [_entry("cnn_dailymail", {"rouge1": 39.0}, unit=13368),
                                              _entry("extra", 0.5, unit=90000)]})
    assert [e.name for e in gated_entries(acc, t)] == ["cnn_dailymail"]
    t1 = _pol().models["deepseek-r1"]
    assert [e.name for e in gated_entries(acc, t1)] == ["extra"]  # a scalar stands for the single metric


def test_wrong_accuracy_scores_is_the_only_problem():
    """A wrong `accuracy_scores` does not make the file's other top-level keys dataset entries."""
    acc = read_accuracy({"accuracy_scores": 5, "model": "llama"})
    assert [p.path for p in acc.problems] == [("accuracy_scores",)]
    assert "must be a list of entries" in acc.problems[0].message and not acc.entries
