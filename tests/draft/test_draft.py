"""``endpoints-checker draft``: a point.yaml from what a run folder proves, its placeholders, and the check after.

Every run folder of fixtures/real-runs is drafted (with a system_desc.json beside it, as a submitter
adds one before drafting), its placeholders are filled by ``draftfill`` as a person would, and the
folders are checked as the bundle they become: no placeholder remains, every field the draft wrote
agrees with the run, and each finding left at a point.yaml is a fact about what ran (short echo runs
with the client's default seeds, a poisson load). The drafts of fixtures/runs, filled from the
points' own answers, are checked as the valid curve: nothing new but what a draft cannot know.
"""
import json
import os
import shutil
import sys

import pytest
import yaml

import draftfill
from casefixtures import FIXTURES, REAL_RUNS
from clirun import cli

sys.path.insert(0, FIXTURES)
import make_valid as mv  # noqa: E402

REAL = {"var_concurrency_allchunks": 8, "echo_accuracy_only": 8, "var_poisson_perf": 40}
#: rule -> why a finding of it at a filled draft is about what ran, not about the draft
WHAT_RAN = {
    "load-pattern": "the run used a poisson load",
    "seed-runtime-match": "the run used the client's default seeds 42, not the bound set's",
    "me-fixed-sampling": "the run sent max_new_tokens 256",
    "steady-state-basis": "the run is shorter than one dataset pass",
    "warmup-salt": "the run's warmup was salted",
}


def _policy():
    from checker.engine.policy import load_policy

    return load_policy(None, {})


def _real(tmp_path) -> str:
    runs = tmp_path / "runs"
    for name, c in REAL.items():
        shutil.copytree(os.path.join(REAL_RUNS, name), runs / name)
        spec = ("low_latency", "none", 4.0, 40.0, False)
        (runs / name / "system_desc.json").write_text(json.dumps(mv.system_desc(c, spec, 1.0), indent=2))
    src = runs / "var_concurrency_allchunks"
    (src / "src" / "vllm").mkdir(parents=True)
    (src / "src" / "vllm" / "README.md").write_text("# vLLM\n")
    (src / "documentation").mkdir()
    (src / "documentation" / "software_disclosure.md").write_text("# Software\n")
    return str(runs)


def _draft(runs: str, **kw):
    from checker.draft.run import run

    return run([os.path.join(runs, n) for n in sorted(os.listdir(runs))], _policy(), **kw)


def _fill(runs: str) -> None:
    for name in REAL:
        path = os.path.join(runs, name, "point.yaml")
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        answers = {"concurrency": str(REAL[name])} if name == "var_poisson_perf" else {}
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(draftfill.fill(text, answers))


def test_every_real_run_folder_drafts_a_point_yaml_that_passes_once_filled(tmp_path):
    from checker.engine.pipeline import run_check

    runs = _real(tmp_path)
    results = _draft(runs, dataset_size=13368)
    assert [r.written for r in results] == [True] * 3 and all(r.fills > 5 for r in results)
    unfilled = run_check([runs])
    fails = {f.subject.point for f in unfilled.findings if f.rule_id == "draft-placeholder" and f.status.value == "FAIL"}
    assert set(REAL) <= fails, "every unfilled draft is reported"

    _fill(runs)
    report = run_check([runs])
    at_point = [f for f in report.findings if f.status.value == "FAIL" and f.location is not None
                and f.location.file.endswith("point.yaml")]
    assert {f.rule_id for f in at_point} <= set(WHAT_RAN), [(f.rule_id, f.message) for f in at_point]
    for f in at_point:
        if f.rule_id == "seed-runtime-match":
            assert "needs a re-run" in f.fix and "the run used 42" in f.fix and not f.edits
        if f.rule_id == "load-pattern":
            assert f.location.file.endswith("var_poisson_perf/point.yaml") and "poisson" in f.message
    by = {(f.rule_id, os.path.basename(os.path.dirname(f.location.file))) for f in at_point}
    assert ("load-pattern", "var_poisson_perf") in by  # the draft wrote what ran; the check reports the pattern
    passed = {f.rule_id for f in report.findings if f.status.value == "PASS"}
    for rid in ("draft-placeholder", "point-config-valid", "point-disclosure-complete", "point-config-agreement",
                "warmup-present", "region-declared", "model-name-valid", "unknown-key", "dataset-matches-model"):
        assert rid in passed, rid
    assert not [f for f in report.findings if f.rule_id in ("draft-placeholder", "point-config-agreement",
                                                            "unknown-key", "value-spelling")
                and f.status.value == "FAIL"]


def test_the_poisson_draft_writes_what_ran(tmp_path):
    runs = _real(tmp_path)
    _draft(runs)
    with open(os.path.join(runs, "var_poisson_perf", "point.yaml"), encoding="utf-8") as fh:
        text = fh.read()
    data = yaml.safe_load(text)
    assert data["runtime_settings"]["load_pattern"] == "poisson"
    assert "concurrency" not in data and "# concurrency: <FILL: load pattern 'poisson' has no fixed concurrency" in text
    assert data["warmup"]["requests_issued"] == 50 and data["warmup"]["requests_completed"] == 50
    assert data["runtime_settings"]["warmup"]["salt"] is True
    assert "salted" in data["warmup"]["data_source"]


def test_drafts_of_the_valid_runs_check_as_the_valid_curve(tmp_path):
    """fixtures/runs without their point.yaml: drafted with c64's as --template, the rest filled from each point's
    own answers; the assembled check equals the original's but for what a draft cannot know."""
    from checker.draft.render import scalar
    from checker.engine.pipeline import run_check

    runs = tmp_path / "runs"
    shutil.copytree(os.path.join(FIXTURES, "runs"), runs)
    original = {}
    for name in sorted(os.listdir(runs)):
        with open(runs / name / "point.yaml", encoding="utf-8") as fh:
            original[name] = yaml.safe_load(fh)
        os.remove(runs / name / "point.yaml")
    results = _draft(str(runs), template=original["c64"])
    assert all(r.written for r in results)

    def answers(d, out):
        for k, v in d.items():
            answers(v, out) if isinstance(v, dict) else out.setdefault(k, scalar(v))
        return out

    for name in original:
        path = runs / name / "point.yaml"
        path.write_text(draftfill.fill(path.read_text(), answers(original[name], {})))
    before = run_check([os.path.join(FIXTURES, "runs")])
    after = run_check([str(runs)])

    def fails(rep):
        return {(f.rule_id, f.subject.point) for f in rep.findings if f.status.value == "FAIL"}
    new = {rid for rid, _ in fails(after) - fails(before)}
    # no steady-state window without the detector; an enabled, unsalted warmup the client draws from the dataset
    assert new <= {"steady-state-basis", "warmup-data-source"}, new
    assert not {rid for rid, _ in fails(before) - fails(after)}


@pytest.mark.slow
def test_draft_never_overwrites_unless_forced(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(os.path.join(REAL_RUNS, "var_concurrency_allchunks"), run)
    (run / "point.yaml").write_text("concurrency: 8\n")
    proc = cli("draft", str(run))
    assert proc.returncode == 1 and "exists: give --force" in proc.stderr
    assert (run / "point.yaml").read_text() == "concurrency: 8\n"
    proc = cli("draft", str(run), "--force", "--max-concurrency", "1024")
    assert proc.returncode == 0, proc.stderr
    assert "wrote" in proc.stdout and "to fill in" in proc.stdout and "--fix" in proc.stdout
    data = yaml.safe_load((run / "point.yaml").read_text())
    assert data["concurrency"] == 8 and data["region"] == "low_latency" and data["max_supported_concurrency"] == 1024
    assert not [p for p in os.listdir(run) if p.endswith(".draft-tmp")]


def test_draft_to_an_output_directory_leaves_the_run_folders_alone(tmp_path):
    runs = _real(tmp_path)
    before = sorted(os.listdir(os.path.join(runs, "var_poisson_perf")))
    proc = cli("draft", os.path.join(runs, "var_poisson_perf"), os.path.join(runs, "var_concurrency_allchunks"),
               "-o", str(tmp_path / "drafts"))
    assert proc.returncode == 0, proc.stderr
    assert sorted(os.listdir(os.path.join(runs, "var_poisson_perf"))) == before
    assert sorted(os.listdir(tmp_path / "drafts")) == ["var_concurrency_allchunks", "var_poisson_perf"]
    assert (tmp_path / "drafts" / "var_poisson_perf" / "point.yaml").is_file()


def test_a_draft_never_writes_through_a_symlink(tmp_path):
    run = tmp_path / "run"
    shutil.copytree(os.path.join(REAL_RUNS, "var_concurrency_allchunks"), run)
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    os.symlink(victim, run / "point.yaml")
    proc = cli("draft", str(run), "--force")
    assert proc.returncode == 1 and "symlink" in proc.stderr
    assert victim.read_text() == "keep me\n"


@pytest.mark.parametrize("args, says", [
    (["--template", "missing.yaml"], "does not exist"),
    (["--max-concurrency", "0"], "0"),
])
def test_draft_usage_errors(tmp_path, args, says):
    proc = cli("draft", os.path.join(REAL_RUNS, "var_poisson_perf"), "-o", str(tmp_path / "o"), *args,
               cwd=str(tmp_path))
    assert proc.returncode == 2 and says in proc.stderr


def test_a_folder_that_is_no_run_folder_is_named(tmp_path):
    (tmp_path / "empty").mkdir()
    proc = cli("draft", str(tmp_path / "empty"))
    assert proc.returncode == 1 and "not a run folder" in proc.stderr
