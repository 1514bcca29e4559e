"""The library API (checker.check, docs/api.md): the documented example runs as written; the report model
reads every golden JSON report; argument errors are ValueErrors."""
import json
import os
import re

import pytest

from tests.conftest import REPO


def _examples() -> list[str]:
    with open(os.path.join(REPO, "docs", "api.md"), encoding="utf-8") as fh:
        return re.findall(r"```python\n(.*?)```", fh.read(), re.S)


def test_the_documented_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(REPO)
    (code,) = _examples()
    exec(compile(code, "docs/api.md", "exec"), {})  # noqa: S102  (our own documentation)
    assert capsys.readouterr().out.startswith("FAILED 1\n")


def test_check_returns_the_report_model_of_a_valid_package():
    from checker import ReportModel, check

    report = check(os.path.join(REPO, "fixtures", "valid"))
    assert isinstance(report, ReportModel)
    assert report.summary.verdict == "PASSED" and report.summary.exit_code == 0 and not report.failed
    assert report.summary.total == len(report.findings) == sum(report.summary.by_status.values())


@pytest.mark.parametrize("name", ["valid.json", "cohort.json"])
def test_the_report_model_reads_each_golden_report(name):
    from checker.core.report_model import ReportModel

    with open(os.path.join(REPO, "tests", "golden", name), encoding="utf-8") as fh:
        doc = json.load(fh)
    report = ReportModel.model_validate(doc)
    assert len(report.findings) == len(doc["findings"])
    assert report.model_dump(mode="json", exclude_unset=True)["findings"] == doc["findings"]


@pytest.mark.parametrize("kw, words", [({"fail_on": "error"}, "fail_on: 'error' is not one of"),
                                       ({"policy_dir": "/nonexistent/policy"}, "policy directory not found"),
                                       ({"seed_sets": "/nonexistent/seeds.yaml"}, "seed-sets file not found")])
def test_arguments_the_cli_refuses_raise_value_error(kw, words):
    from checker import check

    with pytest.raises(ValueError, match=words):
        check(os.path.join(REPO, "fixtures", "valid"), **kw)
