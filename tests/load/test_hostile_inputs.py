"""Hostile accuracy and summary files never crash a rule of these families (no internal-error FAIL)."""
import os
import shutil

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casefixtures import FIXTURES
from checker.engine.pipeline import run_check
from checker.load.models.lenient import validate_lenient
from rules.accuracy.view import read_accuracy
from checker.load.models.summary import ResultSummary
from checker.engine.policy import load_policy
from rules.accuracy.gate import gate_values
from rules.metrics.point import (check_accounting, check_duration, check_output_tokens, check_percentiles,
                           check_throughput, check_tpot_p90)

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

CURVE = "results/H200-SXM-141GBx8_TRT/llama3_1-8b"
scalars = st.none() | st.booleans() | st.integers(-10, 10 ** 20) | st.floats() | st.text(max_size=5)
json_values = st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=4),
                           max_leaves=12)
entry_keys = st.sampled_from(["dataset_name", "score", "unit_samples", "num_repeats", "total_samples", "complete",
                              "dataset_type", "num_samples", "n_repeats", "rouge1"])
entries = st.dictionaries(entry_keys, json_values | st.sampled_from(["performance", "cnn_dailymail"]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.one_of(json_values, st.fixed_dictionaries({"accuracy_scores": st.lists(entries, max_size=4)}),
                 st.dictionaries(st.text(max_size=5), entries, max_size=3)))
def test_parse_and_gate_never_raise(data):
    import rules  # noqa: F401

    acc = read_accuracy(data)
    pol = load_policy().get("accuracy")
    for t in pol.models.values():
        gate_values(acc, t, pol.threshold_scale)
    for e in acc.entries:
        _ = e.sample_count


summary_keys = st.sampled_from(["n_samples_issued", "n_samples_completed", "n_samples_failed", "duration_ns", "qps",
                                "tps", "ttft", "tpot", "latency", "output_sequence_lengths", "system_tps",
                                "legacy_loadgen_window_duration_ns", "n_samples_succeeded"])
blocks = st.fixed_dictionaries({"total": scalars, "percentiles": st.dictionaries(
    st.sampled_from(["50", "50.0", "90", "90.0", "99", "99.0", "x"]), scalars, max_size=5)})


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(summary_keys, json_values | blocks, max_size=10))
def test_summary_checks_never_raise(data):
    s, problems = validate_lenient(ResultSummary, data)
    if s is None:
        return

    class LF:
        field_errors = problems

    lf = LF()
    for f in (check_duration, check_accounting):
        f(s, lf)
    check_output_tokens(s, lf, 0.01)
    check_throughput(s, lf, 0.01)
    check_tpot_p90(s, lf, False)
    for name in ("ttft", "latency"):
        check_percentiles(s, lf, name, True, [50, 90, 99])
    for prop in ("derived_system_tps", "derived_tps_per_user", "derived_qps", "derived_tps", "ttft_p90_ms"):
        getattr(s, prop)


HOSTILE = [
    ("r32/accuracy_results.json", "[1, 2, 3]"),
    ("r32/accuracy_results.json", '{"accuracy_scores": [{"dataset_name": ["x"], "score": {"rouge1": [1]}}]}'),
    ("r32/accuracy_results.json", '{"accuracy_scores": [{"dataset_name": "a", "score": {"rouge1": NaN}, "unit_samples": 1e400}]}'),
    ("r32/accuracy_results.json", '{"cnn": 5, "other": {"score": {"rouge1": "x"}, "num_samples": true}}'),
    ("r32/accuracy_results.json", '{"accuracy_scores": [{"dataset_name": "a", "score": Infinity, "complete": null}]}'),
    ("r64/result_summary.json", '{"n_samples_issued": "many", "duration_ns": -5, "tpot": [], "ttft": {"percentiles": []}}'),
    ("r64/result_summary.json", '{"n_samples_issued": 5, "n_samples_completed": 5, "duration_ns": 1, "qps": NaN, '
                                '"output_sequence_lengths": {"total": Infinity}, "latency": {"percentiles": {"50": null}}}'),
    ("r64/system_desc.json", '{"tps_utilization": "full"}'),
]


@pytest.mark.parametrize("rel, text", HOSTILE)
def test_hostile_files_give_findings_not_errors(tmp_path, rel, text):
    root = tmp_path / "valid"
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    with open(os.path.join(root, CURVE, rel), "w") as fh:
        fh.write(text)
    rep = run_check([str(root)])
    errors = [f for f in rep.findings if "internal error" in f.message]
    assert not errors, [(f.rule_id, f.message) for f in errors]
    fails = [f for f in rep.findings if f.status.value == "FAIL"]
    assert fails and all(f.location is not None for f in fails if f.family in ("accuracy", "metrics"))
