"""The GitHub Action, its steps run as a runner runs them (tests/support/actionrun.py): inputs as INPUT_*
variables, the configuration file read, reports outside the checked tree, the job's Python left alone,
its own virtual environment created once and then taken from the cache."""
from __future__ import annotations

import json
import os
import sys

import pytest

from actionrun import REPO, action, cached_environment, run_action
from configrepo import EXPECTED_FAILS, fails, make_repo


@pytest.fixture
def workspace(tmp_path):
    ws = make_repo(tmp_path / "workspace")
    temp = tmp_path / "runner-temp"
    temp.mkdir()
    return ws, str(temp)


def _outputs_listed(ws) -> list[str]:
    return sorted(os.listdir(ws))


def test_the_action_reads_the_repositorys_file_and_writes_outside_the_tree(workspace):
    ws, temp = workspace
    before = _outputs_listed(ws)
    cached_environment(temp)
    run = run_action({"formats": "github,sarif,json,junit"}, ws, temp)
    assert run.rc == 1, run.stderr
    assert run.outputs["exit-code"] == "1"
    assert run.outputs["output-dir"] == os.path.join(temp, "endpoints-checker-reports")
    for fmt in ("sarif", "json", "junit"):
        assert os.path.dirname(run.outputs[fmt]) == run.outputs["output-dir"] and os.path.isfile(run.outputs[fmt])
    doc = json.load(open(run.outputs["json"]))
    assert fails(doc["findings"]) == EXPECTED_FAILS and doc["fail_on"] == "warn"
    assert _outputs_listed(ws) == before  # nothing written into the checked tree
    assert "::warning" in run.stdout or "::notice" in run.stdout  # the annotation of the remaining warning
    assert run.logs["install"].startswith("endpoints-checker: using the cached environment")


def test_an_input_overrides_the_file_and_every_input_is_a_key(workspace):
    ws, temp = workspace
    cached_environment(temp)
    run = run_action({"formats": "json", "fail-on": "flag", "ignore": "src-readme\nempty-file"}, ws, temp)
    doc = json.load(open(run.outputs["json"]))
    assert run.rc == 0 and doc["fail_on"] == "flag" and fails(doc["findings"]) == set()
    run = run_action({"formats": "json", "isolated": "true"}, ws, temp)
    assert run.rc == 1 and ("src-readme", "") in fails(json.load(open(run.outputs["json"]))["findings"])


def test_every_input_is_a_key_or_the_actions_own_and_reaches_the_check():
    from checker.cli.action import OPTIONS, OWN, env_name
    from checker.cli.settings import check_settings

    spec = action()
    keys = set(check_settings().keys)
    assert set(spec["inputs"]) <= keys | set(OWN) | set(OPTIONS), set(spec["inputs"]) - keys - set(OWN) - set(OPTIONS)
    check = next(s for s in spec["runs"]["steps"] if s.get("id") == "check")
    for name in set(spec["inputs"]) - {"version", "python-version"}:
        assert check["env"][env_name(name)] == "${{ inputs.%s }}" % name, name
    missing = keys - set(spec["inputs"]) - {"format", "output"}  # the reports are the action's formats/output-dir
    assert not missing, ("a check option with no input in action.yml: add `<key>:` under inputs and "
                         "`INPUT_<KEY>: ${{ inputs.<key> }}` to the check step's env for each of " + str(sorted(missing)))


def test_inputs_become_options_as_their_types_want():
    from checker.cli.action import ActionInputError, option_args

    args = option_args({"INPUT_SELECT": "seeds\npower, curve", "INPUT_FAIL_ON_NEW": "true", "INPUT_NO_EVENTS": "false",
                        "INPUT_ASSEMBLE": "false", "INPUT_JOBS": "2", "INPUT_PER_PATH_IGNORES": "r8/*:seeds,power",
                        "INPUT_CONFIG": "ci/checker.toml", "INPUT_ISOLATED": ""})
    assert args == ["--select", "seeds", "--select", "power, curve", "--per-path-ignores", "r8/*:seeds,power",
                    "--no-assemble", "--jobs", "2", "--fail-on-new", "--config", "ci/checker.toml"]
    with pytest.raises(ActionInputError, match="input quiet: 'maybe' is not true or false"):
        option_args({"INPUT_QUIET": "maybe"})


def test_an_output_dir_inside_the_checked_tree_is_left_out(workspace):
    ws, temp = workspace
    cached_environment(temp)
    for _ in range(2):  # the second run finds the first run's reports in the tree
        run = run_action({"formats": "json", "output-dir": "reports"}, ws, temp)
        doc = json.load(open(run.outputs["json"]))
        assert run.outputs["json"] == os.path.join(ws, "reports", "endpoints-checker.json")
        assert fails(doc["findings"]) == EXPECTED_FAILS


def test_a_bad_input_is_a_workflow_error(workspace):
    ws, temp = workspace
    cached_environment(temp)
    run = run_action({"formats": "xml"}, ws, temp)
    assert run.rc == 2 and "::error title=endpoints-checker::unknown format 'xml'" in run.stdout
    run = run_action({"formats": "json", "fail-on": "warm"}, ws, temp)
    assert run.rc == 2 and "'warm' is not one of" in run.stderr


def test_the_cache_key_follows_the_sources_and_the_requirement(tmp_path):
    from checker.cli.action_setup import cache_key

    assert cache_key(REPO) == cache_key(REPO)
    assert cache_key(REPO, "endpoints-checker==0.1.0") != cache_key(REPO)
    copy = tmp_path / "copy"
    import shutil

    for name in ("checker", "rules"):
        shutil.copytree(os.path.join(REPO, name), copy / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md"):
        shutil.copy(os.path.join(REPO, name), copy / name)
    assert cache_key(str(copy)) == cache_key(REPO)
    (copy / "checker" / "api.py").write_text((copy / "checker" / "api.py").read_text() + "\n")
    assert cache_key(str(copy)) != cache_key(REPO)


def test_a_cache_miss_installs_into_a_new_environment_then_reuses_it(workspace):
    """The install step for real: a virtual environment made by setup-python's interpreter, the action's
    checkout pip-installed into it (its dependencies taken from this test environment, so no index is
    needed for them), the check run by it; the next run finds it and installs nothing."""
    ws, temp = workspace
    site = next(p for p in sys.path if p.endswith("site-packages") and os.path.isdir(os.path.join(p, "click")))
    env = dict(os.environ, PIP_NO_DEPS="1", PYTHONPATH=site, PIP_DISABLE_PIP_VERSION_CHECK="1")
    try:
        run = run_action({"formats": "json"}, ws, temp, env=env)
    except AssertionError as exc:
        if "No matching distribution found for setuptools" in str(exc):
            pytest.skip("no package index for the build's setuptools on this machine")
        raise
    venv = os.path.join(temp, "endpoints-checker-venv")
    assert run.steps["venv"]["python"] == os.path.join(venv, "bin", "python")
    assert run.rc == 1 and fails(json.load(open(run.outputs["json"]))["findings"]) == EXPECTED_FAILS
    installed = [d for d in os.listdir(os.path.join(venv, "lib", os.listdir(os.path.join(venv, "lib"))[0],
                                                    "site-packages")) if d.startswith("endpoints_checker")]
    assert installed, "the checker was not installed into the action's environment"
    assert "using the cached environment" not in run.logs["install"]
    again = run_action({"formats": "json"}, ws, temp, env=env)
    assert again.rc == 1 and again.logs["install"].startswith("endpoints-checker: using the cached environment")
