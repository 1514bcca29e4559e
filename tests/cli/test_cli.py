"""The command line: exit codes, formats and outputs, rules/explain/docs, colour."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from casefixtures import FIXTURES, REPO
from conftest import assert_valid_report

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

VALID = os.path.join(FIXTURES, "valid")


def cli(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, env=e,
                          cwd=cwd or REPO, timeout=60)


def test_valid_exit_0_with_verdict_line():
    p = cli("check", VALID)
    assert p.returncode == 0, p.stderr
    assert "PASSED" in p.stdout.splitlines()[-1]
    assert "Traceback" not in p.stderr


def test_missing_path_exit_2_and_report(tmp_path):
    out = tmp_path / "r.json"
    p = cli("check", str(tmp_path / "nope"), "-f", "json", "-o", str(out))
    assert p.returncode == 2
    assert "does not exist" in p.stderr
    doc = json.loads(out.read_text())
    assert_valid_report(doc)
    assert [f for f in doc["findings"] if f["rule_id"] == "path-exists" and f["status"] == "FAIL"]


def test_empty_dir_is_nothing_checkable(tmp_path):
    p = cli("check", str(tmp_path))
    assert p.returncode == 2
    assert "nothing to check" in p.stderr


def test_bad_flag_exit_2():
    assert cli("check", VALID, "--fail-on", "sometimes").returncode == 2
    assert cli("check").returncode == 2


def test_output_into_missing_directory_is_usage_error(tmp_path):
    p = cli("check", VALID, "-f", "json", "-o", str(tmp_path / "no" / "r.json"))
    assert p.returncode == 2 and "does not exist" in p.stderr
    assert "Traceback" not in p.stderr


def test_two_formats_text_and_json(tmp_path):
    out = tmp_path / "report.json"
    p = cli("check", VALID, "-f", "text", "-f", "json", "-o", "-", "-o", str(out))
    assert p.returncode == 0
    assert "PASSED" in p.stdout
    assert_valid_report(json.loads(out.read_text()))


def test_output_format_from_extension(tmp_path):
    out = tmp_path / "x.json"
    p = cli("check", VALID, "-o", str(out))
    assert p.returncode == 0
    json.loads(out.read_text())


def test_json_to_stdout_is_parseable_and_deterministic():
    a = json.loads(cli("check", VALID, "-f", "json").stdout)
    b = json.loads(cli("check", VALID, "-f", "json").stdout)
    a.pop("generated_at"), b.pop("generated_at")
    assert a == b
    assert a["summary"]["exit_code"] == 0


def test_fail_on_thresholds(tmp_path):
    import shutil

    root = tmp_path / "pkg"
    shutil.copytree(VALID, root)
    os.makedirs(root / "__MACOSX")  # a warn-level finding only
    assert cli("check", str(root)).returncode == 0
    assert cli("check", str(root), "--fail-on", "warn").returncode == 1
    os.remove(root / "src" / "trtllm" / "README.md")  # a reject
    assert cli("check", str(root), "--fail-on", "reject").returncode == 1
    assert cli("check", str(root), "--fail-on", "never").returncode == 0


def test_quiet_hides_pass():
    p = cli("check", VALID, "-q")
    assert " PASS " not in p.stdout and "pass " not in p.stdout


def test_no_colour_when_piped_and_no_color_env():
    p = cli("check", VALID, env={"NO_COLOR": "1"})
    assert "\x1b[" not in p.stdout


def test_rules_and_explain():
    p = cli("rules")
    assert p.returncode == 0 and "point-config-valid" in p.stdout
    e = cli("explain", "duplicate-point")
    assert e.returncode == 0 and "How to fix" in e.stdout and "duplicate-point" in e.stdout
    bad = cli("explain", "no-such-rule")
    assert bad.returncode == 2
    j = json.loads(cli("rules", "--format", "json").stdout)
    assert {r["id"] for r in j} >= {"path-exists", "unexpected-entry"}


def test_version():
    from checker import __version__

    p = cli("--version")
    assert p.returncode == 0 and __version__ in p.stdout


def test_maintainer_docs_check_finds_the_rule_pages_fresh():
    """`make docs` has been run: docs/rules/ matches the catalogue (tests/cli/test_docs.py compares in memory)."""
    p = subprocess.run([sys.executable, "-m", "checker.cli.maintainer", "docs", "--check"], capture_output=True,
                       text=True, cwd=REPO, timeout=60)
    assert p.returncode == 0, p.stderr


def test_python_m_checker_and_console_script_agree():
    import shutil

    exe = shutil.which("endpoints-checker")
    if exe is None:
        return
    p = subprocess.run([exe, "check", VALID, "-q"], capture_output=True, text=True, cwd=REPO)
    assert p.returncode == 0
