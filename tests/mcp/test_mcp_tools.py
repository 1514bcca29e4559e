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


def test_the_result_formats_the_reports_tally():
    """Verdicts and counts are the engine's (Report.tally), never counted again from the findings."""
    from checker.mcp import adapter

    report = adapter.run_check([VALID])
    res = tools.result_of(report, ["passed", "skipped"])
    t = report.tally
    assert res.week0.verdict == t.week0["verdict"] and res.week0.points == t.week0["points"]
    assert res.week0.source == "model"  # no installed official decided: predicted
    assert res.rules_verdict == t.rules and res.verdict == t.gate and res.counts.by_level == t.counts.levels()
    assert [(u.label, u.rules_verdict, u.week0.verdict) for u in res.submissions] == \
        [(v.label, v.rules, v.week0["verdict"]) for v in t.units.values()]
    assert len(res.findings) == t.counts.passed + t.counts.skipped and res.findings[0].level == "skipped"


def test_findings_worst_first_so_a_cap_keeps_the_worst(tmp_path):
    """max_findings: 3 of a package with errors, flags and warnings lists three errors."""
    import shutil

    from checker.mcp import adapter

    root = tmp_path / "acme" / "pkg"
    shutil.copytree(VALID, root)
    curve = root / "results" / "H200-SXM-141GBx8_TRT" / "llama3_1-8b"
    for point in ("r64", "r256", "r1024"):  # an error at each, after the warnings in the report's order
        (curve / point / "result_summary.json").unlink()
    point = curve / "r8" / "point.yaml"
    point.write_text(point.read_text().replace("concurrency: 8\n", "concurrency: 8.0\n", 1))  # a fixable warning
    (root / "notes.txt").write_text("left over\n")  # a warning
    report = adapter.run_check([str(root)])
    assert report.tally.counts.errors >= 3 and report.tally.counts.warn
    # the report's own order (by subject) opens with a warning: a cap over it would drop errors
    assert [f for f in report.findings if f.status.value == "FAIL"][0].severity.value == "warn"
    res = tools.result_of(report, None, max_findings=3)
    assert [f.level for f in res.findings] == ["error"] * 3
    assert res.findings_not_listed == report.tally.counts.failed - 3
    every = tools.result_of(report, None)
    ranks = [("error", "flag", "warning").index(f.level) for f in every.findings]
    assert ranks == sorted(ranks)
    fixable = [f for f in every.findings if f.fixable]
    assert fixable and all(f.edits for f in fixable) and all(not f.edits for f in every.findings if not f.fixable)
    assert fixable[0].edits[0].new == "8" and fixable[0].edits[0].old == "8.0"
    assert every.counts.fixable == len(fixable)


def test_unknown_selectors_levels_and_seed_sets_are_refused():
    roots = [os.path.realpath(VALID)]
    with pytest.raises(tools.ToolUsage, match="seeds"):
        tools.check_submission(roots, VALID, select=["seedz"])
    with pytest.raises(tools.ToolUsage, match="levels"):
        tools.check_submission(roots, VALID, levels=["fatal"])
    res = tools.check_submission(roots, VALID, select=["seeds"], max_findings=3, levels=["passed"])
    assert len(res.findings) == 3 and res.findings_not_listed > 0
    assert {f.family for f in res.findings} == {"seeds"}
