"""Run the CLI as a user does (a child process), shared by the CLI, terminal and placement tests."""
from __future__ import annotations

import os
import subprocess
import sys

from casefixtures import FIXTURES, REPO

VALID = os.path.join(FIXTURES, "valid")
CURVE = "results/H200-SXM-141GBx8_TRT/llama3_1-8b"


def cli(*args, env=None, cwd=None):
    e = dict(os.environ)
    e.pop("NO_COLOR", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "checker", *args], capture_output=True, text=True, env=e,
                          cwd=cwd or REPO, timeout=120)
