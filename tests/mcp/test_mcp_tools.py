"""The SDK-free parts in-process: the roots guard, and a report carrying the Week-0 prediction (summary.week0)."""
import os

import pytest

from checker.mcp import tools
from checker.mcp.roots import PathRefused, guard, roots_of

from mcp_session import VALID


def test_roots_of_file_uris_else_the_working_directory(tmp_path):
    assert roots_of(None, str(tmp_path)) == [os.path.realpath(tmp_path)]
    assert roots_of([f"file://{tmp_path}/a%20b", "https://example.org/x"]) == [os.path.realpath(tmp_path / "a b")]
    assert roots_of(["https://example.org/x"]) == []  # roots declared, none a local folder: nothing is inside


def test_guard_resolves_before_comparing(tmp_path):
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (tmp_path / "secret").mkdir()
    os.symlink(tmp_path / "secret", root / "escape")
    os.symlink(root / "pkg", root / "alias")
    roots = [os.path.realpath(root)]
    assert guard(str(root / "alias"), roots) == os.path.realpath(root / "pkg")
    for bad in (str(root / "escape"), str(root / "pkg" / ".." / ".."), str(tmp_path / "root-sibling")):
        with pytest.raises(PathRefused, match="outside the client's roots"):
            guard(bad, roots)
    with pytest.raises(PathRefused, match="does not exist"):
        guard(str(root / "nothing"), roots)
    for bad in ("", "a\0b"):
        with pytest.raises(PathRefused):
            guard(bad, roots)
    with pytest.raises(PathRefused):  # an inside root's name as a prefix is not inside it
        guard(str(tmp_path / "root2"), roots)


def test_a_report_with_the_week0_prediction(monkeypatch):
    from checker.mcp import adapter

    doc = adapter.run_check([VALID])
    doc["summary"]["week0"] = {"tool": "endpoints-submission-cli 1.5.3.0", "verdict": "reject-points",
                               "points": ["H200/llama/r64"], "rules": ["seed-runtime-match"]}
    doc["summary"]["rules_verdict"] = "reject-points"
    doc["findings"][0]["week0"] = True
    res = tools.result_of(doc, ["passed", "skipped"])
    assert res.week0.verdict == "reject-points" and res.week0.points == ["H200/llama/r64"]
    assert res.rules_verdict == "reject-points" and res.findings[0].week0 is True
    del doc["summary"]["week0"], doc["summary"]["rules_verdict"]
    res = tools.result_of(doc, None)
    assert res.week0 is None and res.rules_verdict == "accept" and res.findings == []


def test_unknown_selectors_levels_and_seed_sets_are_refused():
    roots = [os.path.realpath(VALID)]
    with pytest.raises(tools.ToolUsage, match="seeds"):
        tools.check_submission(roots, VALID, select=["seedz"])
    with pytest.raises(tools.ToolUsage, match="levels"):
        tools.check_submission(roots, VALID, levels=["fatal"])
    res = tools.check_submission(roots, VALID, select=["seeds"], max_findings=3, levels=["passed"])
    assert len(res.findings) == 3 and res.findings_not_listed > 0
    assert {f.family for f in res.findings} == {"seeds"}
