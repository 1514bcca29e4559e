"""Baselines per problem (issue 36): a waived finding stays waived, never resolved; a new problem inside a
finding that lists several (a second wrong seed at a point that had one) is new and fails --fail-on-new; the
committed baseline file is small and reads back like a whole JSON report."""
import json
import os
import shutil
import subprocess
import sys

import pytest
import yaml

from casefixtures import FIXTURES, apply_patch
from conftest import assert_valid_report

from checker.core.findings import Status

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

TODAY = "2026-11-29"
R64 = "results/H200-SXM-141GBx8_TRT/llama3_1-8b/r64/point.yaml"
SEED = ["runtime_settings", "runtime"]
#: three defects over four submissions: a wrong seed, a stray file, a point without its model_equivalence block
DEFECTS = {
    "acme/sub-1": [],
    "bravo/sub-2": [{"set": {"file": R64, "path": SEED + ["model_seed"], "value": 5}}],
    "charlie/sub-3": [{"write": {"file": "notes.txt", "text": "left over\n"}}],
    "delta/sub-4": [{"delete": {"file": R64, "path": ["model_equivalence"]}}],
}


def _build(root, defects):
    for label, ops in defects.items():
        dest = os.path.join(root, label)
        shutil.copytree(os.path.join(FIXTURES, "valid"), dest, symlinks=True)
        for op in ops:
            apply_patch(dest, op)
    return str(root)


def _run(paths, **kw):
    from checker.engine.pipeline import run_check

    return run_check(paths, today=TODAY, **kw)


def _baseline_file(report, path):
    from checker.render import render

    path.write_text(render("baseline", report))
    return str(path)


@pytest.fixture(scope="module")
def cohort(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("bp") / "cohort", DEFECTS)


def _waivers(path):
    entries = [{"rule": "unexpected-entry", "subject": "charlie/*", "reason": "notes kept for the reviewers",
                "approver": "R. Viewer", "expires": "2026-12-31"},
               {"rule": "me-disclosure-present", "subject": "delta/*", "reason": "disclosed in the README",
                "approver": "R. Viewer", "expires": "2026-12-31"}]
    path.write_text(yaml.safe_dump({"version": 1, "waivers": entries}, sort_keys=False))
    return str(path)


@pytest.mark.parametrize("kind", ["file", "report"])
def test_waived_stays_waived_never_resolved(cohort, tmp_path, kind):
    from checker.render import render

    before = _run([cohort], jobs=1)
    base = _baseline_file(before, tmp_path / "base.json") if kind == "file" else str(tmp_path / "base.json")
    if kind == "report":
        (tmp_path / "base.json").write_text(render("json", before))
    report = _run([cohort], jobs=1, waivers=_waivers(tmp_path / "w.yaml"), baseline=base)
    doc = json.loads(render("json", report))
    assert_valid_report(doc)
    counts = doc["baseline"]["counts"]
    assert counts["resolved"] == 0 and doc["baseline"]["resolved"] == [], doc["baseline"]["resolved"]
    assert counts["waived"] == 2  # the stray file and the point without its block: still in the files
    waived = [f for f in report.findings if (f.reason or "").startswith("waived")]
    assert sorted(f.rule_id for f in waived) == ["me-disclosure-present", "unexpected-entry"]
    assert all(f.baseline == "unchanged" for f in waived)
    text = render("text", report, tty=False)
    assert "resolved since the baseline" not in text
    assert "2 waived, 0 resolved" in text.splitlines()[-1]
    md = render("markdown", report)
    assert "2 waived, 0 resolved" in md


def test_a_second_wrong_seed_at_a_point_with_one_is_new(cohort, tmp_path):
    from checker.render import render

    base = _baseline_file(_run([cohort], jobs=1), tmp_path / "base.json")
    after = _build(tmp_path / "after", {**DEFECTS, "bravo/sub-2": DEFECTS["bravo/sub-2"] + [
        {"set": {"file": R64, "path": SEED + ["sample_index_rng_seed"], "value": 7}}]})
    report = _run([after], jobs=1, baseline=base, fail_on_new=True)
    seeds = [f for f in report.findings if f.rule_id == "seed-runtime-match" and f.status is Status.FAIL]
    assert len(seeds) == 1 and seeds[0].parts == ("runtime_settings/runtime/sample_index_rng_seed",
                                                  "runtime_settings/runtime/model_seed")
    assert seeds[0].baseline == "new"
    assert seeds[0].extra["baseline"] == {"new": ["runtime_settings/runtime/sample_index_rng_seed"],
                                          "unchanged": ["runtime_settings/runtime/model_seed"]}
    # the new seed is also a new difference from config.yaml, which records the old value: two new problems
    new = sorted((f.rule_id, f.parts) for f in report.findings if f.baseline == "new")
    assert new == [("config-seeds-match", ("runtime_settings/runtime/sample_index_rng_seed",)), (seeds[0].rule_id, seeds[0].parts)]
    assert report.sections["baseline"]["counts"]["new"] == 2
    assert report.exit_code() == 1 and seeds[0] in report.failing()
    quiet = render("text", report, tty=False, quiet=True)
    line = [ln for ln in quiet.splitlines() if "seed-runtime-match" in ln]
    assert len(line) == 1 and "(new: runtime_settings/runtime/sample_index_rng_seed (the other 1 unchanged))" in line[0]
    # the same cohort against itself: nothing new, and --fail-on-new passes with the problems still there
    same = _run([after], jobs=1, baseline=_baseline_file(report, tmp_path / "again.json"), fail_on_new=True)
    assert same.sections["baseline"]["counts"]["new"] == 0 and same.exit_code() == 0


def test_a_point_added_to_a_grouped_finding_is_new(cohort, tmp_path):
    """me-disclosure-present lists every point of a curve without the block in one finding: one more point is a
    new problem, although the finding (rule, curve) was in the baseline."""
    base = _baseline_file(_run([cohort], jobs=1), tmp_path / "base.json")
    r8 = R64.replace("r64", "r8")
    after = _build(tmp_path / "after", {**DEFECTS, "delta/sub-4": DEFECTS["delta/sub-4"] + [
        {"delete": {"file": r8, "path": ["model_equivalence"]}}]})
    report = _run([after], jobs=1, baseline=base, fail_on_new=True, fail_on="warn")
    me = [f for f in report.findings if f.rule_id == "me-disclosure-present" and f.status is Status.FAIL]
    assert [f.parts for f in me] == [("r8", "r64")] and me[0].baseline == "new"
    assert report.sections["baseline"]["counts"] == {"new": 1, "unchanged": 3, "waived": 0, "resolved": 0}


def test_a_fixed_part_is_resolved_by_name(cohort, tmp_path):
    two = _build(tmp_path / "two", {**DEFECTS, "bravo/sub-2": DEFECTS["bravo/sub-2"] + [
        {"set": {"file": R64, "path": SEED + ["sample_index_rng_seed"], "value": 7}}]})
    from checker.render import render

    (tmp_path / "base.json").write_text(render("json", _run([two], jobs=1)))
    report = _run([cohort], jobs=1, baseline=str(tmp_path / "base.json"))
    resolved = report.sections["baseline"]["resolved"]
    assert [(d["rule_id"], d["part"]) for d in resolved] == [
        ("config-seeds-match", "runtime_settings/runtime/sample_index_rng_seed"),
        ("seed-runtime-match", "runtime_settings/runtime/sample_index_rng_seed")]
    assert {d["subject"]["point"] for d in resolved} == {"r64"}
    seeds = [f for f in report.findings if f.rule_id == "seed-runtime-match" and f.status is Status.FAIL]
    assert [f.baseline for f in seeds] == ["unchanged"]


def test_baseline_file_is_deterministic_and_reads_back(cohort, tmp_path):
    from checker.engine.baseline import load_baseline

    one = _baseline_file(_run([cohort], jobs=1), tmp_path / "one.json")
    two = _baseline_file(_run([cohort], jobs=2), tmp_path / "two.json")
    text = open(one, encoding="utf-8").read()
    assert text == open(two, encoding="utf-8").read()
    doc = json.loads(text)
    assert doc["endpoints-checker-baseline"] == 1 and doc["problems"] == len(load_baseline(one).known)
    assert doc["submissions"]["bravo/sub-2"]["seed-runtime-match"] and "generated_at" not in text
    from jsonschema import Draft202012Validator

    from conftest import REPO

    with open(os.path.join(REPO, "schemas", "baseline.schema.json"), encoding="utf-8") as fh:
        assert not list(Draft202012Validator(json.load(fh)).iter_errors(doc))


@pytest.mark.parametrize("doc,needle", [
    ({"endpoints-checker-baseline": 2, "submissions": {}}, "this version reads 1"),
    ({"endpoints-checker-baseline": 1, "submissions": []}, "baseline.json: submissions: "),
    ({"endpoints-checker-baseline": 1, "submissions": {"a": {"r": ["xyz"]}}}, "submissions.a.r.0: "),
    ({"endpoints-checker-baseline": 1, "submissions": {"a": ["r"]}}, "submissions.a: "),
    ({"endpoints-checker-baseline": 1, "submissions": {}, "extra": 1}, "extra: "),
])
def test_a_bad_baseline_file_is_a_usage_error(tmp_path, doc, needle):
    bad = tmp_path / "baseline.json"
    bad.write_text(json.dumps(doc))
    p = subprocess.run([sys.executable, "-m", "checker", "check", os.path.join(FIXTURES, "valid"), "--baseline",
                        str(bad)], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and needle in p.stderr, p.stderr


def test_write_baseline_cli_then_fail_on_new(cohort, tmp_path):
    base = tmp_path / "endpoints-checker-baseline.json"
    run = lambda *a: subprocess.run([sys.executable, "-m", "checker", "check", cohort, "-j", "2", *a],  # noqa: E731
                                    capture_output=True, text=True, timeout=300)
    first = run("--write-baseline", str(base), "-q")
    assert first.returncode == 1 and f"wrote {base} (baseline)" in first.stderr, first.stderr
    assert "error" in first.stdout  # the terminal report is still printed
    again = run("--baseline", str(base), "--fail-on-new", "-q")
    assert again.returncode == 0, again.stdout[-800:]
    assert "baseline: 0 new" in again.stdout.splitlines()[-1]


def test_a_20x8_cohort_baseline_file_is_under_100_kb(tmp_path):
    """Every point of twenty submissions carries five problems (three wrong seeds, an unknown key, a value
    written as a float, no model_equivalence block): the committed file stays small."""
    from checker.render import render

    points = ("r1", "r4", "r8", "r32", "r64", "r256", "r1024", "r13368")
    ops = []
    for p in points:
        f = R64.replace("r64", p)
        ops += [{"set": {"file": f, "path": SEED + [k], "value": i + 1}}
                for i, k in enumerate(("scheduler_rng_seed", "sample_index_rng_seed", "model_seed"))]
        ops += [{"set": {"file": f, "path": ["submitter_comment"], "value": "x"}},
                {"set": {"file": f, "path": ["concurrency"], "value": float(p[1:])}},
                {"delete": {"file": f, "path": ["model_equivalence"]}}]
    root = _build(tmp_path / "c20", {f"org{i // 4}/sub-{i:02d}": ops for i in range(20)})
    report = _run([root], jobs=2)
    text = render("baseline", report)
    doc = json.loads(text)
    assert doc["problems"] >= 20 * 8 * 5
    assert len(text.encode("utf-8")) < 100 * 1024, len(text)
    assert len(doc["submissions"]) == 20


def test_every_output_says_the_baseline_state_and_sarif_carries_the_waivers(cohort, tmp_path):
    """SARIF validates against the 2.1.0 schema with baselineState on every result, helpUri on every rule and the
    waiver's reason, approver and expiry on an accepted suppression; the -q text, GitHub annotations, Markdown
    and HTML say new/unchanged/waived too."""
    from jsonschema import Draft202012Validator

    from checker.render import render
    from conftest import REPO

    base = _baseline_file(_run([cohort], jobs=1), tmp_path / "base.json")
    after = _build(tmp_path / "after", {**DEFECTS, "acme/sub-1": [{"write": {"file": "stray.txt", "text": "x"}}]})
    report = _run([after], jobs=1, waivers=_waivers(tmp_path / "w.yaml"), baseline=base)
    doc = json.loads(render("sarif", report))
    with open(os.path.join(REPO, "schemas", "sarif-2.1.0.schema.json"), encoding="utf-8") as fh:
        errors = list(Draft202012Validator(json.load(fh)).iter_errors(doc))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    run = doc["runs"][0]
    assert all(r.get("helpUri") for r in run["tool"]["driver"]["rules"])
    states = {(r["ruleId"], r["properties"]["subject"]["submission"]): r["baselineState"] for r in run["results"]}
    assert states[("unexpected-entry", "acme/sub-1")] == "new"
    assert states[("seed-runtime-match", "bravo/sub-2")] == "unchanged"
    sup = {r["ruleId"]: r["suppressions"] for r in run["results"] if r.get("suppressions")}
    assert sup["unexpected-entry"] == [{"kind": "external", "status": "accepted",
                                        "justification": "notes kept for the reviewers",
                                        "properties": {"approver": "R. Viewer", "expires": "2026-12-31", "waiver": 1,
                                                       "file": str(tmp_path / "w.yaml")}}]
    assert sup["me-disclosure-present"][0]["justification"] == "disclosed in the README"
    assert run["properties"]["baseline"]["counts"] == {"new": 1, "unchanged": 1, "waived": 2, "resolved": 0}
    quiet = render("text", report, tty=False, quiet=True)
    assert any("unexpected-entry (new)" in ln for ln in quiet.splitlines())
    assert any("seed-runtime-match" in ln and "(unchanged)" in ln for ln in quiet.splitlines())
    gh = render("github", report)
    assert any("unexpected-entry" in ln and "[new]" in ln for ln in gh.splitlines())
    md = render("markdown", report)
    assert "| Baseline |" in md and "notes kept for the reviewers" in md and "### Waivers (2 in force of 2" in md
    html = render("html", report)
    assert 'id="waivers"' in html and 'id="baseline"' in html and "baseline: waived" in html
