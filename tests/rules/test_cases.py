"""Every case under rules/<family>/cases/ yields exactly the findings it declares (tests/support/caserun.py:
a case runs its own rule; a ``scope: package`` case runs every rule)."""
import os

import pytest

from casefixtures import all_case_files, case_rel, load_case
from caserun import case_rule, check_case, format_problems, run_case

CASE_FILES = all_case_files()


@pytest.mark.parametrize("case_file", CASE_FILES, ids=[case_rel(p) for p in CASE_FILES])
def test_case(case_file, tmp_path):
    case = load_case(case_file)
    if case.get("requires_nonroot") and os.geteuid() == 0:
        pytest.skip("needs an unprivileged user (root reads everything)")
    rule_id = case_rule(case_file)
    report = run_case(case, str(tmp_path), rule_id)
    problems = check_case(case, report, rule_id)
    assert not problems, "\n".join(problems)


def test_every_case_names_its_rule():
    from checker.engine.catalogue import all_rules

    ids = {r.id for r in all_rules()}
    for path in CASE_FILES:
        rule_id = case_rule(path)
        assert rule_id in ids, f"{path}: directory {rule_id!r} is not a rule id"
        problems = format_problems(load_case(path), rule_id)
        assert not problems, f"{path}: " + "; ".join(problems)
