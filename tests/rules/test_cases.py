"""Every fixture case under fixtures/cases/ yields exactly the findings it declares."""
import os

import pytest

from casefixtures import CASES, all_case_files, check_case, load_case, run_case

CASE_FILES = all_case_files()


@pytest.mark.parametrize("case_file", CASE_FILES, ids=[os.path.relpath(p, CASES) for p in CASE_FILES])
def test_case(case_file, tmp_path):
    case = load_case(case_file)
    if case.get("requires_nonroot") and os.geteuid() == 0:
        pytest.skip("needs an unprivileged user (root reads everything)")
    report = run_case(case, str(tmp_path))
    problems = check_case(case, report)
    assert not problems, "\n".join(problems)


def test_every_case_names_its_rule():
    from checker.core.rule import all_rules

    ids = {r.id for r in all_rules()}
    for path in CASE_FILES:
        rule_dir = os.path.relpath(path, CASES).split(os.sep)[0]
        assert rule_dir in ids, f"{path}: directory {rule_dir!r} is not a rule id"
        case = load_case(path)
        assert case.get("expect"), f"{path}: no expectations"
