"""The record oracle (pydantic, tests/engine/test_record.py): a loud skip, or a failure where it is required."""
from __future__ import annotations

import os

import pytest

#: set to 1 (as .ci/run does; CI=true too) to make a missing oracle a failure, as for the conformance suite
REQUIRE_ENV = "ENDPOINTS_CHECKER_REQUIRE_OFFICIAL"
_MISSING: list[str] = []


def _required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0") or os.environ.get("CI", "").lower() == "true"


@pytest.fixture(scope="session")
def pydantic_oracle():
    """pydantic, the test oracle of checker.core.record; skip loudly (or fail when required) without it."""
    try:
        import pydantic
    except ImportError as exc:
        pydantic, why = None, f"pydantic is not installed ({exc}); `pip install -e '.[test]'` installs it"
    if pydantic is not None:
        return pydantic
    if _required():
        pytest.fail(f"RECORD ORACLE CANNOT RUN: {why}. It is required here ({REQUIRE_ENV}=1 or CI=true).",
                    pytrace=False)
    _MISSING.append(why)
    pytest.skip(f"RECORD ORACLE SKIPPED: {why}")


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _MISSING:
        bar = "!" * 78
        terminalreporter.write_line(bar, red=True, bold=True)
        terminalreporter.write_line(f"RECORD ORACLE SKIPPED: {_MISSING[0]}", red=True, bold=True)
        terminalreporter.write_line("  checker.core.record was NOT compared with pydantic strict mode "
                                    f"(CI requires it: {REQUIRE_ENV}=1).", red=True)
        terminalreporter.write_line(bar, red=True, bold=True)
