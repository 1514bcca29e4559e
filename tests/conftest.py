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

import endlines

_VALIDATOR = None


def report_validator():
    """A compiled validator for schemas/report.schema.json (cached): jsonschema-rs, since every report the
    suite builds in-process is validated (``_validate_every_report``) and it is about 150x jsonschema's speed."""
    global _VALIDATOR
    if _VALIDATOR is None:
        import jsonschema_rs

        with open(os.path.join(REPO, "schemas", "report.schema.json"), encoding="utf-8") as fh:
            _VALIDATOR = jsonschema_rs.Draft202012Validator(_json.load(fh))
    return _VALIDATOR


def assert_valid_report(doc: dict) -> None:
    errors = list(report_validator().iter_errors(doc))[:10]
    assert not errors, "\n".join(f"{list(e.instance_path)}: {e.message}" for e in errors)


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




@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):
    """A pytest-xdist worker hands its end-of-run lines (tests/support/endlines.py) to the controller."""
    out = getattr(session.config, "workeroutput", None)
    if out is not None:
        out["end_lines"] = [[text, markup] for text, markup in endlines.LINES]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """The controller collects the end-of-run lines of each pytest-xdist worker."""
    endlines.LINES.extend((text, markup) for text, markup in getattr(node, "workeroutput", {}).get("end_lines", []))


def pytest_terminal_summary(terminalreporter):
    for text, markup in endlines.LINES:
        terminalreporter.write_line(text, **markup)
