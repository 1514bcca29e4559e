"""Metric checks on the real run folders' result_summary.json files, plus derivation properties."""
import math
import os

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from checker.load.models.lenient import validate_lenient
from checker.load.models.summary import ResultSummary, StatBlock, percentile, percentile_spellings
from checker.load.reader import read_file
from rules.metrics.point import (check_accounting, check_duration, check_output_tokens, check_percentiles,
                           check_stored, check_throughput, check_tpot_p90, close)
from test_accuracy import real_runs

ORDER = [50, 90, 99]


def load(name):
    root = real_runs()
    path = os.path.join(root, name, "performance", "result_summary.json")
    lf = read_file("result_summary", f"{name}/performance/result_summary.json", path, root, 1 << 23)
    assert lf.ok, lf.error
    lf.model, lf.field_errors = validate_lenient(ResultSummary, lf.data)
    assert lf.model is not None and not lf.field_errors
    return lf.model, lf


def status(outcome):
    return outcome.status


def test_poisson_run_uses_the_legacy_window():
    s, lf = load("var_poisson_perf")
    assert s.legacy_window
    assert s.derived_qps == pytest.approx(1199 / 30.888562334)
    assert s.derived_tps == pytest.approx(241310 / 30.888562334)
    # system_tps is over duration_ns, not the legacy window
    assert s.derived_system_tps == pytest.approx(241310 / 30.915370895)
    assert s.tpot_p90_ms == pytest.approx(1.0189207570621468)
    assert s.ttft_p90_ms == pytest.approx(64.381146)
    out = check_throughput(s, lf, 0.01)
    assert out.status == "PASS" and "legacy LoadGen window" in out.message
    assert check_accounting(s, lf).status == "PASS"
    assert check_duration(s, lf).status == "PASS"
    assert check_output_tokens(s, lf, 0.01).status == "PASS"
    assert check_tpot_p90(s, lf, dedicated=False).status == "PASS"
    for name in ("ttft", "latency"):
        assert check_percentiles(s, lf, name, True, ORDER).status == "PASS"


def test_capped_concurrency_run_drops_in_flight_requests():
    s, lf = load("var_concurrency_allchunks")
    out = check_accounting(s, lf)
    # 650 issued, 642 completed, 0 failed: the official "completed + failed == issued" would reject it
    assert out.status == "PASS" and "8 in flight at the end were dropped" in out.message
    assert check_throughput(s, lf, 0.01).status == "PASS"
    assert s.derived_qps == pytest.approx(s.qps) and s.derived_tps == pytest.approx(s.tps)
    assert 1000 / s.tpot_p90_ms == pytest.approx(s.derived_tps_per_user)


def test_accuracy_only_run_summary_is_not_a_performance_run():
    s, lf = load("echo_accuracy_only")
    out = check_duration(s, lf)
    assert out.status == "FAIL" and "accuracy-only" in out.message and out.path == ("duration_ns",)
    out = check_accounting(s, lf)
    assert out.status == "FAIL" and "no performance sample was issued" in out.message
    assert check_output_tokens(s, lf, 0.01).status == "FAIL"
    # ttft/tpot carry only null early-stopping percentiles: an empty block
    assert s.tpot.empty and s.ttft.empty
    assert check_tpot_p90(s, lf, dedicated=False).status == "FAIL"
    assert check_tpot_p90(s, lf, dedicated=True).status == "SKIP"
    assert check_percentiles(s, lf, "ttft", False, ORDER).status == "SKIP"
    assert check_percentiles(s, lf, "latency", True, ORDER).status == "FAIL"
    assert check_throughput(s, lf, 0.01).status == "SKIP"


def test_every_fail_points_at_a_line():
    s, lf = load("echo_accuracy_only")
    for out in (check_duration(s, lf), check_accounting(s, lf), check_tpot_p90(s, lf, False)):
        assert out.status == "FAIL" and out.file is lf
        line, _col = lf.position(out.path)
        assert line is not None and line > 1


def test_percentile_spellings():
    b = StatBlock(percentiles={"90.0": 5.0, "90": 5.0, "50": 1.0})
    assert percentile(b, 90) == (5.0, None) and percentile(b, 50) == (1.0, None)
    assert percentile_spellings(b) == []
    b = StatBlock(percentiles={"90.0": 5.0, "90": 6.0})
    assert percentile(b, 90)[0] is None and percentile_spellings(b) == [("90.0", "90")]


def test_stored_value_checks():
    s = ResultSummary(duration_ns=10 ** 9, output_sequence_lengths=StatBlock(total=1000.0), system_tps=1009.0)
    assert check_stored(s, None, "system_tps", s.derived_system_tps, 0.01, "x").status == "PASS"
    s.system_tps = 1011.0
    assert check_stored(s, None, "system_tps", s.derived_system_tps, 0.01, "x").status == "FAIL"
    s.system_tps = math.inf
    assert check_stored(s, None, "system_tps", s.derived_system_tps, 0.01, "x").status == "FAIL"
    s.system_tps = None
    assert check_stored(s, None, "system_tps", s.derived_system_tps, 0.01, "x").status == "SKIP"


finite = st.floats(min_value=0, max_value=1e12, allow_nan=False, allow_infinity=False)


@given(st.lists(finite, min_size=3, max_size=3))
def test_ordering_detected_exactly_when_percentiles_decrease(vals):
    s = ResultSummary(latency=StatBlock(total=1.0, percentiles={"50.0": vals[0], "90.0": vals[1], "99.0": vals[2]}))
    out = check_percentiles(s, None, "latency", True, ORDER)
    assert (out.status == "PASS") == (vals[0] <= vals[1] <= vals[2])


@given(st.integers(min_value=2, max_value=10 ** 9), st.integers(min_value=1, max_value=10 ** 15))
def test_qps_recomputation_matches_the_clients_formula(n, dur):
    s = ResultSummary(n_samples_completed=n, duration_ns=dur, qps=n / (dur / 1e9))
    assert s.derived_qps == pytest.approx(s.qps)
    s = ResultSummary(n_samples_completed=n, duration_ns=dur, legacy_loadgen_window_duration_ns=dur)
    assert s.derived_qps == pytest.approx((n - 1) / (dur / 1e9))


@given(st.floats(min_value=1e-6, max_value=1e9, allow_nan=False), st.floats(min_value=-0.5, max_value=0.5))
def test_close_is_relative(x, eps):
    assume(abs(abs(eps) - 0.01) > 1e-9)
    assert close(x * (1 + eps), x, 0.01) == (abs(eps) * x <= 0.01 * x)
