"""CLI values and outputs (issue 16): typos are usage errors, -o reports on stderr, maintainer
commands left the user's CLI, ``explain`` and ``rules`` filters."""
from __future__ import annotations

import os
import re

import pytest

from casefixtures import REPO, materialise
from clirun import VALID, cli

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def _rejected(tmp_path):
    return materialise({"name": "pkg", "patch": [{"remove": "src/trtllm/README.md"}]}, str(tmp_path))


def test_unknown_select_is_a_usage_error_not_a_green_gate(tmp_path):
    root = _rejected(tmp_path)
    assert cli("check", root).returncode == 1
    p = cli("check", root, "--select", "nonexistent-rule")
    assert p.returncode == 2 and "PASSED" not in p.stdout
    assert "--select 'nonexistent-rule' names no rule" in p.stderr
    p = cli("check", root, "--select", "src-reedme")
    assert p.returncode == 2 and "Did you mean: src-readme" in p.stderr


def test_unknown_ignore_is_a_usage_error_with_did_you_mean():
    p = cli("check", VALID, "--ignore", "sede-set-registry")
    assert p.returncode == 2 and "Did you mean: seed-set-registry" in p.stderr
    assert "Traceback" not in p.stderr


def test_families_prefixes_and_all_are_accepted():
    for args in (("--select", "structure"), ("--select", "seed-set"), ("--ignore", "ALL"), ("--select", "seeds,power")):
        assert cli("check", VALID, *args).returncode == 0, args


def test_unknown_seed_set_is_a_usage_error():
    p = cli("check", VALID, "--seed-set", "Z")
    assert p.returncode == 2
    assert "--seed-set 'Z' is not in the seed-set registry (sets: A)" in p.stderr
    assert cli("check", VALID, "--seed-set", "A").returncode == 0


def test_output_files_report_paths_and_verdict_on_stderr(tmp_path):
    html, js = tmp_path / "r.html", tmp_path / "r.json"
    p = cli("check", VALID, "-o", str(html), "-o", str(js))
    assert p.returncode == 0 and p.stdout == ""
    err = p.stderr.splitlines()
    assert err[:2] == [f"wrote {html} (html)", f"wrote {js} (json)"]
    assert re.match(r"PASSED — no problems · \d+ checks passed, \d+ skipped", err[2]), err[2]
    assert html.exists() and js.exists()


def test_text_on_stdout_is_not_repeated_on_stderr(tmp_path):
    p = cli("check", VALID, "-f", "text", "-f", "json", "-o", "-", "-o", str(tmp_path / "r.json"))
    assert p.stderr.splitlines() == [f"wrote {tmp_path / 'r.json'} (json)"]


def test_docs_left_the_user_cli_and_writes_nothing_in_cwd(tmp_path):
    (tmp_path / "README.md").write_text("# my package\n")
    p = cli("docs", cwd=tmp_path)
    assert p.returncode == 2 and "No such command" in p.stderr
    assert (tmp_path / "README.md").read_text() == "# my package\n"
    assert "docs" not in re.findall(r"^  (\w+)", cli("--help").stdout, re.M)


def test_maintainer_commands_check_the_checkout(tmp_path):
    import subprocess
    import sys

    for cmd in ("docs", "schemas"):
        p = subprocess.run([sys.executable, "-m", "checker.cli.maintainer", cmd, "--check"], capture_output=True,
                           text=True, cwd=tmp_path, timeout=120)  # from elsewhere: the checkout's files only
        assert p.returncode == 0, p.stderr
    assert list(tmp_path.iterdir()) == []
    with open(os.path.join(REPO, "Makefile"), encoding="utf-8") as fh:
        make = fh.read()
    assert "-m checker.cli.maintainer docs" in make and "-m checker.cli.maintainer schemas" in make


def test_explain_shows_policy_cases_and_examples_as_the_yaml_a_submitter_writes():
    p = cli("explain", "seed-runtime-match")
    assert p.returncode == 0
    out = p.stdout
    assert "defined in" not in out and "rules/seeds/sets.py" not in out and "rules.seeds" not in out  # no source paths
    assert re.search(r"^policy files: .*rules/policy/v1\.0/seed_sets\.yaml", out, re.M)
    assert re.search(r"^test cases: \d+$", out, re.M)
    # the passing example is no quoted seed (its own fix and value-spelling forbid it)
    passing = out.split("passing example", 1)[1].split("failing example", 1)[0]
    assert "9315206023656308754'" not in passing and '"9315206023656308754"' not in passing
    failing = out.split("failing example", 1)[1]
    assert re.search(r"^    in r32/point\.yaml:\n      runtime_settings:\n        runtime:\n          model_seed: "
                     r"9315206023656308755$", failing, re.M), failing
    assert re.search(r"^  gives: FAIL", out, re.M)


def test_explain_a_family_and_did_you_mean():
    p = cli("explain", "seeds")
    assert p.returncode == 0 and p.stdout.startswith("family seeds: ")
    assert "seed-runtime-match" in p.stdout
    bad = cli("explain", "seed-runtim")
    assert bad.returncode == 2 and "Did you mean: seed-runtime-match" in bad.stderr


def test_rules_filters():
    out = cli("rules", "--family", "seeds", "--severity", "warn").stdout.splitlines()
    assert out and all(" seeds " in ln and " warn " in ln for ln in out)
    bad = cli("rules", "--family", "sede")
    assert bad.returncode == 2 and "Did you mean: seeds" in bad.stderr
    assert cli("rules", "--severity", "fatal").returncode == 2
