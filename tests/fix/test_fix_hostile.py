"""--fix where writing is unsafe or impossible: it fails cleanly, says why, and loses nothing.

A read-only folder (an immutable directory, and a 0555 directory for a root process without its
override capabilities), a file replaced while the fix is written or changed after the check read it,
a directory swapped for a symlink, symlinks out of the package, read-only files. In every case the
file keeps its bytes (or the bytes someone else wrote), no temporary file is left, the report's
``fix`` section names the file with the reason and the exit code is 1. Tests run as root, so
permissions alone prove nothing: chattr and dropped capabilities make the refusal real.
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

from casefixtures import FIXTURES, PLACEHOLDERS, REPO

R64 = os.path.join(PLACEHOLDERS["{curve}"], "r64")


def _package(parent) -> str:
    root = os.path.join(str(parent), "pkg")
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    path = os.path.join(root, R64, "point.yaml")
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text.replace("concurrency: 64\n", "concurrency: 64.0\n", 1))
    return root


def _fix(parent, before_rename=None):
    from checker.cli import fixing
    from checker.engine.pipeline import run_check

    here = os.getcwd()
    os.chdir(str(parent))
    try:
        return fixing.run("fix", lambda bundle, reads=None: run_check(["pkg"], reads=reads), ["pkg"], None, before_rename=before_rename)[0]
    finally:
        os.chdir(here)


def _bytes(path) -> bytes:
    with open(path, "rb") as fh:
        return fh.read()


def _leftovers(root) -> list:
    return [os.path.join(d, f) for d, _, files in os.walk(root) for f in files if f.endswith(".fix-tmp")]


def _not_fixed(report) -> dict:
    files = report.sections["fix"]["files"]
    assert len(files) == 1 and files[0]["status"] == "not-fixed", files
    assert report.exit_code() == 1
    return files[0]


def test_the_fix_is_written_and_keeps_the_files_mode(tmp_path):
    root = _package(tmp_path)
    path = os.path.join(root, R64, "point.yaml")
    os.chmod(path, 0o640)
    report = _fix(tmp_path)
    assert report.sections["fix"]["files"][0]["status"] == "fixed"
    assert b"concurrency: 64\n" in _bytes(path)
    assert os.stat(path).st_mode & 0o7777 == 0o640
    assert report.exit_code() == 0 and not _leftovers(root)


def _chattr(flag: str, path: str) -> bool:
    try:
        return subprocess.run(["chattr", flag, path], capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("chattr"), reason="needs root and chattr")
def test_a_read_only_folder_immutable_even_to_root(tmp_path):
    root = _package(tmp_path)
    folder = os.path.join(root, R64)
    before = _bytes(os.path.join(folder, "point.yaml"))
    if not _chattr("+i", folder):
        pytest.skip("this file system does not support the immutable attribute")
    try:
        report = _fix(tmp_path)
    finally:
        _chattr("-i", folder)
    entry = _not_fixed(report)
    assert entry["reason"].startswith("cannot write it: ")
    assert _bytes(os.path.join(folder, "point.yaml")) == before
    assert not _leftovers(root)


@pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("capsh"), reason="needs root and capsh")
@pytest.mark.slow
def test_a_read_only_folder_for_a_process_without_override_capabilities(tmp_path):
    root = _package(tmp_path)
    folder = os.path.join(root, R64)
    before = _bytes(os.path.join(folder, "point.yaml"))
    os.chmod(folder, 0o555)
    out = tmp_path / "report.json"
    cmd = f"{sys.executable} -m checker check pkg --fix -f json -o {out}"
    try:
        proc = subprocess.run(["capsh", "--drop=cap_dac_override,cap_dac_read_search,cap_fowner", "--", "-c", cmd],
                              cwd=str(tmp_path), capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PYTHONPATH=REPO))
    finally:
        os.chmod(folder, 0o755)
    if "Operation not permitted" in proc.stderr and "capsh" in proc.stderr:
        pytest.skip("capabilities cannot be dropped here")
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(out.read_text())
    entry, = doc["fix"]["files"]
    assert entry["status"] == "not-fixed" and "Permission denied" in entry["reason"], entry
    assert doc["summary"]["exit_code"] == 1
    assert "was not fixed" in proc.stderr and "the file is as it was" in proc.stderr
    assert _bytes(os.path.join(folder, "point.yaml")) == before
    assert not _leftovers(root)


def test_a_file_replaced_while_the_fix_is_written_keeps_the_new_content(tmp_path):
    root = _package(tmp_path)
    path = os.path.join(root, R64, "point.yaml")
    theirs = b"concurrency: 64\n# replaced by someone else\n"

    def replace(real):
        tmp = real + ".theirs"
        with open(tmp, "wb") as fh:
            fh.write(theirs)
        os.replace(tmp, real)

    entry = _not_fixed(_fix(tmp_path, before_rename=replace))
    assert entry["reason"] == "it changed while the fix was being written"
    assert _bytes(path) == theirs
    assert not _leftovers(root)


def test_a_file_changed_after_the_check_read_it_is_not_touched(tmp_path, monkeypatch):
    from checker.fix import engine

    root = _package(tmp_path)
    path = os.path.join(root, R64, "point.yaml")
    before = _bytes(path)
    original = engine.fix_rounds

    def rounds(check, roots):
        out = original(check, roots)
        with open(path, "ab") as fh:
            fh.write(b"# edited meanwhile\n")
        return out

    monkeypatch.setattr(engine, "fix_rounds", rounds)
    entry = _not_fixed(_fix(tmp_path))
    assert entry["reason"] == "it changed since the check read it"
    assert _bytes(path) == before + b"# edited meanwhile\n"


def test_a_directory_swapped_for_a_symlink_is_not_written_through(tmp_path, monkeypatch):
    from checker.fix import engine

    root = _package(tmp_path)
    folder = os.path.join(root, R64)
    moved = os.path.join(str(tmp_path), "elsewhere")
    original = engine.fix_rounds

    def rounds(check, roots):
        out = original(check, roots)
        os.rename(folder, moved)
        os.symlink(moved, folder)
        return out

    monkeypatch.setattr(engine, "fix_rounds", rounds)
    entry = _not_fixed(_fix(tmp_path))
    assert entry["reason"].startswith("cannot write it: ") or "symlink" in entry["reason"]
    assert b"concurrency: 64.0\n" in _bytes(os.path.join(moved, "point.yaml"))
    assert not _leftovers(moved)


def test_a_symlink_out_of_the_package_is_never_followed(tmp_path):
    root = _package(tmp_path)
    outside = tmp_path / "outside.yaml"
    shutil.move(os.path.join(root, R64, "point.yaml"), outside)
    os.symlink(outside, os.path.join(root, R64, "point.yaml"))
    before = outside.read_bytes()
    report = _fix(tmp_path)
    assert outside.read_bytes() == before
    assert report.sections["fix"]["files"] == []
    assert any(f.rule_id == "symlink-escape" and f.status.value == "FAIL" for f in report.findings)


def test_a_symlink_inside_the_package_fixes_its_target_and_stays_a_link(tmp_path):
    root = _package(tmp_path)
    link = os.path.join(root, R64, "point.yaml")
    target = os.path.join(root, R64, "point-shared.yaml")
    shutil.move(link, target)
    os.symlink("point-shared.yaml", link)
    report = _fix(tmp_path)
    assert report.sections["fix"]["files"][0]["status"] == "fixed"
    assert os.path.islink(link) and os.readlink(link) == "point-shared.yaml"
    assert b"concurrency: 64\n" in _bytes(target)


def test_a_path_outside_the_roots_is_refused_by_the_writer(tmp_path):
    from checker.fix.write import FixRefused, real_target

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "f.yaml").write_text("x: 1\n")
    os.symlink(tmp_path / "b" / "f.yaml", tmp_path / "a" / "f.yaml")
    with pytest.raises(FixRefused):
        real_target(str(tmp_path / "a" / "f.yaml"), [str(tmp_path / "a")])
    assert real_target(str(tmp_path / "b" / "f.yaml"), [str(tmp_path / "b")]) == str(tmp_path / "b" / "f.yaml")


def test_a_read_only_file_is_left_alone(tmp_path):
    root = _package(tmp_path)
    path = os.path.join(root, R64, "point.yaml")
    before = _bytes(path)
    os.chmod(path, 0o444)
    try:
        entry = _not_fixed(_fix(tmp_path))
    finally:
        os.chmod(path, 0o644)
    assert entry["reason"] == "it is read-only"
    assert _bytes(path) == before
