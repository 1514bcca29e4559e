import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if REPO not in sys.path:
    sys.path.insert(0, REPO)
TESTS = os.path.dirname(os.path.abspath(__file__))
SUPPORT = os.path.join(TESTS, "support")  # shared helpers (casefixtures, golden, ...), imported by name
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)

#: the suite's checks predict the Week-0 verdict (the model: fast, the same on every machine) unless a test asks
#: for the official checker (tests/engine/test_week0_official.py, the conformance suite): the environment
#: variable the CLI, the library API and the servers read, so subprocesses inherit it
os.environ["ENDPOINTS_CHECKER_WEEK0"] = "model"

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


