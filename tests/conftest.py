import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)
TESTS = os.path.dirname(os.path.abspath(__file__))
SUPPORT = os.path.join(TESTS, "support")  # shared helpers (casefixtures, golden, ...), imported by name
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

import json as _json

import pytest

_VALIDATOR = None


def report_validator():
    """A compiled validator for schemas/report.schema.json (cached)."""
    global _VALIDATOR
    if _VALIDATOR is None:
        from jsonschema import Draft202012Validator

        with open(os.path.join(REPO, "schemas", "report.schema.json"), encoding="utf-8") as fh:
            _VALIDATOR = Draft202012Validator(_json.load(fh))
    return _VALIDATOR


def assert_valid_report(doc: dict) -> None:
    errors = sorted(report_validator().iter_errors(doc), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:10])


@pytest.fixture(autouse=True)
def _validate_every_report(monkeypatch):
    """Every Report built in-process during the suite is validated against the report schema."""
    import checker.engine.pipeline as pipeline

    original = pipeline.check

    def checked(*args, **kwargs):
        report = original(*args, **kwargs)
        assert_valid_report(_json.loads(_json.dumps(report.to_dict(), allow_nan=False)))
        return report

    monkeypatch.setattr(pipeline, "check", checked)
    yield


# --- the record oracle (pydantic, tests/engine/test_record.py): a loud skip, or a failure where required ---

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
