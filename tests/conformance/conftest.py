"""Conformance suite fixtures: the official checker (a loud skip, or a failure where it is required)."""
from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cf_run  # noqa: E402
import endlines  # noqa: E402

_MISSING: list[str] = []


@pytest.fixture(scope="session")
def official_python() -> str:
    """Path to the python of the official checker's venv; skip loudly (or fail when required) without it."""
    python, why = cf_run.find_official()
    if python:
        return python
    if cf_run.official_required():
        pytest.fail(f"CONFORMANCE SUITE CANNOT RUN: {why}. It is required here "
                    f"({cf_run.REQUIRE_ENV}=1 or CI=true); run `make official`.", pytrace=False)
    _MISSING.append(why)
    pytest.skip(f"CONFORMANCE SUITE SKIPPED: {why}")


def pytest_sessionfinish(session):
    """Say it at the end of the run too, where nobody can miss it; report how long the suite took
    (tests/support/endlines.py: printed by the process that prints the summary, xdist workers included)."""
    if cf_run.STATS.get("line"):
        endlines.add(cf_run.STATS["line"])
    if _MISSING:
        bar = "!" * 78
        endlines.add(bar, red=True, bold=True)
        endlines.add("CONFORMANCE SUITE SKIPPED: the official checker is not available:", red=True, bold=True)
        endlines.add(f"  {_MISSING[0]}", red=True)
        endlines.add("  Our verdicts were NOT compared with the official tool. Run `make official` "
                     f"(CI requires it: {cf_run.REQUIRE_ENV}=1).", red=True)
        endlines.add(bar, red=True, bold=True)
