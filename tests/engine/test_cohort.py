"""Cohort mode (issue 10): discovery, labels, worker isolation, serial == parallel, cohort section."""
import json
import os
import subprocess
import sys

import pytest

from casefixtures import FIXTURES, apply_patch
from cohortfixture import build_cohort
from conftest import REPO, assert_valid_report

from checker.core.findings import Status
from golden import scrub


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    return build_cohort(str(tmp_path_factory.mktemp("cohort")))


def _run(paths, **kw):
    from checker.engine.pipeline import run_check

    return run_check(paths, **kw)


def _json(report) -> str:
    from checker.render import render

    return scrub(render("json", report))


def _text(report) -> str:
    from checker.render import render

    return render("text", report, tty=False)


def test_cohort_dir_finds_every_submission_with_org_labels(cohort):
    report = _run([cohort], jobs=1)
    subs = {f.subject.submission for f in report.findings if f.subject.submission}
    assert subs == {"alpha/sub-a01", "bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01"}
    rows = {r["label"]: r for r in report.sections["cohort"]["submissions"]}
    assert rows["alpha/sub-a01"]["verdict"] == "PASSED"
    assert rows["bravo/sub-b01"]["verdict"] == "FAILED"
    # each unit carries its own Week-0 verdict (predicted here: tests/conftest.py); bravo/sub-b02 is rules-clean
    # and accepted by the automated check, and fails the gate on a cross-submission flag
    assert rows["bravo/sub-b02"]["verdict"] == "FAILED" and rows["bravo/sub-b02"]["rules_verdict"] == "accept"
    assert rows["bravo/sub-b02"]["week0"]["verdict"] == "accept" and rows["bravo/sub-b02"]["week0"]["rules"] == []
    assert rows["bravo/sub-b02"]["week0"]["source"] == "model"
    assert rows["charlie/sub-c01"]["verdict"] == "FAILED" and rows["charlie/sub-c01"]["week0_reject"]
    assert rows["charlie/sub-c01"]["week0"]["rules"] == ["crash"]  # the official stops with a traceback
    assert [r["org"] for r in report.sections["cohort"]["submissions"]] == ["alpha", "bravo", "bravo", "charlie"]
    assert report.sections["cohort"]["verdicts"] == {"PASSED": 1, "FAILED": 3}
    hw = [f for f in report.findings if f.rule_id == "cohort-hardware-consistency" and f.status is Status.FAIL]
    assert [f.subject.label() for f in hw] == ["bravo/sub-b02/H200-SXM-141GBx8_TRT"]
    assert "node_types[0].host_memory_capacity" in hw[0].message and hw[0].location.line


def test_hostile_and_failing_submissions_leave_the_valid_one_untouched(cohort, tmp_path):
    """alpha's findings in the cohort are exactly those of alpha checked alone (label aside)."""
    together = _run([cohort], jobs=2)
    alone = _run([os.path.join(cohort, "alpha", "sub-a01")])
    got = sorted((f.rule_id, f.subject.label().split("/", 1)[1], f.status.value, f.message)
                 for f in together.findings if f.subject.submission == "alpha/sub-a01")
    want = sorted((f.rule_id, f.subject.label(), f.status.value, f.message)
                  for f in alone.findings if f.subject.submission == "sub-a01")
    assert got == want and got


@pytest.mark.parametrize("fmt", ["json", "text", "sarif", "junit"])
def test_parallel_output_is_byte_identical_to_serial(cohort, fmt, monkeypatch):
    from checker.render import render

    monkeypatch.chdir(os.path.dirname(cohort))
    outs = [scrub(render(fmt, _run(["cohort"], jobs=j), tty=False)) for j in (1, 2, 3)]
    assert outs[0] == outs[1] == outs[2]


def test_cli_jobs_serial_and_parallel_identical(cohort):
    outs = []
    for jobs in ("1", "2"):
        p = subprocess.run([sys.executable, "-m", "checker", "check", "cohort", "-f", "json", "--jobs", jobs],
                           cwd=os.path.dirname(cohort), capture_output=True, text=True, timeout=300)
        assert p.returncode == 1, p.stderr
        assert p.stderr == ""  # no progress bar when stderr is not a terminal
        outs.append(scrub(p.stdout))
    assert outs[0] == outs[1]
    assert_valid_report(json.loads(outs[0]))


def test_worker_that_dies_is_a_finding_for_its_submission_only(cohort, monkeypatch):
    from checker.engine.catalogue import all_rules

    normal = _run([cohort], jobs=2)
    rule = next(r for r in all_rules() if r.id == "required-dir")
    original = rule.func

    def killer(sub, ctx):
        if sub.name == "bravo/sub-b01":
            os._exit(7)  # the worker process dies mid-check
        return original(sub, ctx)

    monkeypatch.setattr(rule, "func", killer)
    report = _run([cohort], jobs=2)
    crashed = [f for f in report.findings if f.rule_id == "submission-checked" and f.status is Status.FAIL]
    assert [f.subject.label() for f in crashed] == ["bravo/sub-b01"]
    assert "died" in crashed[0].message
    assert not [f for f in report.findings if f.subject.submission == "bravo/sub-b01" and f is not crashed[0]]
    # per-submission findings of the others are untouched (cross-submission ones lose b01 as a reference)
    keep = lambda r: [(f.rule_id, f.subject, f.status, f.message) for f in r.findings  # noqa: E731
                      if f.subject.submission in ("alpha/sub-a01", "bravo/sub-b02", "charlie/sub-c01")
                      and f.family != "cohort"]
    assert keep(report) == keep(normal)
    row = {r["label"]: r for r in report.sections["cohort"]["submissions"]}["bravo/sub-b01"]
    assert row["checked"] is False and row["verdict"] == "FAILED"


def test_exception_outside_rules_is_a_finding_in_serial_mode_too(cohort, monkeypatch):
    import checker.engine.cohort_units as co

    original = co.check_unit

    def broken(job):
        if job[0].label.startswith("charlie/"):
            raise MemoryError("simulated")
        return original(job)

    monkeypatch.setattr(co, "check_unit", broken)
    report = _run([cohort], jobs=1)
    crashed = [f for f in report.findings if f.rule_id == "submission-checked" and f.status is Status.FAIL]
    assert [f.subject.label() for f in crashed] == ["charlie/sub-c01"]
    assert "MemoryError: simulated" in crashed[0].message


def test_same_submission_id_in_two_orgs_keeps_subjects_apart(tmp_path):
    import shutil

    for org in ("acme", "bolt"):
        shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "c" / org / "0xabc")
    report = _run([str(tmp_path / "c")], jobs=2)
    keys = [(f.rule_id, f.subject) for f in report.findings]
    assert len(keys) == len(set(keys))
    dup = sorted(f.subject.label() for f in report.findings if f.rule_id == "submission-id-unique"
                 and f.status is Status.FAIL)
    assert dup == ["acme/0xabc", "bolt/0xabc"]


def test_mixed_paths_submission_org_dir_and_run_folder(tmp_path):
    import shutil

    shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "org1" / "s1")
    shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "org2" / "s2")
    shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "org2" / "s3")
    run = os.path.join(FIXTURES, "real-runs", "var_poisson_perf")
    paths = [str(tmp_path / "org1" / "s1"), str(tmp_path / "org2"), run]
    report = _run(paths, jobs=2)
    rows = report.sections["cohort"]["submissions"]
    labels = [r["label"] for r in rows if r["kind"] == "submission"]
    assert labels == ["org1/s1", "org2/s2", "org2/s3"]
    if os.path.isdir(run):
        assert [r["label"] for r in rows if r["kind"] == "run-folder"] == ["var_poisson_perf"]
        assert any(f.rule_id == "run-folder-recognised" for f in report.findings)
    assert [f for f in report.findings if f.rule_id == "path-exists"][0].message.startswith("found 3 submission")
    keys = [(f.rule_id, f.subject) for f in report.findings]
    assert len(keys) == len(set(keys))


def test_package_level_findings_merge_like_one_run(tmp_path):
    """Cohort-level junk, a missing path and per-submission refusals all appear once."""
    import shutil

    c = tmp_path / "c"
    shutil.copytree(os.path.join(FIXTURES, "valid"), c / "acme" / "s1")
    shutil.copytree(os.path.join(FIXTURES, "valid"), c / "acme" / "s2")
    (c / "__MACOSX").mkdir()
    apply_patch(str(c / "acme" / "s2"), {"mkfifo": "{curve}/r8/point.yaml"})
    report = _run([str(c), str(tmp_path / "missing")], jobs=2)
    by_rule = {}
    for f in report.findings:
        by_rule.setdefault(f.rule_id, []).append(f)
    assert [f.status for f in by_rule["path-exists"]] == [Status.FAIL]
    assert [(f.status, f.subject.label()) for f in by_rule["file-unreadable"]] == [
        (Status.FAIL, "acme/s2/H200-SXM-141GBx8_TRT/llama3_1-8b/r8/point.yaml")]
    junk = [f for f in by_rule["unexpected-entry"] if f.status is Status.FAIL]
    assert len(junk) == 1 and "__MACOSX" in junk[0].message
    assert [f.status for f in by_rule["symlink-escape"]] == [Status.PASS]
    assert report.exit_code() == 2


def test_single_submission_output_is_unchanged_by_cohort_options():
    plain = _run([os.path.join(FIXTURES, "valid")])
    assert "cohort" not in plain.to_dict()
    assert {f.subject.submission for f in plain.findings if f.subject.submission} == {"valid"}
    assert _json(_run([os.path.join(FIXTURES, "valid")], jobs=4)) == _json(plain)


def test_cohort_section_counts(cohort):
    report = _run([cohort], jobs=2)
    doc = json.loads(_json(report))
    assert_valid_report(doc)
    c = doc["cohort"]
    assert c["version"] == "1.0" and c["organisations"] == ["alpha", "bravo", "charlie"]
    assert c["counts_by_rule"]["alias-budget"]["FAIL"] == 1
    assert c["counts_by_rule"]["alias-budget"]["fail_by_severity"] == {"reject": 1}
    assert c["fail_by_severity"] == doc["summary"]["fail_by_severity"]
    assert sum(r["counts"]["total"] for r in c["submissions"]) <= doc["summary"]["total"]
    cross = {f["rule_id"] for f in c["cross_submission_findings"]}
    assert {"submission-id-unique", "submission-seed-set-single", "cohort-hardware-consistency",
            "submission-checked", "target-cohort-matches"} <= cross
    seeds = [f for f in c["cross_submission_findings"] if f["rule_id"] == "submission-seed-set-single"]
    assert seeds[0]["status"] == "FAIL" and seeds[0]["subject"]["submission"] == "bravo/sub-b01"
    assert seeds[0]["location"]["line"]


def test_cohort_option_from_the_cli(cohort):
    p = subprocess.run([sys.executable, "-m", "checker", "check", cohort, "-f", "json", "--cohort", "2026-12-C0",
                        "-j", "2"], capture_output=True, text=True, timeout=300)
    doc = json.loads(p.stdout)
    bad = sorted(f["subject"]["submission"] for f in doc["findings"]
                 if f["rule_id"] == "target-cohort-matches" and f["status"] == "FAIL")
    assert bad == ["alpha/sub-a01", "bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01"]


def test_runner_evaluates_cohort_rules_on_a_plain_package(tmp_path):
    """Outside the pipeline (a Package given to the runner) the cohort rules build their own digests."""
    import shutil

    from checker.load.discovery import discover
    from checker.engine.policy import load_policy
    from checker.engine.catalogue import all_rules
    from checker.engine.evaluate import Context, run_rules

    shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "o" / "a")
    shutil.copytree(os.path.join(FIXTURES, "valid"), tmp_path / "o" / "b")
    apply_patch(str(tmp_path / "o" / "b"), {"set": {"file": "{curve}/r1/point.yaml", "path": ["seed_set"],
                                                    "value": "Z"}})
    pkg = discover([str(tmp_path / "o")])
    rules = [r for r in all_rules() if r.family == "cohort"]
    found = run_rules(rules, pkg, Context(package=pkg, policy=load_policy()))
    fails = [(f.rule_id, f.subject.label()) for f in found if f.status is Status.FAIL]
    assert fails == [("submission-seed-set-single", "b")]


@pytest.mark.parametrize("jobs", [1, 2])
def test_report_package_holds_the_loaded_submissions_for_renderers(cohort, jobs):
    """The HTML/Markdown renderers draw curves from report.package: workers send the packages back."""
    report = _run([cohort], jobs=jobs)
    subs = {s.name: s for s in report.package.submissions}
    assert sorted(subs) == ["alpha/sub-a01", "bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01"]
    alpha = subs["alpha/sub-a01"]
    assert alpha.org == "alpha" and len(alpha.points()) == 8
    assert alpha.points()[0].curve.system.submission is alpha  # parent links survive the trip
    assert alpha.points()[0].subject.submission == "alpha/sub-a01"
    lean = _run([cohort], jobs=jobs, keep_packages=False)
    assert [s.name for s in lean.package.submissions] == sorted(subs) and not lean.package.submissions[0].systems


@pytest.mark.parametrize("jobs", [1, 2])
def test_worker_encoded_json_is_byte_identical(cohort, jobs, tmp_path):
    """Findings encoded by the workers and spliced in give the same bytes as encoding them at the end."""
    from checker.render import render

    wf = tmp_path / "w.yaml"
    wf.write_text("waivers:\n  - {rule: unexpected-entry, subject: '*', reason: r, approver: a, expires: 2099-01-01}\n")
    base = tmp_path / "base.json"
    base.write_text(render("json", _run([cohort], jobs=jobs)))
    for kw in ({}, {"waivers": str(wf)}, {"baseline": str(base)}):
        fast = _run([cohort], jobs=jobs, prerender_json=True, **kw)
        assert sum(len(fs) for fs, _text in fast.json_blocks.values()) > 1000
        text = render("json", fast)
        fast.json_blocks = {}
        assert text == render("json", fast)


def test_fast_indented_encoder_matches_json_dumps():
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from checker.core.json_text import encode_indented

    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
    values = st.recursive(leaves, lambda kids: st.lists(kids, max_size=4) | st.tuples(kids, kids)
                          | st.dictionaries(st.text(max_size=5), kids, max_size=4)
                          | st.dictionaries(st.integers() | st.booleans() | st.none(), kids, max_size=3), max_leaves=20)

    @settings(max_examples=300, deadline=None)
    @given(values)
    def check(v):
        assert encode_indented(v) == json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)

    check()
    for bad in (float("nan"), {"x": [float("inf")]}):
        with pytest.raises(ValueError):
            encode_indented(bad)


def test_cohort_html_folder_serial_equals_parallel(cohort, tmp_path):
    from checker.render.cohort_html import write_cohort

    pages = []
    for jobs in (1, 2):
        out = tmp_path / f"out{jobs}"
        written = write_cohort(_run([cohort], jobs=jobs), str(out))
        pages.append({os.path.basename(w): scrub(open(w, encoding="utf-8").read()) for w in written})
    assert pages[0] == pages[1]
    assert sorted(pages[0]) == ["001-alpha-sub-a01.html", "002-bravo-sub-b01.html", "003-bravo-sub-b02.html",
                                "004-charlie-sub-c01.html", "index.html"]
