"""PATH at the wrong level, a run folder pasted into a point, repository entries and --exclude
(issue 16)."""
from __future__ import annotations

import os
import shutil

import pytest

from casefixtures import materialise
from clirun import CURVE, cli

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


@pytest.fixture(scope="module")
def pkg(tmp_path_factory):
    return materialise({"name": "pkg", "patch": []}, str(tmp_path_factory.mktemp("placement")))


@pytest.mark.parametrize("sub,what", [
    (f"{CURVE}/r64", "a point directory"),
    (CURVE, "a model (curve) directory"),
    ("results/H200-SXM-141GBx8_TRT", "a system directory"),
    ("results", "the results/ directory"),
    ("docs", "the docs/ directory"),
])
def test_a_path_inside_a_package_names_the_root_to_check(pkg, sub, what):
    p = cli("check", os.path.join(pkg, sub))
    assert p.returncode == 2
    assert f"this is {what} of the submission package at {pkg}: check {pkg} instead" in p.stderr
    assert "performance/" not in p.stdout  # never the flat-run-folder advice


def test_a_point_copied_out_of_its_package_is_not_a_run_folder(pkg, tmp_path):
    lone = tmp_path / "r64"
    shutil.copytree(os.path.join(pkg, CURVE, "r64"), lone)
    p = cli("check", str(lone))
    assert p.returncode == 2
    assert "this is a point directory of a submission package" in p.stderr
    assert "results/<system>/<model>/r64/" in p.stderr
    curve = tmp_path / "curve"
    shutil.copytree(os.path.join(pkg, CURVE), curve)
    p = cli("check", str(curve))
    assert p.returncode == 2 and "holds point directories of a submission package (r1/, r4/, r8/, r32/, …)" in p.stderr


def test_a_run_folder_pasted_into_a_point_names_the_moves(tmp_path):
    from casefixtures import REAL_RUNS

    run = os.path.join(REAL_RUNS, "var_poisson_perf")
    root = materialise({"name": "pasted", "patch": [{"remove": "{curve}/r64/result_summary.json"},
                                                    {"remove": "{curve}/r64/config.yaml"}]}, str(tmp_path))
    shutil.copytree(run, os.path.join(root, CURVE, "r64", "run1"))
    out = cli("check", root).stdout
    assert ("error result-summary-present result_summary.json is missing: it is one level down, at "
            "r64/run1/performance/result_summary.json") in out
    assert "    fix: Move r64/run1/performance/result_summary.json to r64/result_summary.json." in out.splitlines()
    assert ("move r64/run1/performance/result_summary.json to r64/result_summary.json, "
            "r64/run1/config.yaml to r64/config.yaml, then delete r64/run1/") in out


def test_repository_entries_are_not_package_entries(tmp_path):
    repo = tmp_path / "repo"
    root = materialise({"name": "repo", "patch": []}, str(tmp_path))
    for d in (".git", ".github/workflows"):
        os.makedirs(os.path.join(root, d))
    for f in (".pre-commit-config.yaml", "README.md", ".gitignore"):
        (repo / f).write_text("x\n")
    p = cli("check", str(repo), "--fail-on", "warn")  # the repository's top is the submission root
    assert p.returncode == 0, p.stdout
    org = tmp_path / "org"
    materialise({"name": "sub1", "patch": []}, str(org))
    for d in (".git", ".github"):
        os.makedirs(org / d)
    (org / "README.md").write_text("x\n")
    (org / ".pre-commit-config.yaml").write_text("x\n")
    p = cli("check", str(org), "--fail-on", "warn")  # above the submission roots
    assert p.returncode == 0, p.stdout
    (org / "sub1" / "README.md").write_text("x\n")  # not a repository's top: still an unexpected entry
    assert cli("check", str(org), "--fail-on", "warn").returncode == 1


def test_exclude_leaves_entries_out(tmp_path):
    root = materialise({"name": "pkg", "patch": [{"write": {"file": "notes.txt", "text": "x\n"}},
                                                 {"copy": {"from": "{curve}/r8", "to": "{curve}/r8_old"}}]},
                       str(tmp_path))
    assert cli("check", root, "--fail-on", "warn").returncode == 1
    p = cli("check", root, "--fail-on", "warn", "--exclude", "notes.txt", "--exclude", f"{CURVE}/r8_*")
    assert p.returncode == 0, p.stdout
