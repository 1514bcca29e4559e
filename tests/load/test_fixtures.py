"""fixtures/valid is exactly what fixtures/make_valid.py generates (no hand edits drift in)."""
import filecmp
import os
import sys

from casefixtures import FIXTURES

sys.path.insert(0, FIXTURES)


def _tree(root):
    out = []
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for f in sorted(files):
            out.append(os.path.relpath(os.path.join(dirpath, f), root))
    return out


def test_valid_fixture_matches_generator(tmp_path):
    import make_valid

    make_valid.build(str(tmp_path / "valid"))
    committed = os.path.join(FIXTURES, "valid")
    assert _tree(committed) == _tree(tmp_path / "valid"), "run `make fixtures`"
    for rel in _tree(committed):
        assert filecmp.cmp(os.path.join(committed, rel), tmp_path / "valid" / rel, shallow=False), \
            f"{rel} differs from the generator: run `make fixtures`"


def test_spread_points_builds_a_32_point_curve(tmp_path):
    import make_valid
    from checker.engine.api import run_check

    make_valid.build(str(tmp_path / "big"), make_valid.spread_points(32))
    report = run_check([str(tmp_path / "big")])
    points = {f.subject.point for f in report.findings if f.subject.point}
    assert len(points) == 32
