"""The --fail-on gate, defined once (checker/core/gate.py): its values, how several combine, what trips it,
and every front end taking the same grammar."""
from __future__ import annotations

import pytest

from checker.core.gate import FAIL_ON_VALUES, FailOnError, fail_on_pattern, gates_week0, parse_fail_on, severity_rank


@pytest.mark.parametrize("given,canonical", [
    ("flag", "flag"), ("week0", "week0"), ("never", "never"), (["reject", "week0"], "reject,week0"),
    ("week0,flag", "flag,week0"), ("reject,warn", "warn"), (["flag", "reject"], "flag"), ("never,week0", "week0"),
    ("never,flag", "flag"), (" warn , week0 ", "warn,week0"), (("flag,week0", "week0"), "flag,week0"),
])
def test_several_values_read_as_one_gate(given, canonical):
    assert parse_fail_on(given) == canonical
    import re

    assert re.match(fail_on_pattern(), canonical)


@pytest.mark.parametrize("bad", ["FLAG", "error", "", ",", "flag,weekO"])
def test_an_unknown_value_names_the_choices(bad):
    with pytest.raises(FailOnError) as exc:
        parse_fail_on(bad)
    assert "'week0'" in str(exc.value) or "no value" in str(exc.value)


def test_what_each_gate_trips_on():
    assert (severity_rank("flag,week0"), gates_week0("flag,week0")) == (2, True)
    assert (severity_rank("week0"), gates_week0("week0")) == (99, True)
    assert (severity_rank("never"), gates_week0("never")) == (99, False)
    assert FAIL_ON_VALUES == ("reject", "flag", "warn", "never", "week0")


def test_every_front_end_takes_the_one_definition():
    """The values are written once: the CLI's choices, the library API, MCP, the language server and the report
    schema read checker.core.gate (the old tuples are gone, and so are the aliases that re-exported them)."""
    import os

    import checker.api
    import checker.lsp.settings
    import checker.mcp.tools

    assert not any(hasattr(m, "FAIL_ON") for m in (checker.api, checker.lsp.settings, checker.mcp.tools))
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    for dirpath, _dirs, files in os.walk(os.path.join(repo, "checker")):
        for f in files:
            if f.endswith(".py") and f != "gate.py":
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    assert '"warn", "never"' not in fh.read(), f"{f} writes the --fail-on values out"


def test_the_week0_gate_is_the_week0_verdict(tmp_path):
    """week0 fails exactly on a Week-0 reject, whatever the severities; with a severity, either trips it."""
    from casefixtures import materialise

    from checker.engine.pipeline import run_check

    short = materialise({"name": "short", "patch": [{"set": {
        "file": "{curve}/r1/system_desc.json", "path": ["config_summary"], "value": "DP8"}}]}, str(tmp_path / "a"))
    flagged = materialise({"name": "flagged", "patch": [{"set": {
        "file": "{curve}/r8/point.yaml", "path": ["concurrency"], "value": 9}}]}, str(tmp_path / "b"))
    for pkg, fail_on, code in ((short, "week0", 1), (short, "reject", 0), (short, "reject,week0", 1),
                               (flagged, "week0", 0), (flagged, "flag,week0", 1), (flagged, "never", 0)):
        report = run_check([pkg], fail_on=parse_fail_on(fail_on))
        assert report.exit_code() == code, (pkg, fail_on)
    report = run_check([short], fail_on="week0")
    assert [f.rule_id for f in report.failing()] == ["week0-check"] and report.week0_reject
    from checker import check

    assert check(short, fail_on=["reject", "week0"]).summary.exit_code == 1
    with pytest.raises(ValueError, match="is not one of .* Did you mean: week0"):
        check(short, fail_on="week1")
