"""`draft` writes point.yaml's steady_state block from the detector's own steady_state.json, and both checkers accept it.

fixtures/client-drift/main_conc_allchunks_both carries the steady-state detector's real output (its window
spans 582 s of issue time, under the 600 s minimum of concurrency 4: insufficient_duration). The drafted
block says so in R§4.4's words; dropped into a point of the valid package it is accepted by the official
checker 1.5.3.0 (no ERROR: steady-state-valid and -consistency pass, steady-state-basis warns) and by ours
(no steady-state finding above a warning, the whole run's duration measured); and the run folder, drafted
and assembled, is written as the bundle the official checks without a steady-state ERROR.
"""
from __future__ import annotations

import json
import os
import shutil
import sys

import yaml

import cf_run
import draftfill
from casefixtures import FIXTURES, MODEL_NAME, SYSTEM_NAME

sys.path.insert(0, FIXTURES)
import make_valid as mv  # noqa: E402

RUN = os.path.join(FIXTURES, "client-drift", "main_conc_allchunks_both")
WANT = {"status": "insufficient_duration", "verdict": "STEADY STATE",
        "window": {"super_pass_start": 1, "super_pass_end": 4, "super_pass_size": 1000, "n_samples": 4000,
                   "duration_s": 582.053},
        "state": {"ttft_p50": "Plateau", "ttft_p95": "Plateau", "tpot_p50": "Plateau", "tpot_p95": "Plateau"}}
#: fixtures/valid's 'DP8' is too short for the official (tests/conformance/disagreements.yaml)
CONFIG_SUMMARY = "DP8 in-flight batching"
STEADY = ("steady-state-valid", "steady-state-consistency", "steady-state-basis", "point-duration")


def _drafted(tmp_path) -> tuple[str, dict]:
    """The run folder copied with a system_desc.json beside it, drafted and filled as a submitter would."""
    from checker.draft.run import run
    from checker.engine.policy import load_policy

    runs = tmp_path / "runs"
    folder = runs / "main_conc_allchunks_both"
    shutil.copytree(RUN, folder)
    spec = ("low_latency", "none", 4.0, 40.0, False)
    (folder / "system_desc.json").write_text(json.dumps(mv.system_desc(4, spec, 1.0), indent=2))
    results = run([str(folder)], load_policy(None, {}), dataset_size=1000)
    assert [r.written for r in results] == [True]
    path = folder / "point.yaml"
    text = path.read_text()
    assert "paste" not in text and "steady_state.json" in text
    path.write_text(draftfill.fill(text, {"concurrency": "4"}))
    return str(folder), yaml.safe_load(path.read_text())["steady_state"]


def test_the_drafted_block_is_the_detectors_reading(tmp_path):
    from checker.engine.pipeline import run_check

    folder, block = _drafted(tmp_path)
    assert block == WANT
    # the folder checked on its own: the drafted block agrees with steady_state.json; the whole run meets 600 s
    report = run_check([folder], options={"seed_set": "A", "dataset_size": 1000})
    by = {f.rule_id: f for f in report.findings}
    assert by["steady-state-detector"].status.value == "FAIL" and by["steady-state-detector"].severity.value == "warn"
    assert "insufficient_duration" in by["steady-state-detector"].message
    assert by["run-folder-duration"].status.value == "PASS" and "728.2 s" in by["run-folder-duration"].message


def test_both_checkers_accept_the_drafted_block_in_a_valid_point(tmp_path, official_python):
    from checker.engine.pipeline import run_check

    _folder, block = _drafted(tmp_path)
    pkg = tmp_path / "valid"
    shutil.copytree(os.path.join(FIXTURES, "valid"), pkg)
    point = pkg / "results" / SYSTEM_NAME / MODEL_NAME / "r4" / "point.yaml"
    data = yaml.safe_load(point.read_text())
    data["steady_state"] = block
    point.write_text(yaml.safe_dump(data, sort_keys=False))
    for desc in pkg.rglob("system_desc.json"):  # the conformance base's config_summary, accepted by both tools
        doc = json.loads(desc.read_text())
        doc["config_summary"] = CONFIG_SUMMARY
        desc.write_text(json.dumps(doc, indent=2))
    official = cf_run.run_official(official_python, [str(pkg)])[str(pkg)]
    assert official["verdict"] == "accept", official
    ours = run_check([str(pkg)])
    at_r4 = [f for f in ours.findings if f.subject.point == "r4" and f.rule_id in STEADY]
    assert {f.rule_id: f.status.value for f in at_r4} == {
        "steady-state-valid": "PASS", "steady-state-consistency": "PASS", "steady-state-basis": "FAIL",
        "point-duration": "PASS"}
    basis = next(f for f in at_r4 if f.rule_id == "steady-state-basis")
    assert basis.severity.value == "warn" and "insufficient_duration" in basis.message
    assert "whole-run duration" in next(f for f in at_r4 if f.rule_id == "point-duration").message
    assert not ours.week0_reject, ours.week0


def test_the_drafted_run_folder_bundles_without_a_steady_state_error(tmp_path, official_python):
    from checker.engine.pipeline import run_check

    folder, _block = _drafted(tmp_path)
    out = tmp_path / "bundle"
    report = run_check([folder], assemble=True, write_bundle=str(out))
    mine = {(f.rule_id, f.status.value) for f in report.findings if f.rule_id in STEADY + ("steady-state-detector",)}
    assert ("steady-state-detector", "PASS") in mine and ("steady-state-consistency", "PASS") in mine
    official = cf_run.run_official(official_python, [str(out)])[str(out)]
    assert not [r for r in official["rules"] if r.startswith("steady-state")], official
