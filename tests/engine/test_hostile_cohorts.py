"""Hostile input, round two (issue 17): one hostile unit never hides another unit's findings.

A cohort (several organisations, submissions and run folders checked together) with generated hostile
units beside valid ones: every valid unit has exactly the findings it has when checked alone, every
hostile unit is reported on its own, and a unit whose check crashes or runs out of time fails alone with
a submission-checked FAIL naming it.
"""
from __future__ import annotations

import os
import shutil
import tempfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_gen import CURVE, REAL_RUNS, VALID, internal_errors, slow
from casefixtures import apply_patch

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

SYSTEM = os.path.dirname(CURVE)


from checker.engine.cohort_units import check_unit as _REAL_CHECK_UNIT  # noqa: E402

#: hostile units: patches applied to a copy of the valid package (whole-unit problems)
HOSTILE_UNITS = {
    "many-points": [{"mkdir": f"{CURVE}/r{100000 + i}"} for i in range(3000)],
    "deep-json": [{"write": {"file": f"{CURVE}/r64/result_summary.json", "text": "[" * 100000 + "]" * 100000}}],
    "alias-flood": [{"write": {"file": f"{CURVE}/r8/config.yaml", "text": "s: &s " + "x" * 200000 + "\nl: ["
                               + ", ".join(["*s"] * 9000) + "]\n"}}],
    "binary": [{"write": {"file": f"{CURVE}/r4/point.yaml", "bytes_hex": "00ff" * 4096}}],
    "fifo": [{"mkfifo": f"{CURVE}/r1/system_desc.json"}],
    "escape": [{"remove": f"{CURVE}/r32/accuracy_results.json"},
               {"symlink": {"link": f"{CURVE}/r32/accuracy_results.json", "target": "/etc/passwd"}}],
    "huge-int": [{"write": {"file": f"{CURVE}/r64/point.yaml", "text": "concurrency: " + "9" * 5000 + "\n"}}],
}


def _key(f) -> tuple:
    s = f.subject
    return (f.rule_id, f.status.value, s.system, s.model, s.point, s.entry)


def _unit_keys(findings, label, scopes) -> set:
    return {_key(f) for f in findings if f.subject.submission == label and scopes.get(f.rule_id) not in ("cohort",)}


def _scopes():
    from checker.engine.catalogue import all_rules

    return {r.id: ("cohort" if r.scope == "cohort" or r.after_waivers else r.scope) for r in all_rules()}


def _alone(path: str) -> set:
    from checker.engine.pipeline import run_check

    rep = run_check([path], jobs=1)
    label = rep.package.submissions[0].name
    return _unit_keys(rep.findings, label, _scopes())


_ALONE: dict = {}


def _alone_cached(kind: str, path: str) -> set:
    if kind not in _ALONE:
        _ALONE[kind] = _alone(path)
    return _ALONE[kind]


@slow(5)
@given(st.lists(st.sampled_from(sorted(HOSTILE_UNITS)), min_size=1, max_size=3, unique=True),
       st.sampled_from([1, 2]))
def test_hostile_units_never_hide_valid_ones(tmp_path, hostile, jobs):
    from checker.engine.pipeline import run_check

    root = tempfile.mkdtemp(dir=tmp_path)
    cohort = os.path.join(root, "cohort")
    shutil.copytree(VALID, os.path.join(cohort, "acme", "sub-ok"))
    shutil.copytree(os.path.join(REAL_RUNS, "var_poisson_perf"), os.path.join(cohort, "runs", "run-ok"))
    for name in hostile:
        dest = os.path.join(cohort, "evil", name)
        shutil.copytree(VALID, dest)
        for op in HOSTILE_UNITS[name]:
            apply_patch(dest, op)
    rep = run_check([cohort], jobs=jobs)
    scopes = _scopes()
    valid_alone = _alone_cached("valid", VALID)
    assert _unit_keys(rep.findings, "acme/sub-ok", scopes) == valid_alone
    alone_run = run_check([os.path.join(REAL_RUNS, "var_poisson_perf")], jobs=1).findings
    run_alone = {_key(f)[:4] + _key(f)[5:] for f in alone_run
                 if f.subject.point == "var_poisson_perf" and scopes.get(f.rule_id) != "cohort"}
    assert {_key(f)[:4] + _key(f)[5:] for f in rep.findings if f.subject.point == "run-ok" and not f.subject.submission
            and scopes.get(f.rule_id) != "cohort"} == run_alone
    for name in hostile:
        mine = [f for f in rep.findings if f.subject.submission == f"evil/{name}"]
        assert [f for f in mine if f.status.value == "FAIL"], name
    checked = [f for f in rep.findings if f.rule_id == "submission-checked" and f.status.value == "FAIL"]
    assert not checked, [f.message for f in checked]
    assert not internal_errors(rep.findings)
    rows = {r["label"]: r for r in rep.sections["cohort"]["submissions"]}
    assert rows["acme/sub-ok"]["verdict"] == "PASSED"
    assert all(rows[f"evil/{n}"]["verdict"] == "FAILED" for n in hostile)


_FLAKY: dict = {}


def _flaky_check_unit(job):
    """check_unit, except for bravo/sub-2: it raises, or hangs (module level: the pool pickles it by name,
    and forked workers inherit ``_FLAKY``)."""
    unit, _settings = job
    if unit.label == "bravo/sub-2":
        if _FLAKY.get("how") == "raise":
            raise RecursionError("maximum recursion depth exceeded")
        import time

        time.sleep(600)
    return _REAL_CHECK_UNIT(job)


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("how", ["raise", "timeout"])
def test_a_unit_that_crashes_or_hangs_fails_alone(tmp_path, monkeypatch, jobs, how):
    """The check of one unit raising (a bug) or running past --timeout: a FAIL naming that unit; every other
    unit's findings are all present."""
    import checker.engine.cohort_units as batches
    from checker.engine.pipeline import run_check

    if how == "timeout" and jobs == 1:
        pytest.skip("serial runs have no time limit (the pool's SIGALRM runs in workers)")
    cohort = tmp_path / "cohort"
    for org, sub in (("acme", "sub-1"), ("bravo", "sub-2"), ("charlie", "sub-3")):
        shutil.copytree(VALID, cohort / org / sub)
    monkeypatch.setattr(batches, "check_unit", _flaky_check_unit)
    monkeypatch.setitem(_FLAKY, "how", how)
    rep = run_check([str(cohort)], jobs=jobs, timeout=8)
    crashed = [f for f in rep.findings if f.rule_id == "submission-checked" and f.status.value == "FAIL"]
    assert len(crashed) == 1 and "bravo/sub-2" in crashed[0].message, [f.message for f in crashed]
    assert ("RecursionError" if how == "raise" else "time limit") in crashed[0].message
    scopes = _scopes()
    alone = _alone_cached("valid", VALID)
    for label in ("acme/sub-1", "charlie/sub-3"):
        assert _unit_keys(rep.findings, label, scopes) == alone, label
    rows = {r["label"]: r for r in rep.sections["cohort"]["submissions"]}
    assert rows["bravo/sub-2"]["checked"] is False and rows["acme/sub-1"]["checked"] is True
