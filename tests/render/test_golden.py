"""Whole-package golden reports and each family's golden of fixtures/valid (regenerate with `make golden`
after an intended change)."""
import os

import pytest

from golden import GOLDEN, family_goldens, golden_cases, render_case

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


@pytest.mark.parametrize("name,fmt,paths", golden_cases(), ids=[c[0] for c in golden_cases()])
def test_golden(name, fmt, paths):
    path = os.path.join(GOLDEN, name)
    assert os.path.exists(path), f"missing {path}: run `make golden`"
    with open(path, encoding="utf-8") as fh:
        expected = fh.read()
    assert render_case(fmt, paths) == expected, f"{name} differs: run `make golden` if the change is intended"


def test_each_familys_golden_of_the_valid_fixture():
    """rules/<family>/golden-valid.txt: what each rule of the family finds on fixtures/valid, PASS and SKIP
    included (adding a rule rewrites only its family's file)."""
    stale = []
    for path, text in family_goldens().items():
        if not os.path.exists(path):
            stale.append(f"missing {os.path.relpath(path)}")
            continue
        with open(path, encoding="utf-8") as fh:
            if fh.read() != text:
                stale.append(os.path.relpath(path))
    assert not stale, f"{stale} differ: run `make golden` if the change is intended"
