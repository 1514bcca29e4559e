"""The engine's tally (checker/engine/tally.py): verdicts per report, unit and point, counts per level and under any
subject, and the problems, computed once from the findings."""
from __future__ import annotations

import pytest

from casefixtures import MODEL_NAME, SYSTEM_NAME, materialise

from checker.core.findings import Severity, Status, Subject

SUMMARY_OK = [{"set": {"file": f"{{curve}}/{p}/system_desc.json", "path": ["config_summary"], "value": "DP8 TP1"}}
              for p in ("r1", "r4", "r8", "r32", "r64", "r256", "r1024", "r13368")]
#: config_summary shorter than the official schema's 4 characters at r1: the Week-0 check rejects that point
SUMMARY_SHORT = [{"set": {"file": "{curve}/r1/system_desc.json", "path": ["config_summary"], "value": "DP8"}}]


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """One submission: r64 ran incomplete (a reject-points error of the rules), r1's config_summary is too short
    for the Week-0 check (a reject-points of the Week-0 check), and a stray file (a warning)."""
    from checker.engine.pipeline import run_check

    pkg = materialise({"base": "valid", "name": "acme", "patch": SUMMARY_OK + [
        {"set": {"file": "{curve}/r64/result_summary.json", "path": ["complete"], "value": False}},
        {"set": {"file": "{curve}/r1/system_desc.json", "path": ["config_summary"], "value": "DP8"}},
        {"write": {"file": "notes.txt", "text": "stray\n"}}]}, str(tmp_path_factory.mktemp("tally")))
    return run_check([pkg])


def test_counts_verdicts_and_problems_are_the_findings(report):
    t = report.tally
    fails = [f for f in report.findings if f.status is Status.FAIL]
    assert t.counts.failed == len(fails) and t.counts.total == len(report.findings)
    assert t.counts.reject_points == sum(f.severity is Severity.REJECT_POINTS for f in fails) >= 1
    assert t.counts.warn >= 1 and t.counts.levels()["error"] == t.counts.errors
    assert t.rules == "reject-points" and t.week0["verdict"] == "reject-points"
    # the problem lines hold every FAIL exactly once: as a cause (its lead or a repeat) or named on one
    held = [f for p in t.problems for f in p.all]
    assert sorted(map(id, held)) == sorted(map(id, fails))
    assert all(p.severity.rank == max(f.severity.rank for f in p.all) for p in t.problems)
    assert report.to_dict()["summary"]["fail_by_severity"] == t.counts.fail_by_severity()
    (unit,) = t.units.values()
    assert unit.kind == "submission" and unit.week0 == t.week0
    assert unit.counts.total == sum(1 for f in report.findings if f.subject.submission == unit.label)
    assert unit.counts.failed == t.counts.failed  # the package-level findings (no submission) all pass
    assert unit.week0_source == "model" and unit.gate == report.verdict == "FAILED"


def test_both_verdicts_per_point(report):
    t = report.tally
    sub = next(iter(t.units))
    at = {p: t.point(sub, SYSTEM_NAME, MODEL_NAME, p) for p in ("r1", "r8", "r64")}
    assert (at["r64"].rules, at["r64"].week0) == ("reject-points", "accept")
    assert (at["r1"].rules, at["r1"].week0) == ("accept", "reject-points")
    assert (at["r8"].rules, at["r8"].week0) == ("accept", "accept")


def test_counts_under_a_subject_add_up(report):
    t = report.tally
    sub = next(iter(t.units))
    curve = t.counts_under(sub, SYSTEM_NAME, MODEL_NAME)
    points = [t.counts_under(sub, SYSTEM_NAME, MODEL_NAME, p) for p in
              ("r1", "r4", "r8", "r32", "r64", "r256", "r1024", "r13368")]
    assert curve.failed >= sum(p.failed for p in points) and points[4].reject_points == 1
    own = [f for f in report.findings if (f.subject.submission, f.subject.system, f.subject.model)
           == (sub, SYSTEM_NAME, MODEL_NAME)]
    assert curve.total == len(own)
    assert t.counts_under(sub).total == sum(1 for f in report.findings if f.subject.submission == sub)
    assert t.counts_under().total == t.counts.total


def test_a_units_tally_is_the_units_own(tmp_path):
    """A cohort's page of one submission sees that submission's verdicts and findings, never the cohort's."""
    from checker.engine.pipeline import run_check

    for label, patch in (("a/one", SUMMARY_OK), ("b/two", SUMMARY_SHORT)):
        materialise({"base": "valid", "name": label, "patch": patch}, str(tmp_path / "cohort"))
    report = run_check([str(tmp_path / "cohort")], jobs=1)
    t = report.tally
    assert {k: v.week0_verdict for k, v in t.units.items()} == {"a/one": "accept", "b/two": "reject-points"}
    assert t.week0["verdict"] == "reject-points"
    one = t.of_unit("a/one")
    assert one.week0["verdict"] == "accept" and one.report.counts == t.units["a/one"].counts
    assert all(f.subject.submission == "a/one" for f in one.findings) and one.findings
    assert one.counts_under("b/two").total == 0 and one.problems <= t.problems
    assert Subject(submission="b/two") not in {s for _r, s in one.problems}
