"""The ``mcp`` command: listed in the help, and without the SDK a usage error (exit 2) naming the extra."""
import os
import subprocess
import sys

from mcp_session import REPO

_NO_SDK = "import sys; sys.modules['mcp'] = None; sys.argv = ['endpoints-checker', 'mcp']; " \
          "from checker.cli.entry import run; run()"


def test_mcp_is_a_command():
    out = subprocess.run([sys.executable, "-m", "checker", "--help"], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=REPO), timeout=120)
    assert out.returncode == 0 and "mcp" in out.stdout and "Model Context Protocol" in out.stdout


def test_without_the_sdk_it_says_what_to_install():
    out = subprocess.run([sys.executable, "-c", _NO_SDK], capture_output=True, text=True, cwd=REPO,
                         env=dict(os.environ, PYTHONPATH=REPO), timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 2, out
    assert "endpoints-checker[mcp]" in out.stderr and out.stdout == ""
