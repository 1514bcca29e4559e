"""Run folders checked as the bundle they become (issue 18): the assembled view equals the bundle's own
check, every location is a file of a run folder, the real client's folders, serial == parallel,
--write-bundle, --assemble/--no-assemble."""
import filecmp
import hashlib
import io
import json
import os
import re
import shutil
import sys

import pytest
from click.testing import CliRunner

from casefixtures import FIXTURES, materialise
from checker.cli.main import main
from checker.engine.pipeline import run_check

sys.path.insert(0, FIXTURES)
import make_runs  # noqa: E402

BUILT_SYSTEM = "Acme_HGX_H200_8-GPU_(TensorRT-LLM)"  # results/<system>/ is system_name with underscores
BUNDLE_SYSTEM = "H200-SXM-141GBx8_TRT"
VIEW_ONLY = ("bundle", "run-folder", "preflight")


def _tree(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        out += sorted(os.path.relpath(os.path.join(dirpath, f), root) for f in files)
    return out


def _digest(root):
    h = hashlib.sha256()
    for rel in _tree(root):
        h.update(rel.encode())
        with open(os.path.join(root, rel), "rb") as fh:
            h.update(fh.read())
    return h.hexdigest()


@pytest.mark.parametrize("name,make", [("runs", lambda d: make_runs.unbundle(os.path.join(FIXTURES, "valid"), d)),
                                       ("plans", make_runs.plan_configs)])
def test_fixtures_match_their_generator(tmp_path, name, make):
    make(str(tmp_path / name))
    committed = os.path.join(FIXTURES, name)
    assert _tree(committed) == _tree(tmp_path / name), "run `python fixtures/make_runs.py`"
    for rel in _tree(committed):
        assert filecmp.cmp(os.path.join(committed, rel), tmp_path / name / rel, shallow=False), rel


def _package_view(report, sub_name, system):
    """The package-rule findings of one submission, keyed without the submission and system names."""
    out = {}
    for f in report.findings:
        if f.family in VIEW_ONLY or f.subject.kind == "run-folder":
            continue
        s = f.subject
        if s.submission not in ("", sub_name):
            continue
        msg = f.message.replace(system, "<system>")
        if f.rule_id in ("path-exists", "unknown-key", "draft-placeholder") and s.kind == "package":
            msg = ""  # they count the run folders too
        out[(f.rule_id, f.status.value, f.severity.value, s.system.replace(system, "<system>"), s.model, s.point,
             s.entry)] = msg
    return out


def _assert_same_view(bundle_report, runs_report, bundle_name, runs_name):
    a = _package_view(bundle_report, bundle_name, BUNDLE_SYSTEM)
    b = _package_view(runs_report, runs_name, BUILT_SYSTEM)
    assert sorted(set(a) - set(b)) == [] and sorted(set(b) - set(a)) == []
    changed = {k: (a[k], b[k]) for k in a if a[k] != b[k]}
    assert not changed, changed


@pytest.fixture(scope="module")
def runs_report():
    return run_check([os.path.join(FIXTURES, "runs")])


def test_assembled_view_equals_the_bundled_fixture(runs_report):
    valid = run_check([os.path.join(FIXTURES, "valid")])
    _assert_same_view(valid, runs_report, "valid", "runs")
    assert runs_report.sections["bundle"]["points"][0]["point"] == f"results/{BUILT_SYSTEM}/llama3_1-8b/r1"
    # only the audits a generated folder cannot pass (it has no events.jsonl): no package or bundle FAIL
    assert {f.rule_id for f in runs_report.findings if f.status.value == "FAIL"} == {"run-folder-files"}


FAILING = [
    {"remove": "src/trtllm/README.md"},
    {"set": {"file": "{curve}/r256/result_summary.json", "path": ["n_samples_completed"], "value": "many"}},
    {"set": {"file": "{curve}/r32/point.yaml", "path": ["seed_set"], "value": "B"}},
    {"set": {"file": "{curve}/r4/point.yaml", "path": ["region"], "value": "high_concurrency"}},
    {"remove": "{curve}/r1024/accuracy_results.json"},
]


def test_failing_runs_give_the_failing_bundles_findings_at_run_folder_files(tmp_path):
    bundle = materialise({"base": "valid", "name": "failing", "patch": FAILING}, str(tmp_path))
    runs = str(tmp_path / "failruns")
    make_runs.unbundle(bundle, runs)
    a, b = run_check([bundle]), run_check([runs])
    _assert_same_view(a, b, "failing", "failruns")
    fails = [f for f in b.findings if f.status.value == "FAIL" and f.family not in VIEW_ONLY]
    assert {f.rule_id for f in fails} >= {"src-readme", "result-file-valid", "seed-set-membership", "region-placement"}
    for f in fails:
        loc = f.location.file
        assert loc.startswith(runs), (f.rule_id, loc)
        assert "(bundle)" not in loc and "(bundle)" not in f.message
        first = os.path.relpath(loc, runs).split(os.sep)[0]
        assert os.path.isdir(os.path.join(runs, first)), (f.rule_id, loc)  # a run folder, or the runs dir itself
    seed = next(f for f in fails if f.rule_id == "seed-set-membership")
    assert seed.location.file == os.path.join(runs, "c32", "point.yaml") and seed.location.line == 15


def test_real_run_folders_with_point_yaml_added(tmp_path):
    runs = make_runs.real_set(str(tmp_path / "real"))
    report = run_check([str(tmp_path / "real")], audit_jobs=1)
    by = {(f.rule_id, f.subject.point): f for f in report.findings}
    refused = by[("bundle-run-files", "echo_accuracy_only")]
    assert refused.status.value == "FAIL" and "duration_ns is None" in refused.message
    assert refused.location.file == os.path.join(runs[1], "performance", "result_summary.json")
    kind = by[("bundle-run-kind", "var_poisson_perf")]
    assert kind.status.value == "PASS" and "datasets[0].type 'performance'" in kind.message
    # the events audit of every folder runs in the same report
    for name in make_runs.REAL:
        assert by[("run-folder-events-log", name)].status.value == "PASS"
    assert by[("run-folder-load-pattern", "var_poisson_perf")].status.value == "FAIL"
    # package rules see the curve the runs make: two points, located in the run folders
    points = {f.subject.point for f in report.findings if f.subject.model} - {""}
    assert points == {"r8", "r40"}
    pc = next(f for f in report.findings if f.rule_id == "point-count" and f.status.value == "FAIL")
    assert pc.location.file == str(tmp_path / "real")


def _render_json(report):
    from checker.render import render

    return re.sub(r'"generated_at": "[^"]*"', "", render("json", report, tty=False))


def test_serial_and_parallel_reports_are_byte_identical(tmp_path):
    make_runs.real_set(str(tmp_path / "real"))
    serial = run_check([str(tmp_path / "real")], audit_jobs=1, jobs=1)
    parallel = run_check([str(tmp_path / "real")], audit_jobs=2, jobs=2)
    assert _render_json(serial) == _render_json(parallel)


def test_progress_bar_for_the_audits_on_a_tty(tmp_path, monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    make_runs.real_set(str(tmp_path / "real"))
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    run_check([str(tmp_path / "real")], audit_jobs=1, progress=True)
    assert "auditing run-folder logs [" in err.getvalue()


def test_write_bundle_never_touches_the_inputs_and_checks_clean(tmp_path):
    runs = str(tmp_path / "runs")
    shutil.copytree(os.path.join(FIXTURES, "runs"), runs)
    before = _digest(runs)
    out = str(tmp_path / "bundle")
    res = CliRunner().invoke(main, ["check", runs, "--write-bundle", out, "-q"])
    assert res.exit_code == 0, res.output  # no events.jsonl in the generated folders: run-folder-files only warns
    assert _digest(runs) == before
    assert sorted(os.listdir(out)) == ["docs", "results", "src"]
    point = os.path.join(out, "results", BUILT_SYSTEM, "llama3_1-8b", "r8")
    assert sorted(os.listdir(point)) == ["config.yaml", "point.yaml", "result_summary.json", "system_desc.json"]
    with open(os.path.join(point, "point.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    assert text.endswith('shared_docs: "docs"\nshared_src: "src/trtllm"\n')  # injected, appended
    with open(os.path.join(out, "src", "trtllm", "README.md"), encoding="utf-8") as fh:
        assert "TensorRT-LLM" in fh.read()  # full contents, not the check's placeholders
    written = run_check([out])
    assert [f for f in written.findings if f.status.value == "FAIL"] == []
    for bad in (runs, os.path.join(runs, "c1", "x"), str(tmp_path)):
        res = CliRunner().invoke(main, ["check", runs, "--write-bundle", bad])
        assert res.exit_code == 2 and "overlaps the input" in res.output
    res = CliRunner().invoke(main, ["check", runs, "--write-bundle", out])
    assert res.exit_code == 2 and "not an empty directory" in res.output


def test_assemble_flags(tmp_path):
    runs = os.path.join(FIXTURES, "runs")
    plain = run_check([runs], assemble=False)
    assert "bundle" not in plain.sections and not plain.package.submissions
    assert not [f for f in plain.findings if f.family == "bundle"]
    one = run_check([os.path.join(runs, "c1")], assemble=True)
    assert one.sections["bundle"]["points"][0]["performance"] == [os.path.join(runs, "c1")]
    res = CliRunner().invoke(main, ["check", runs, "--assemble", "--point", os.path.join(runs, "c1", "point.yaml")])
    assert res.exit_code == 2 and "contradict" in res.output


def test_client_written_accuracy_only_folders_are_refused(tmp_path):
    runs = str(tmp_path / "split")
    make_runs.unbundle(os.path.join(FIXTURES, "valid"), runs, split=(4,))
    report = run_check([runs])
    refused = next(f for f in report.findings if f.rule_id == "bundle-run-files" and f.subject.point == "c4-accuracy")
    assert refused.status.value == "FAIL" and "duration_ns is None" in refused.message
    cov = next(f for f in report.findings if f.rule_id == "accuracy-coverage")
    assert cov.status.value == "FAIL" and cov.location.file == runs


def test_hostile_entries_in_a_run_folder(tmp_path):
    runs = str(tmp_path / "runs")
    shutil.copytree(os.path.join(FIXTURES, "runs"), runs)
    os.mkfifo(os.path.join(runs, "c1", "src", "trtllm", "pipe"))
    os.symlink("/etc/passwd", os.path.join(runs, "c8", "system_power.json"))
    report = run_check([runs])  # never blocks on the FIFO, never reads /etc/passwd
    by = {(f.rule_id, f.subject.point): f for f in report.findings}
    src = next(f for f in report.findings if f.rule_id == "bundle-sources")
    assert src.status.value == "FAIL" and src.severity.value == "warn" and "pipe" in src.message
    refused = by[("bundle-run-files", "c8")]
    assert refused.status.value == "FAIL" and "system_power.json cannot be read" in refused.message


def test_preflight_from_the_command_line(tmp_path):
    plans = os.path.join(FIXTURES, "plans")
    res = CliRunner().invoke(main, ["check", plans, "--max-concurrency", "1024", "--seed-set", "A", "-f", "json"])
    assert res.exit_code == 0, res.output
    doc = json.loads(res.output)
    pre = [f for f in doc["findings"] if f["family"] == "preflight"]
    assert {f["subject"]["point"] for f in pre} >= {"point-c64.yaml", "point-offline.yaml"}
    assert all(f["status"] != "FAIL" for f in pre)
    one = os.path.join(plans, "point-c64.yaml")
    mixed = run_check([one, os.path.join(FIXTURES, "runs", "c1")])
    refused = next(f for f in mixed.findings if f.rule_id == "path-exists")
    assert refused.status.value == "FAIL" and "pre-flight the configs in a check of their own" in refused.message
