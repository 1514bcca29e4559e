"""Waivers (--waivers) and baselines (--baseline, --fail-on-new)."""
import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from casefixtures import FIXTURES, apply_patch
from cohortfixture import build_cohort
from conftest import REPO, assert_valid_report

from checker.core.findings import Status

TODAY = "2026-11-29"


def _run(paths, **kw):
    from checker.engine.pipeline import run_check

    return run_check(paths, **kw)


def _cli(*args, cwd=None, env=None):
    e = dict(os.environ, **(env or {}))
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=cwd,
                          env=e, timeout=300)


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    return build_cohort(str(tmp_path_factory.mktemp("wb")))


def _waivers(path, entries):
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump({"version": 1, "waivers": entries}, fh, sort_keys=False)
    return str(path)


def _w(rule, subject, expires="2026-12-31", reason="reviewed", approver="R. Viewer"):
    return {"rule": rule, "subject": subject, "reason": reason, "approver": approver, "expires": expires}


def test_waiver_turns_a_fail_into_a_counted_skip(cohort, tmp_path):
    wf = _waivers(tmp_path / "w.yaml", [
        _w("unexpected-entry", "bravo/*", reason="notes file is harmless"),
        _w("submission-seed-set-single", "bravo/sub-b01", expires="2026-11-01"),  # expired
        _w("me-*", "nobody/*"),  # unused
        _w("alias-budget", "*"),  # never applies to loading failures: unused
    ])
    report = _run([cohort], jobs=2, waivers=wf, today=TODAY)
    doc = report.to_dict()
    assert_valid_report(json.loads(json.dumps(doc)))
    junk = [f for f in report.findings if f.rule_id == "unexpected-entry" and f.subject.submission == "bravo/sub-b01"]
    assert [f.status for f in junk] == [Status.SKIP]
    assert junk[0].reason == "waived: notes file is harmless (R. Viewer)"
    assert doc["summary"]["waived"] == 1
    seeds = [f for f in report.findings if f.rule_id == "submission-seed-set-single" and f.status is Status.FAIL]
    assert len(seeds) == 1  # the expired waiver does not apply
    expired = [f for f in report.findings if f.rule_id == "waiver-expired" and f.status is Status.FAIL]
    assert len(expired) == 1 and expired[0].location.line and expired[0].location.file == wf
    unused = sorted(f.message for f in report.findings if f.rule_id == "waiver-unused" and f.status is Status.FAIL)
    assert len(unused) == 2 and "alias-budget" in unused[0] and "me-*" in unused[1]
    assert [f.status for f in report.findings if f.rule_id == "alias-budget"] == [Status.FAIL]
    entries = doc["waivers"]["entries"]
    assert [e["matched"] for e in entries] == [1, 0, 0, 0] and entries[1]["expired"] is True
    row = {r["label"]: r for r in doc["cohort"]["submissions"]}["bravo/sub-b01"]
    assert row["counts"]["waived"] == 1
    from checker.render import render

    text = render("text", report, tty=False)
    assert "(1 waived)" in "\n".join(text.splitlines()[-3:])  # the summary's counts line
    sarif = json.loads(render("sarif", report))
    sup = [r for r in sarif["runs"][0]["results"] if r.get("suppressions")]
    assert len(sup) == 1 and sup[0]["ruleId"] == "unexpected-entry"


def test_parse_failures_are_never_waived(tmp_path):
    pkg = tmp_path / "p"
    shutil.copytree(os.path.join(FIXTURES, "valid"), pkg)
    apply_patch(str(pkg), {"set": {"file": "{curve}/r8/point.yaml", "path": ["concurrency"], "value": "x"}})
    wf = _waivers(tmp_path / "w.yaml", [_w("*", "*")])
    report = _run([str(pkg)], waivers=wf, today=TODAY)
    assert [f.status for f in report.findings if f.rule_id == "point-config-valid" and f.subject.point == "r8"] \
        == [Status.FAIL]
    waived = [f for f in report.findings if (f.reason or "").startswith("waived")]
    assert not [f for f in waived if f.family in ("loading", "parsing") or f.rule_id.endswith("-valid")]


def test_today_comes_from_env_and_option(tmp_path):
    wf = _waivers(tmp_path / "w.yaml", [_w("unexpected-entry", "*", expires="2026-06-30")])
    valid = os.path.join(FIXTURES, "valid")
    late = _cli("check", valid, "--waivers", wf, "-f", "json", env={"ENDPOINTS_CHECKER_TODAY": "2026-07-01"})
    early = _cli("check", valid, "--waivers", wf, "-f", "json", "--today", "2026-06-30")
    stat = lambda p: [f["status"] for f in json.loads(p.stdout)["findings"] if f["rule_id"] == "waiver-expired"]  # noqa: E731
    assert stat(late) == ["FAIL"] and late.returncode == 1
    assert stat(early) == ["PASS"]


@pytest.mark.parametrize("text,needle", [
    ("waivers: [{rule: x, reason: r, approver: a}]\n", "expires"),
    ("waivers: [{rule: x, reason: r, approver: a, expires: tomorrow}]\n", "expires"),
    ("waivers: [{rule: x, reason: '', approver: a, expires: 2026-01-01}]\n", "reason"),
    ("waivers: [{rule: x, reason: r, approver: a, expires: 2026-01-01, extra: 1}]\n", "extra"),
    ("waivers: [\n", "waivers file"),
])
def test_bad_waivers_file_is_a_usage_error(tmp_path, text, needle):
    wf = tmp_path / "w.yaml"
    wf.write_text(text)
    p = _cli("check", os.path.join(FIXTURES, "valid"), "--waivers", str(wf))
    assert p.returncode == 2 and needle in p.stderr, p.stderr


def test_example_waivers_file_fits_its_schema():
    from jsonschema import Draft202012Validator

    from checker.load.reader import read_file

    with open(os.path.join(REPO, "schemas", "waivers.schema.json"), encoding="utf-8") as fh:
        schema = json.load(fh)
    path = os.path.join(REPO, "docs", "examples", "waivers.yaml")
    lf = read_file("waivers", path, path, os.path.dirname(path))
    errors = list(Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).iter_errors(lf.data))
    assert not errors, errors[0].message
    from checker.engine.waivers import load_waivers

    assert len(load_waivers(path).waivers) >= 1


# --- baselines ----------------------------------------------------------------------------------


def _pkg(tmp_path, name, patches):
    dest = tmp_path / name
    shutil.copytree(os.path.join(FIXTURES, "valid"), dest)
    for op in patches:
        apply_patch(str(dest), op)
    return str(dest)


def test_baseline_marks_new_unchanged_and_resolved(tmp_path):
    from checker.render import render

    before = _pkg(tmp_path, "sub", [
        {"write": {"file": "stray.txt", "text": "x"}},
        {"set": {"file": "{curve}/r8/point.yaml", "path": ["concurrency"], "value": "eight"}},
    ])
    base_file = tmp_path / "before.json"
    base_file.write_text(render("json", _run([before])))
    # fix the point.yaml, keep the stray file, add a new problem, and move every line of point.yaml r1
    shutil.rmtree(before)
    after = _pkg(tmp_path, "sub", [
        {"write": {"file": "stray.txt", "text": "x"}},
        {"mkdir": "__MACOSX"},
    ])
    with open(os.path.join(after, "results/H200-SXM-141GBx8_TRT/llama3_1-8b/r1/point.yaml"), "r+") as fh:
        body = fh.read()
        fh.seek(0)
        fh.write("# moved down\n# twice\n" + body)
    report = _run([after], baseline=str(base_file))
    doc = json.loads(render("json", report))
    assert_valid_report(doc)
    marks = {(f.rule_id, f.subject.entry): f.baseline for f in report.findings if f.status is Status.FAIL}
    assert marks == {("unexpected-entry", "stray.txt"): "unchanged", ("unexpected-entry", "__MACOSX"): "new"}
    before_fails = [f for f in json.loads(base_file.read_text())["findings"] if f["status"] == "FAIL"]
    gone = len(before_fails) - 1  # all but the stray file, which is still there
    assert gone >= 1
    assert doc["baseline"]["counts"] == {"new": 1, "unchanged": 1, "waived": 0, "resolved": gone}
    assert "point-config-valid" in {d["rule_id"] for d in doc["baseline"]["resolved"]}
    text = render("text", report, tty=False)
    assert f"resolved since the baseline ({gone})" in text
    assert f"baseline: 1 new, 1 unchanged, {gone} resolved" in text.splitlines()[-1]
    # an unchanged baseline: nothing new, and --fail-on-new passes although FAILs remain
    same = _run([after], baseline=doc, fail_on_new=True, fail_on="warn")
    assert same.sections["baseline"]["counts"] == {"new": 0, "unchanged": 2, "waived": 0, "resolved": 0}
    assert same.exit_code() == 0
    assert _run([after], baseline=str(base_file), fail_on_new=True, fail_on="warn").exit_code() == 1


def test_fingerprint_ignores_message_and_line(tmp_path):
    from checker.core.findings import Finding, Location, Severity, Subject
    from checker.core.fingerprint import dict_fingerprints, fingerprint, fingerprints

    f = Finding("r", Status.FAIL, Severity.FLAG, Subject("s", "sys", "m", "r8"), "one wording",
                location=Location("a.yaml", 3, 1, ("x", 0, "y")))
    d = f.as_dict()
    d["message"], d["location"]["line"] = "another wording", 99
    assert dict_fingerprints(d) == fingerprints(f) == (fingerprint(f),)
    # a finding listing several problems: one fingerprint each, the one at its data path the same as alone
    g = Finding("r", Status.FAIL, Severity.FLAG, Subject("s", "sys", "m", "r8"), "two problems",
                location=Location("a.yaml", 3, 1, ("x", 0, "y")), parts=("x/0/y", "x/1/y"))
    assert fingerprints(g)[0] == fingerprint(f) and len(set(fingerprints(g))) == 2
    assert dict_fingerprints(g.as_dict()) == fingerprints(g)


def test_fail_on_new_cli(tmp_path, cohort):
    base = tmp_path / "base.json"
    p = _cli("check", cohort, "-f", "json", "-o", str(base), "-j", "2")
    assert p.returncode == 1
    again = _cli("check", cohort, "--baseline", str(base), "--fail-on-new", "-j", "2", "-f", "json")
    assert again.returncode == 0, again.stdout[-500:]
    doc = json.loads(again.stdout)
    assert doc["baseline"]["counts"]["new"] == 0 and doc["baseline"]["counts"]["unchanged"] > 0
    assert _cli("check", cohort, "--fail-on-new").returncode == 2  # needs --baseline
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert _cli("check", cohort, "--baseline", str(bad)).returncode == 2
