"""Whole-package golden reports (regenerate with `make golden` after an intended change)."""
import os

import pytest

from golden import GOLDEN, golden_cases, render_case

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


@pytest.mark.parametrize("name,fmt,paths", golden_cases(), ids=[c[0] for c in golden_cases()])
def test_golden(name, fmt, paths):
    path = os.path.join(GOLDEN, name)
    assert os.path.exists(path), f"missing {path}: run `make golden`"
    with open(path, encoding="utf-8") as fh:
        expected = fh.read()
    assert render_case(fmt, paths) == expected, f"{name} differs: run `make golden` if the change is intended"
