"""The configuration file on the command line: found above each checked path (nearest wins), its keys
derived from check's options and checked by their types (file:line and a did-you-mean for a bad one), the
command line over it, --config and --isolated, relative paths from its folder, `config` showing where each
value comes from, the hook's entry run as pre-commit runs it, and a repository's own files left alone."""
from __future__ import annotations

import json
import re
import os
import shlex
import shutil
import subprocess
import sys

import click
import pytest
import yaml

from casefixtures import FIXTURES, REPO
from configrepo import EXPECTED_FAILS, UNCONFIGURED_FAILS, make_repo, fails

VALID = os.path.join(FIXTURES, "valid")


def cli(*args, cwd):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "MLPERF_ENDPOINTS_", "ENDPOINTS_CHECKER_"))}
    env["ENDPOINTS_CHECKER_WEEK0"] = "model"  # the suite predicts (tests/conftest.py): the same whether it is installed
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


def report(*args, cwd) -> dict:
    p = cli("check", *args, "-f", "json", "-o", "-", cwd=cwd)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return make_repo(tmp_path_factory.mktemp("cfg") / "repo")


def _file(tmp_path, body: str, name: str = "pyproject.toml") -> str:
    root = tmp_path / "proj"
    if not (root / "pkg").exists():
        shutil.copytree(VALID, root / "pkg")
    (root / name).write_text(body)
    return str(root)


def test_the_repository_file_sets_ignore_exclude_fail_on_and_waivers(repo):
    doc = report(".", cwd=repo)
    assert fails(doc["findings"]) == EXPECTED_FAILS
    assert doc["fail_on"] == "warn" and doc["summary"]["exit_code"] == 1
    assert doc["waivers"]["file"] == os.path.join(repo, "review", "waivers.yaml")
    assert [w["matched"] for w in doc["waivers"]["entries"]] == [1, 1]
    assert fails(report(".", "--isolated", cwd=repo)["findings"]) >= UNCONFIGURED_FAILS
    # the command line wins over the file, option by option
    assert report(".", "--fail-on", "flag", cwd=repo)["summary"]["exit_code"] == 0
    assert ("src-readme", "") in fails(report(".", "--ignore", "empty-file", cwd=repo)["findings"])


def test_the_same_file_is_found_from_any_working_directory_and_path(repo, tmp_path):
    sub = os.path.join(repo, "acme-7f3a")
    for path, cwd in ((sub, str(tmp_path)), (".", sub), (os.path.join("repo", "acme-7f3a"), os.path.dirname(repo))):
        assert fails(report(path, cwd=cwd)["findings"]) == EXPECTED_FAILS, (path, cwd)


def test_nearest_wins_and_endpoints_checker_toml_before_pyproject(tmp_path):
    root = _file(tmp_path, '[tool.endpoints-checker]\nfail-on = "never"\n')
    (tmp_path / "proj" / "pkg" / "pyproject.toml").write_text('[tool.endpoints-checker]\nfail-on = "reject"\n')
    assert report("pkg", cwd=root)["fail_on"] == "reject"
    (tmp_path / "proj" / "pkg" / "endpoints-checker.toml").write_text('fail-on = "warn"\n')
    assert report("pkg", cwd=root)["fail_on"] == "warn"
    # a pyproject.toml without the table is not ours: the walk goes on to the next folder up
    os.remove(tmp_path / "proj" / "pkg" / "endpoints-checker.toml")
    (tmp_path / "proj" / "pkg" / "pyproject.toml").write_text('[project]\nname = "x"\n')
    assert report("pkg", cwd=root)["fail_on"] == "never"


def test_config_and_isolated(tmp_path):
    root = _file(tmp_path, '[tool.endpoints-checker]\nfail-on = "never"\n')
    other = tmp_path / "elsewhere.toml"
    other.write_text('fail-on = "warn"\n')
    assert report("pkg", "--config", str(other), cwd=root)["fail_on"] == "warn"
    assert report("pkg", "--isolated", cwd=root)["fail_on"] == "flag"
    p = cli("check", "pkg", "--config", str(other), "--isolated", cwd=root)
    assert p.returncode == 2 and "contradict" in p.stderr
    p = cli("check", "pkg", "--config", str(tmp_path / "missing.toml"), cwd=root)
    assert p.returncode == 2 and "missing.toml: configuration file not found" in p.stderr


@pytest.mark.parametrize("body, words", [
    ('fail_on = "warn"', "pyproject.toml:3: unknown key 'fail_on'. Did you mean: fail-on"),
    ('fail-on = "warm"', "pyproject.toml:3: fail-on: 'warm' is not one of 'reject', 'flag', 'warn', 'never', 'week0'. Did you mean: warn?"),
    ('select = ["seed-runtim-match"]', "pyproject.toml:3: select 'seed-runtim-match' names no rule, family or rule-id "
                                       "prefix. Did you mean: seed-runtime-match?"),
    ('per-path-ignores = {"r8/*" = ["sedes"]}', "pyproject.toml:3: per-path-ignores 'sedes' names no rule"),
    ('jobs = 0', "pyproject.toml:3: jobs: 0 is not in the range 1<=x<=256. (jobs takes an integer from 1 to 256)"),
    ('jobs = "4"', "pyproject.toml:3: jobs takes an integer from 1 to 256, not '4'"),
    ('quiet = "yes"', "pyproject.toml:3: quiet takes true or false, not 'yes'"),
    ('waivers = 3', "pyproject.toml:3: waivers takes a path, not 3"),
    ('format = ["sarif", "jsn"]', "format: 'jsn' is not one of"),
    ('cohort = "2026-13-XX"', "pyproject.toml:3: cohort: '2026-13-XX' is not a cohort id"),
    ('fix = true', "pyproject.toml:3: fix is not a setting"),
    ('exclude = {a = 1}', "pyproject.toml:3: exclude takes a list of strings (or one string), not a table"),
    ('select = [', "pyproject.toml: not valid TOML"),
    ('select = ' + '[' * 100_000, "pyproject.toml: not a usable configuration file: arrays or tables nested too deeply"),
    ('jobs = ' + '9' * 5000, "pyproject.toml: not a usable configuration file: Exceeds the limit"),
    ('waivers = "x\\u0000y"', "pyproject.toml:3: waivers: 'x\\x00y' holds a NUL character"),
])
def test_a_bad_key_or_value_is_a_usage_error_naming_file_and_line(tmp_path, body, words):
    root = _file(tmp_path, f"[tool.endpoints-checker]\n# the settings\n{body}\n")
    p = cli("check", "pkg", cwd=root)
    assert p.returncode == 2, p.stdout
    assert words in p.stderr
    assert p.stdout == ""


def test_values_read_as_the_command_line_reads_them(tmp_path):
    root = _file(tmp_path, """\
[tool.endpoints-checker]
select = "seeds,power"     # one string: the two families, never letters
format = "json"
today = 2026-01-01         # a TOML date
exclude = "r8"
per-path-ignores = {"r1/system_desc.json" = ["system-description-valid"]}
""")
    doc = json.loads(cli("check", "pkg", cwd=root).stdout)
    selected = {f["family"] for f in doc["findings"] if f.get("reason") != "deselected"}
    assert selected == {"seeds", "power"}
    assert not any(f["subject"]["point"] == "r8" for f in doc["findings"])


def test_relative_paths_resolve_against_the_files_folder(tmp_path):
    root = _file(tmp_path, '[tool.endpoints-checker]\nwaivers = "review/waivers.yaml"\n')
    os.makedirs(os.path.join(root, "review"))
    with open(os.path.join(root, "review", "waivers.yaml"), "w") as fh:
        fh.write("version: 1\nwaivers: []\n")
    elsewhere = tmp_path / "cwd"
    elsewhere.mkdir()
    doc = report(os.path.join(root, "pkg"), cwd=str(elsewhere))
    assert doc["summary"]["exit_code"] == 0 and "waivers" in doc
    os.remove(os.path.join(root, "review", "waivers.yaml"))
    p = cli("check", os.path.join(root, "pkg"), cwd=str(elsewhere))
    assert p.returncode == 2 and os.path.join(root, "review", "waivers.yaml") in p.stderr


def test_paths_with_two_different_files_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for top, level in ((a, "warn"), (b, "never")):
        shutil.copytree(VALID, top / "pkg")
        (top / "endpoints-checker.toml").write_text(f'fail-on = "{level}"\n')
    p = cli("check", str(a / "pkg"), str(b / "pkg"), cwd=str(tmp_path))
    assert p.returncode == 2 and "different configuration files" in p.stderr
    assert cli("check", str(a / "pkg"), str(b / "pkg"), "--config", str(a / "endpoints-checker.toml"), "-q",
               cwd=str(tmp_path)).returncode in (0, 1)


def test_config_prints_every_setting_and_where_it_comes_from(repo):
    p = cli("config", ".", "--select", "seeds", cwd=repo)
    assert p.returncode == 0, p.stderr
    lines = {line.split(" = ")[0].lstrip("# ").split(" is not set")[0]: line for line in p.stdout.splitlines()[1:]}
    assert p.stdout.splitlines()[0] == f"# configuration file: {os.path.join(repo, 'pyproject.toml')}"
    assert lines["fail-on"].startswith('fail-on = "warn"') and lines["fail-on"].endswith("pyproject.toml:7")
    assert lines["waivers"].startswith(f'waivers = "{os.path.join(repo, "review", "waivers.yaml")}"')
    assert lines["select"].endswith("# command line") and lines["timeout"].endswith("# default")
    from checker.cli.settings import check_settings

    assert set(lines) == set(check_settings().keys)
    # what it prints is a configuration file: read back, it gives the same settings
    import tomllib

    tomllib.loads(p.stdout)


def test_every_check_option_but_the_paths_and_the_actions_is_a_key():
    from checker.cli.check_command import command
    from checker.engine.check_settings import NOT_SETTINGS, key_of
    from checker.cli.settings import check_settings

    keys = check_settings().keys
    options = [p for p in command.params if isinstance(p, click.Option)]
    assert {key_of(p) for p in options if p.name not in NOT_SETTINGS} == set(keys)
    assert {"select", "ignore", "exclude", "per-path-ignores", "fail-on", "waivers", "baseline", "seed-sets",
            "approved-drafters", "policy", "jobs", "format", "output"} <= set(keys)


def test_an_option_added_to_check_is_a_key_at_once():
    """The keys are derived: a new option (as another branch adds one) is read from the file, typed."""
    from checker.cli.check_command import command
    from checker.engine.check_settings import CheckSettings, SettingsError

    extra = click.Option(["--waiver-expiry-days"], type=click.IntRange(0), default=30, metavar="DAYS")
    cs = CheckSettings(click.Command("check", params=list(command.params) + [extra]))
    assert cs.convert("waiver_expiry_days", 14, "f:1") == 14
    with pytest.raises(SettingsError, match="waiver-expiry-days: -1 is not in the range"):
        cs.convert("waiver_expiry_days", -1, "f:1")


def test_the_pre_commit_hook_entry_reads_the_file(repo):
    with open(os.path.join(REPO, ".pre-commit-hooks.yaml")) as fh:
        hook = yaml.safe_load(fh)[0]
    exe = shutil.which("endpoints-checker", path=os.path.dirname(sys.executable))
    cmd = [exe] + shlex.split(hook["entry"])[1:] + list(hook.get("args", []))  # as pre-commit runs it, in the repo
    p = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    assert "empty-file" in p.stdout and "src-readme" not in p.stdout and "LICENSE" not in p.stdout


def test_a_malformed_cohort_is_a_usage_error():
    p = cli("check", VALID, "--cohort", "2026-13-XX", cwd=REPO)
    assert p.returncode == 2 and "'2026-13-XX' is not a cohort id" in p.stderr and p.stdout == ""
    p = cli("check", VALID, "--cohort", "2026-10-c0", "-q", cwd=REPO)
    assert p.returncode == 2 and "write the half in capitals" in p.stderr


def test_per_path_ignores_and_extend_exclude_on_the_command_line(tmp_path):
    root = _file(tmp_path, '[tool.endpoints-checker]\nexclude = ["r8_old"]\n')
    curve = os.path.join(root, "pkg", "results", "H200-SXM-141GBx8_TRT", "llama3_1-8b")
    shutil.copytree(os.path.join(curve, "r8"), os.path.join(curve, "r8_old"))
    shutil.copytree(os.path.join(curve, "r8"), os.path.join(curve, "r8_new"))
    open(os.path.join(root, "pkg", "docs", "empty.md"), "w").close()
    doc = report("pkg", "--extend-exclude", "r8_new", "--fail-on", "warn", cwd=root)
    assert fails(doc["findings"]) == {("empty-file", "")}  # r8_old by the file, r8_new by the command line
    doc = report("pkg", "--extend-exclude", "r8_new", "--per-path-ignores", "docs/empty.md:empty-file", cwd=root)
    assert fails(doc["findings"]) == set()
    skipped = [f for f in doc["findings"] if f["rule_id"] == "empty-file" and f["status"] == "SKIP"]
    assert skipped and all(f["reason"] == "deselected" for f in skipped)
    p = cli("check", "pkg", "--per-path-ignores", "docs/empty.md", cwd=root)
    assert p.returncode == 2 and "write GLOB:RULES" in p.stderr


@pytest.mark.parametrize("git", [True, False])
def test_a_repositorys_own_files_are_not_package_entries(tmp_path, git):
    """LICENSE, CONTRIBUTING.md, scripts/ and the like, beside the submissions or at a submission root that is the
    repository's top (.git, or the configuration file, marks it); anywhere else they stay unexpected."""
    beside = tmp_path / "beside"
    shutil.copytree(VALID, beside / "acme")
    top = tmp_path / "top"
    shutil.copytree(VALID, top)
    for root in (beside, top):
        for name in ("LICENSE", "CONTRIBUTING.md", "CODE_OF_CONDUCT.md", "Makefile", "requirements.txt"):
            (root / name).write_text("x\n")
        (root / "scripts").mkdir()
        (root / "scripts" / "upload.sh").write_text("#!/bin/sh\n")
        (root / ".github").mkdir()
        if git:
            (root / ".git").mkdir()
        else:
            (root / "endpoints-checker.toml").write_text('fail-on = "warn"\n')
    for root in (beside, top):
        doc = report(".", "--fail-on", "warn", cwd=str(root))
        assert fails(doc["findings"]) == set(), (root, fails(doc["findings"]))
    plain = tmp_path / "plain"  # a package that is no repository's top: a LICENSE in it is not the layout's
    shutil.copytree(VALID, plain)
    (plain / "LICENSE").write_text("x\n")
    assert ("unexpected-entry", "") in fails(report(str(plain), cwd=str(tmp_path))["findings"])


def test_the_usage_page_lists_every_key():
    from checker.cli.settings import check_settings

    with open(os.path.join(REPO, "docs", "usage.md"), encoding="utf-8") as fh:
        section = fh.read().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    listed = {k.strip(" `") for row in re.findall(r"^\| (`[^|]+) \|", section, re.M) for k in row.split(",")}
    assert listed == set(check_settings().keys)


def test_a_pyproject_table_in_an_endpoints_checker_toml_is_named(tmp_path):
    root = _file(tmp_path, '[tool.endpoints-checker]\nfail-on = "warn"\n', name="endpoints-checker.toml")
    p = cli("check", "pkg", cwd=root)
    assert p.returncode == 2
    assert "endpoints-checker.toml:1: a [tool.endpoints-checker] table is a pyproject.toml's" in p.stderr
