"""CI outputs: SARIF (validated against the SARIF 2.1.0 schema), JUnit (against schemas/junit.xsd),
GitHub workflow commands (escaping), auto format, step summary and the pre-commit hook (the Action: tests/cli/test_action.py)."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys

import pytest
import yaml

from casefixtures import FIXTURES, PLACEHOLDERS, REPO

VALID = os.path.join(FIXTURES, "valid")
CURVE = PLACEHOLDERS["{curve}"]


def cli(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("GITHUB_ACTIONS", None)
    e.pop("GITHUB_STEP_SUMMARY", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, env=e,
                          cwd=cwd or REPO, timeout=60)


@pytest.fixture(scope="module")
def failing_pkg(tmp_path_factory):
    """A package with a reject, a flag-level and a warn-level FAIL, and hostile strings in names."""
    root = tmp_path_factory.mktemp("ci") / "sub,with:odd%name"
    shutil.copytree(VALID, root)
    os.remove(root / "src" / "trtllm" / "README.md")
    (root / CURVE / "r64" / "config.yaml").write_text("- a\n- list\n")
    os.makedirs(root / "results" / "__MACOSX")
    (root / CURVE / "r8" / "point.yaml").write_text(
        (root / CURVE / "r8" / "point.yaml").read_text().replace("concurrency: 8\n", "concurrency: 9\n"))
    return root


def _sarif_validator():
    from jsonschema import Draft202012Validator

    with open(os.path.join(REPO, "schemas", "sarif-2.1.0.schema.json")) as fh:
        return Draft202012Validator(json.load(fh))


def _assert_valid_sarif(doc):
    errors = list(_sarif_validator().iter_errors(doc))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]


def test_sarif_valid_fixture_has_rules_and_no_results():
    p = cli("check", "fixtures/valid", "-f", "sarif")
    assert p.returncode == 0
    doc = json.loads(p.stdout)
    _assert_valid_sarif(doc)
    run = doc["runs"][0]
    assert run["results"] == []
    rules = run["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} >= {"path-exists", "point-config-valid"}
    for r in rules:
        assert r["help"]["text"] and r["help"]["markdown"] and r["defaultConfiguration"]["level"]


def test_sarif_failing_package(failing_pkg, tmp_path):
    out = tmp_path / "r.sarif"
    p = cli("check", str(failing_pkg), "-o", str(out))
    assert p.returncode == 1
    doc = json.loads(out.read_text())
    _assert_valid_sarif(doc)
    results = doc["runs"][0]["results"]
    ids = {r["ruleId"] for r in results}
    assert {"src-readme", "config-file-present", "unexpected-entry", "point-dirname-concurrency"} <= ids
    levels = {r["ruleId"]: r["level"] for r in results}
    assert levels["src-readme"] == "error" and levels["config-file-present"] == "warning"
    assert levels["unexpected-entry"] == "note"
    for r in results:
        loc = r["locations"][0]["physicalLocation"]
        assert loc["region"]["startLine"] >= 1
        assert r["partialFingerprints"]["endpointsCheckerFinding/v1"]
    dirname = [r for r in results if r["ruleId"] == "point-dirname-concurrency"][0]
    assert dirname["locations"][0]["physicalLocation"]["region"]["startLine"] == 1
    # every location names a file (code scanning shows nothing on a directory): src-readme is about src/
    readme = [r for r in results if r["ruleId"] == "src-readme"][0]
    loc = readme["locations"][0]["physicalLocation"]["artifactLocation"]
    root = doc["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert loc["uriBaseId"] == "SRCROOT" and readme["properties"]["directory"].endswith("/src")
    from urllib.parse import unquote, urlparse

    assert os.path.isfile(os.path.join(unquote(urlparse(root).path), loc["uri"]))
    rules = doc["runs"][0]["tool"]["driver"]["rules"]
    assert all(r["helpUri"] for r in rules)


def test_sarif_uri_is_repository_relative(tmp_path):
    work = tmp_path / "repo"
    shutil.copytree(VALID, work / "pkg")
    os.remove(work / "pkg" / "src" / "trtllm" / "README.md")
    p = cli("check", "pkg", "-f", "sarif", cwd=str(work))
    doc = json.loads(p.stdout)
    uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in doc["runs"][0]["results"]]
    assert uris and all(u.startswith("pkg/") for u in uris), uris


@pytest.mark.parametrize("marker", [".git", "endpoints-checker.toml", "pyproject.toml"])
def test_sarif_uris_are_relative_to_the_repository_from_any_folder(tmp_path, marker):
    """Run from a sibling folder, from the root or from inside the package: the same repository-relative URIs,
    with originalUriBaseIds naming the root (the folder holding .git or the configuration file)."""
    repo = tmp_path / "repo"
    shutil.copytree(VALID, repo / "subs" / "pkg")
    os.remove(repo / "subs" / "pkg" / "src" / "trtllm" / "README.md")
    if marker == ".git":
        os.makedirs(repo / ".git")
    else:
        (repo / marker).write_text("[tool.endpoints-checker]\n" if marker == "pyproject.toml" else "")
    os.makedirs(tmp_path / "sibling")
    seen = []
    for cwd, path in ((tmp_path / "sibling", "../repo/subs/pkg"), (repo, "subs/pkg"), (repo / "subs" / "pkg", ".")):
        doc = json.loads(cli("check", path, "-f", "sarif", cwd=str(cwd)).stdout)
        _assert_valid_sarif(doc)
        run = doc["runs"][0]
        assert run["originalUriBaseIds"]["SRCROOT"]["uri"] == repo.as_uri() + "/"
        locs = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
        assert locs and all(loc["uriBaseId"] == "SRCROOT" and loc["uri"].startswith("subs/pkg/") for loc in locs)
        seen.append(sorted(loc["uri"] for loc in locs))
    assert seen[0] == seen[1] == seen[2]


def test_fingerprints_ignore_line_numbers_and_messages(failing_pkg, tmp_path):
    from checker.core.fingerprint import fingerprint

    a = json.loads(cli("check", str(failing_pkg), "-f", "sarif").stdout)
    moved = tmp_path / "moved"
    shutil.copytree(failing_pkg, moved.parent / failing_pkg.name, dirs_exist_ok=True)
    text = (failing_pkg / CURVE / "r8" / "point.yaml").read_text()
    (moved.parent / failing_pkg.name / CURVE / "r8" / "point.yaml").write_text("# a comment moves lines\n\n" + text)
    b = json.loads(cli("check", str(moved.parent / failing_pkg.name), "-f", "sarif").stdout)
    fa = {r["ruleId"]: r["partialFingerprints"] for r in a["runs"][0]["results"] if r["ruleId"] == "point-dirname-concurrency"}
    fb = {r["ruleId"]: r["partialFingerprints"] for r in b["runs"][0]["results"] if r["ruleId"] == "point-dirname-concurrency"}
    assert fa == fb
    assert callable(fingerprint)


def test_junit_valid_against_schema(failing_pkg):
    import xmlschema

    schema = xmlschema.XMLSchema(os.path.join(REPO, "schemas", "junit.xsd"))
    for pkg in (VALID, str(failing_pkg)):
        p = cli("check", pkg, "-f", "junit")
        schema.validate(p.stdout)
    xml = cli("check", str(failing_pkg), "-f", "junit").stdout
    assert '<failure message="src/trtllm/README.md is missing" type="reject">' in xml
    assert "<skipped" in cli("check", str(failing_pkg), "-f", "junit", "--ignore", "src-readme").stdout


def test_junit_counts_match_report(failing_pkg):
    """Failures are the problems that fail the gate; one below it (a warning with --fail-on flag) is written as
    --junit-warnings says: a passed test with its text (output, the default), skipped, or a failure."""
    import xml.etree.ElementTree as ET

    report = json.loads(cli("check", str(failing_pkg), "-f", "json").stdout)
    fails = [f for f in report["findings"] if f["status"] == "FAIL"]
    gating = [f for f in fails if f["severity"] != "warn"]
    below = len(fails) - len(gating)
    assert gating and below
    for mode, failures, skipped in (("output", len(gating), 0), ("skipped", len(gating), below),
                                    ("failure", len(fails), 0)):
        p = cli("check", str(failing_pkg), "-f", "junit", "--junit-warnings", mode)
        root = ET.fromstring(p.stdout)
        assert int(root.get("tests")) == report["summary"]["total"]
        assert int(root.get("failures")) + int(root.get("errors")) == failures, mode
        assert int(root.get("skipped")) == report["summary"]["by_status"]["SKIP"] + skipped, mode
        outs = [c for c in root.iter("testcase") if c.find("system-out") is not None]
        assert len(outs) == (below if mode == "output" else 0), mode
    out = [c for c in ET.fromstring(cli("check", str(failing_pkg), "-f", "junit").stdout).iter("testcase")
           if c.find("system-out") is not None]
    assert all(c.find("system-out").text.startswith("warn below --fail-on flag: ") for c in out)
    # with --fail-on warn the warnings fail the gate: failures whatever the mode
    root = ET.fromstring(cli("check", str(failing_pkg), "-f", "junit", "--fail-on", "warn").stdout)
    assert int(root.get("failures")) == len(fails)


def test_junit_one_class_per_submission(tmp_path):
    """A cohort's test cases are named per submission (classname), so a dashboard never merges two submissions'
    `seed-runtime-match [r64]`; every (classname, name) pair is unique."""
    import xml.etree.ElementTree as ET

    from cohortfixture import build_cohort

    cohort = build_cohort(str(tmp_path))
    root = ET.fromstring(cli("check", cohort, "-f", "junit", "-j", "2").stdout)
    suites = {s.get("name") for s in root.iter("testsuite")}
    assert {"alpha/sub-a01", "bravo/sub-b01", "bravo/sub-b02", "charlie/sub-c01"} <= suites
    cases = list(root.iter("testcase"))
    pairs = {(c.get("classname"), c.get("name")) for c in cases}
    assert len(pairs) == len(cases)
    for s in root.iter("testsuite"):
        assert {c.get("classname") for c in s.iter("testcase")} == {s.get("name")}
    names = {c.get("classname") for c in cases if c.get("name").startswith("seed-runtime-match [")}
    assert {"alpha/sub-a01", "bravo/sub-b01"} <= names


def test_github_escaping():
    from checker.render.github import escape_data, escape_property

    assert escape_data("a%b\r\nc") == "a%25b%0D%0Ac"
    assert escape_property("x:y,z%\n") == "x%3Ay%2Cz%25%0A"
    assert escape_data("::error::") == "::error::"  # data may contain '::' (only the first '::' ends properties)


def test_github_annotations_grouped_and_escaped(failing_pkg):
    p = cli("check", str(failing_pkg), "-f", "github")
    lines = p.stdout.splitlines()
    assert lines[0].startswith("::group::endpoints-checker: sub,with:odd%25name")
    err = [ln for ln in lines if ln.startswith("::error ")]
    assert err, lines
    for ln in err + [ln for ln in lines if ln.startswith(("::warning ", "::notice "))]:
        props, _, msg = ln.split(" ", 1)[1].partition("::")
        assert "\n" not in msg
        for prop in props.split(","):
            key, _, value = prop.partition("=")
            assert key in {"file", "line", "col", "title"}, prop
            assert ":" not in value and "," not in value
    assert "::endgroup::" in lines
    assert any(ln.startswith("::warning ") and "config-file-present" in ln for ln in lines)
    assert any(ln.startswith("::notice ") and "unexpected-entry" in ln for ln in lines)
    dirname = [ln for ln in lines if "point-dirname-concurrency" in ln][0]
    assert ",line=1,col=" in dirname


def test_auto_format_and_step_summary(failing_pkg, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("previous\n")
    p = cli("check", str(failing_pkg), env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)})
    assert p.stdout.startswith("::group::")
    text = summary.read_text()
    assert text.startswith("previous\n") and "src-readme" in text
    plain = cli("check", str(failing_pkg))
    assert plain.stdout.startswith("endpoints-checker")


def test_pre_commit_hook_entry_runs_like_pre_commit(failing_pkg, tmp_path):
    with open(os.path.join(REPO, ".pre-commit-hooks.yaml")) as fh:
        hooks = yaml.safe_load(fh)
    hook = hooks[0]
    assert hook["pass_filenames"] is False and hook["language"] == "python"
    exe = shutil.which("endpoints-checker", path=os.path.dirname(sys.executable))
    assert exe, "console script not installed in this environment"
    entry = shlex.split(hook["entry"])
    cmd = [exe] + entry[1:] + list(hook.get("args", []))
    repo = tmp_path / "submission-repo"
    shutil.copytree(VALID, repo)
    assert subprocess.run(cmd, cwd=repo, capture_output=True).returncode == 0
    os.remove(repo / "src" / "trtllm" / "README.md")
    bad = subprocess.run(cmd, cwd=repo, capture_output=True, text=True)
    assert bad.returncode == 1 and "src-readme" in bad.stdout
    import re

    pattern = re.compile(hook["files"])
    assert pattern.search("results/s/m/r8/point.yaml") and not pattern.search("notes.txt")


#: a package the Week-0 automated check rejects for a reason the rules leave alone (R§8.2 sets no length)
SHORT_SUMMARY = "DP8"


@pytest.fixture(scope="module")
def week0_only_pkg(tmp_path_factory):
    root = tmp_path_factory.mktemp("week0") / "sub"
    shutil.copytree(VALID, root)
    path = root / CURVE / "r1" / "system_desc.json"
    doc = json.loads(path.read_text())
    doc["config_summary"] = SHORT_SUMMARY
    path.write_text(json.dumps(doc, indent=2))
    return root


def test_pre_commit_week0_hook_gates_on_the_week0_verdict_alone(week0_only_pkg, tmp_path):
    """The second hook is --fail-on week0: a Week-0 reject fails the commit, a flag or warning alone does not."""
    with open(os.path.join(REPO, ".pre-commit-hooks.yaml")) as fh:
        hook = {h["id"]: h for h in yaml.safe_load(fh)}["endpoints-checker-week0"]
    assert hook["pass_filenames"] is False and any("endpoints-submission-cli" in d
                                                   for d in hook["additional_dependencies"])
    exe = shutil.which("endpoints-checker", path=os.path.dirname(sys.executable))
    cmd = [exe] + shlex.split(hook["entry"])[1:] + list(hook.get("args", []))
    assert subprocess.run(cmd, cwd=week0_only_pkg, capture_output=True).returncode == 1
    flagged = tmp_path / "flagged"
    shutil.copytree(VALID, flagged)
    (flagged / CURVE / "r8" / "point.yaml").write_text(
        (flagged / CURVE / "r8" / "point.yaml").read_text().replace("concurrency: 8\n", "concurrency: 9\n"))
    ok = subprocess.run(cmd, cwd=flagged, capture_output=True, text=True)
    assert ok.returncode == 0 and "flag" in ok.stdout  # problems listed, the gate is Week-0's alone


@pytest.mark.parametrize("fail_on,code", [("week0", 1), ("reject", 0), ("reject,week0", 1), ("never", 0)])
def test_action_fail_on_week0(week0_only_pkg, tmp_path, fail_on, code):
    env = dict(os.environ, INPUT_PATH=str(week0_only_pkg), INPUT_FAIL_ON=fail_on, INPUT_FORMATS="github,json",
               INPUT_WEEK0="model", INPUT_POLICY="", INPUT_OUTPUT_DIR=str(tmp_path / "reports"),
               GITHUB_OUTPUT=str(tmp_path / "out"))
    env.pop("GITHUB_ACTIONS", None)
    p = subprocess.run([sys.executable, "-m", "checker.cli.action"], capture_output=True, text=True, env=env, cwd=REPO)
    assert p.returncode == code, p.stderr
    doc = json.loads((tmp_path / "reports" / "endpoints-checker.json").read_text())
    assert doc["fail_on"] == fail_on and doc["summary"]["week0"]["source"] == "model"
    assert "week0-check" in p.stdout and "(predicted)" in p.stdout
    with open(os.path.join(REPO, "action.yml")) as fh:
        action = yaml.safe_load(fh)
    assert "week0" in action["inputs"] and "week0" in action["inputs"]["fail-on"]["description"]
