"""Golden diffs of each fix kind on unusual YAML and JSON (tests/support/fix_goldens.py), and what they fix.

For every case: ``--diff`` prints exactly the golden diff; ``--fix`` on a fresh copy leaves a package
with no FAIL at all (the base is clean, so every finding the spoiling caused is gone and none was
added); and the golden diff applied with ``patch -p1`` gives byte for byte what ``--fix`` wrote.
"""
import filecmp
import os
import shutil
import subprocess

import pytest
import yaml

from fix_goldens import CASES, GOLDEN_FIXES, UNUSUAL, POINT, fix_diff, materialise

#: cases whose fix puts back exactly the data of the unspoilt file
RESTORES = {c for c in CASES if not c.startswith("region-")}


def _golden(case: str) -> str:
    with open(os.path.join(GOLDEN_FIXES, f"{case}.diff"), encoding="utf-8", newline="") as fh:
        return fh.read()


def _fix(parent: str):
    from checker.cli import fixing
    from checker.engine.pipeline import run_check

    here = os.getcwd()
    os.chdir(parent)
    try:
        return fixing.run("fix", lambda bundle, reads=None: run_check(["pkg"], reads=reads), ["pkg"], None)[0]
    finally:
        os.chdir(here)


def _same_tree(a: str, b: str) -> list[str]:
    out = []
    cmp = filecmp.dircmp(a, b)
    out += [os.path.join(a, x) for x in cmp.left_only + cmp.right_only + cmp.diff_files + cmp.funny_files]
    for sub in cmp.common_dirs:
        out += _same_tree(os.path.join(a, sub), os.path.join(b, sub))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.slow
def test_diff_is_the_golden_one_and_fix_writes_it(case, tmp_path):
    text, section = fix_diff(case, str(tmp_path / "diff"))
    assert text == _golden(case), f"make golden, then review tests/golden/fixes/{case}.diff"
    assert text and section["not_fixed"] == 0 and section["findings"] >= 1

    fixed = tmp_path / "fix"
    materialise(case, str(fixed))
    report = _fix(str(fixed))
    fails = [f"{f.rule_id}: {f.message}" for f in report.findings if f.status.value == "FAIL"]
    assert not fails, fails
    assert report.sections["fix"]["files"][0]["status"] == "fixed"
    if case in RESTORES and CASES[case][0] == POINT:
        with open(UNUSUAL, encoding="utf-8") as fh:
            want = yaml.safe_load(fh)
        with open(fixed / "pkg" / POINT, encoding="utf-8") as fh:
            assert yaml.safe_load(fh) == want

    patched = tmp_path / "patch"
    materialise(case, str(patched))
    proc = subprocess.run(["patch", "-p1", "--binary", "--no-backup-if-mismatch", "-s"], input=text.encode("utf-8"),
                          cwd=patched, capture_output=True, timeout=60)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert _same_tree(str(patched / "pkg"), str(fixed / "pkg")) == []


def test_every_golden_has_its_case():
    names = {n[:-5] for n in os.listdir(GOLDEN_FIXES) if n.endswith(".diff")}
    assert names == set(CASES)


def test_crlf_stays_crlf_and_the_mark_is_dropped_whole(tmp_path):
    crlf = _golden("region-missing-crlf")
    added = [ln for ln in crlf.split("\n") if ln.startswith("+") and not ln.startswith("+++")]
    assert added == ["+region: med_concurrency\r"]
    bom = _golden("json-byte-order-mark")
    assert "-\ufeff{\n+{\n" in bom
    shutil.rmtree(tmp_path, ignore_errors=True)
