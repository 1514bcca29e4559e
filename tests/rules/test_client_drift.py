"""Run folders of the reference client now and next (fixtures/client-drift, and variants made the same way).

Each folder gets exactly the findings its README (or the variant's description in fixtures/make_drift.py)
says a correct checker gives, checked with `--seed-set A --dataset-size 1000` as the README says: the
older and newer config formats, interrupted runs (what the client did not write, what could not be
audited, never warmup or edit advice), the later client's counters and keys, and the steady-state
detector's own output.
"""
from __future__ import annotations

import os
import sys

import pytest

from casefixtures import FIXTURES

sys.path.insert(0, FIXTURES)
import make_drift  # noqa: E402

OPTIONS = {"seed_set": "A", "dataset_size": 1000}
#: folder -> {(rule, severity): a part of its message}: every FAIL of the check, nothing more
EXPECTED = {
    "main_conc_allchunks_both": {
        ("steady-state-detector", "warn"): "spans 582.1 s of issue time, below the 600 s minimum for ultra_low "
                                           "(concurrency 4 <= 32): status insufficient_duration, verdict STEADY STATE"},
    "main_sigint": {
        ("run-folder-files", "reject"): "the run was interrupted (events.jsonl stops at line 1000 with performance "
                                        "tracking on, and there is no performance/result_summary.json"},
    "pr409_conc_warmup_both": {("run-folder-duration", "flag"): "145.8 s < 600 s minimum for ultra_low"},
    "main_sigint_midline": {("run-folder-files", "reject"): "the client did not write performance/result_summary.json, "
                                                             "report.txt, sample_idx_map.json"},
    "main_sigint_warmup": {("run-folder-files", "reject"): "events.jsonl stops at line 148 before session.ended"},
    "pr409_sigint_perf": {("run-folder-complete", "reject-points"): "the run was interrupted (result_summary.json "
                                                                    "state interrupted, complete false; events.jsonl "
                                                                    "session.interrupted at line 3212)"},
    "pr409_sigint_warmup": {("run-folder-complete", "reject-points"): "`runs create` divides it to date the run"},
    "pr409_succeeded_dropped": {("run-folder-duration", "flag"): "145.8 s < 600 s"},
    "pr409_issue_cap": {("run-folder-duration", "flag"): "145.8 s < 600 s"},
    "pr409_newer_event": {
        ("run-folder-duration", "flag"): "145.8 s < 600 s",
        ("run-folder-events-log", "warn"): "session.metrics_flushed (first at line 7652), written by "
                                           "inference-endpoint 0.1.0: a newer client's",
        ("run-folder-recognised", "warn"): "performance/result_summary.json: tokenizer_drain_s"},
    "main_detector_windowable": {},
    "main_detector_not_found": {("steady-state-detector", "warn"): "found no plateau"},
    "main_detector_drifting": {("steady-state-detector", "warn"): "verdict drifting_up"},
}
REAL = ("main_conc_allchunks_both", "main_sigint", "pr409_conc_warmup_both")


@pytest.fixture(scope="module")
def folders(tmp_path_factory):
    root = tmp_path_factory.mktemp("drift")
    out = {name: os.path.join(FIXTURES, "client-drift", name) for name in REAL}
    for name in make_drift.VARIANTS:
        out[name] = make_drift.make(name, str(root / name))
    return out


def _check(path):
    from checker.engine.pipeline import run_check

    return run_check([path], options=OPTIONS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_folder_gets_only_the_findings_it_should(folders, name):
    report = _check(folders[name])
    fails = {(f.rule_id, f.severity.value): f for f in report.findings if f.status.value == "FAIL"}
    assert set(fails) == set(EXPECTED[name]), [(f.rule_id, f.severity.value, f.message) for f in fails.values()]
    for key, words in EXPECTED[name].items():
        assert words in fails[key].message, fails[key].message
    for f in fails.values():  # an interrupted run is never told to shorten a warmup or to stop editing its files
        said = f"{f.message} {f.fix or ''}".lower()
        assert "shorten the warmup" not in said and "never edit" not in said and "unedited" not in said, said


def test_an_interrupted_run_names_what_the_client_did_not_write_and_what_was_not_audited(folders):
    f = next(f for f in _check(folders["main_sigint"]).findings if f.rule_id == "run-folder-files")
    assert f.observed == ["performance/result_summary.json", "report.txt", "sample_idx_map.json",
                          "accuracy/accuracy_results.json (configured: small_accuracy)"]
    assert "not audited: the run's metrics" in f.message and "`runs create` refuses the folder" in f.message
    skipped = {g.rule_id: g for g in _check(folders["main_sigint"]).findings if g.status.value == "SKIP"}
    assert skipped["run-folder-events-log"].reason == "interrupted-run"


def test_the_newer_client_interrupted_is_one_finding_with_its_version(folders):
    report = _check(folders["pr409_sigint_perf"])
    f = next(f for f in report.findings if f.rule_id == "run-folder-complete")
    assert "written by inference-endpoint 0.1.0" in f.message and "best-effort" in f.message
    assert "did not write accuracy/accuracy_results.json" in f.message
    reasons = {g.rule_id: g.reason for g in report.findings if g.status.value == "SKIP"}
    for rid in ("run-folder-events-counts", "run-folder-events-duration", "run-folder-events-latency",
                "run-folder-duration", "run-folder-sample-count"):
        assert reasons[rid] == "interrupted-run", rid
    passed = {g.rule_id for g in report.findings if g.status.value == "PASS"}
    assert {"run-folder-events-log", "run-folder-files", "run-folder-snapshot-agreement",
            "run-folder-warmup"} <= passed


def test_the_later_clients_counters_are_read(folders):
    f = next(f for f in _check(folders["pr409_succeeded_dropped"]).findings if f.rule_id == "run-folder-complete")
    assert f.status.value == "PASS" and "(succeeded 1000, dropped 0)" in f.message


def test_the_newer_format_is_told_to_size_the_run_with_samples(folders):
    for name in ("pr409_conc_warmup_both", "pr409_issue_cap"):
        f = next(f for f in _check(folders[name]).findings if f.rule_id == "run-folder-duration")
        assert "min_duration_ms" not in f.fix and "n_samples_to_issue" in f.fix, f.fix
    f = next(f for f in _check(folders["pr409_issue_cap"]).findings if f.rule_id == "run-folder-duration")
    assert "without settings.runtime.max_issue_duration_ms" in f.fix


def test_a_windowable_detector_window_is_the_duration_basis(folders):
    by = {f.rule_id: f for f in _check(folders["main_detector_windowable"]).findings}
    assert by["steady-state-detector"].status.value == "PASS"
    assert "super-passes 0-4: 5 x 1000 = 5000 samples" in by["steady-state-detector"].message
    assert by["run-folder-duration"].status.value == "PASS"
    assert "steady-state window (steady_state.json, issue time)" in by["run-folder-duration"].message


def test_preflight_speaks_each_configs_own_format(tmp_path):
    """The two real config.yaml files as plans: the newer one is never told about min_duration_ms (it has none and
    its client refuses it); the older one is, at the key it has, with a fix that client accepts."""
    import shutil

    from checker.engine.pipeline import run_check

    for name in ("main_conc_allchunks_both", "pr409_conc_warmup_both"):
        shutil.copy(os.path.join(FIXTURES, "client-drift", name, "config.yaml"), tmp_path / f"{name}.yaml")
    report = run_check([str(tmp_path / f"{n}.yaml") for n in ("main_conc_allchunks_both", "pr409_conc_warmup_both")],
                       options={**OPTIONS, "max_concurrency": 64})
    by = {(f.rule_id, f.subject.label()): f for f in report.findings}
    newer = [f for (rid, subj), f in by.items() if subj.startswith("pr409") and rid.startswith("preflight-")]
    for f in newer:
        said = f"{f.message} {f.fix or ''}"
        assert "min_duration_ms" not in said and "max_duration_ms 0" not in said, (f.rule_id, said)
    d = by[("preflight-duration", "pr409_conc_warmup_both.yaml")]
    assert d.status.value == "SKIP" and "no minimum duration to plan" in d.message
    s = by[("preflight-sample-count", "pr409_conc_warmup_both.yaml")]
    assert s.status.value == "FAIL" and "n_samples_to_issue" in s.message
    old = by[("preflight-duration", "main_conc_allchunks_both.yaml")]
    assert old.status.value == "FAIL" and old.severity.value == "warn" and old.location.line == 28
    assert "min_duration_ms 600000 is within 10%" in old.message and "min_duration_ms" in old.fix
