"""The console script exits straight after the command (checker.cli.entry): same codes, same output."""
import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(*args):
    code = "import sys; from checker.cli.entry import run; sys.argv = ['endpoints-checker', *sys.argv[1:]]; run()"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=300)


def test_exit_codes_and_output_survive_the_quick_exit(tmp_path):
    ok = _run("check", "fixtures/valid", "-q", "-f", "text", "-f", "json", "-o", "-", "-o", str(tmp_path / "r.json"))
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.rstrip().splitlines()[-1].startswith("PASSED")
    with open(tmp_path / "r.json", encoding="utf-8") as fh:
        assert json.load(fh)["summary"]["exit_code"] == 0
    missing = _run("check", str(tmp_path / "nothing-here"))
    assert missing.returncode == 2 and "path does not exist" in missing.stderr
    usage = _run("check")
    assert usage.returncode == 2 and "Missing argument" in usage.stderr
    assert _run("--version").stdout.startswith("endpoints-checker")
