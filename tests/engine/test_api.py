"""The library API (checker.check, docs/api.md): the documented example runs as written; the report model
reads every golden JSON report; argument errors are ValueErrors, checked as the command line checks them; the
configuration file is read as check reads it."""
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


@pytest.mark.parametrize("kw, words", [
    ({"select": ["seed-runtim-match"]}, "select 'seed-runtim-match' names no rule, family or rule-id prefix. "
                                        "Did you mean: seed-runtime-match?"),
    ({"ignore": "sedes"}, "ignore 'sedes' names no rule, family or rule-id prefix. Did you mean: seeds?"),
    ({"cohort": "2026-13-XX"}, "cohort: '2026-13-XX' is not a cohort id"),
    ({"jobs": 0}, "jobs: 0 is not in the range"),
    ({"per_path_ignores": ["r8/point.yaml"]}, "write GLOB:RULES"),
])
def test_values_are_checked_as_the_command_line_checks_them(kw, words):
    from checker import check

    with pytest.raises(ValueError, match=re.escape(words)):
        check(os.path.join(REPO, "fixtures", "valid"), **kw)


def test_a_string_is_one_selector_and_an_unknown_keyword_is_a_type_error():
    from checker import check

    report = check(os.path.join(REPO, "fixtures", "valid"), select="seeds")
    assert {f.family for f in report.findings if f.reason != "deselected"} == {"seeds"}
    with pytest.raises(TypeError, match="unexpected keyword argument 'selec'. Did you mean: select"):
        check(os.path.join(REPO, "fixtures", "valid"), selec=["seeds"])


def test_the_configuration_file_is_read_and_a_keyword_wins(tmp_path):
    from checker import check
    from configrepo import EXPECTED_FAILS, SUBMISSION, fails, make_repo

    repo = make_repo(tmp_path / "repo")
    sub = os.path.join(repo, SUBMISSION)
    as_dicts = lambda r: [f.model_dump() for f in r.findings]  # noqa: E731
    report = check(sub)
    assert fails(as_dicts(report)) == EXPECTED_FAILS and report.fail_on == "warn" and report.summary.exit_code == 1
    assert check(sub, fail_on="never").summary.exit_code == 0
    assert ("src-readme", "") in fails(as_dicts(check(sub, isolated=True)))
    other = tmp_path / "other.toml"
    other.write_text('ignore = ["empty-file", "src-readme"]\n')
    assert check(sub, config=other).summary.exit_code == 1  # other.toml has no waivers: the r8 flag stands
