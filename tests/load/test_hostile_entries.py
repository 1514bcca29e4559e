"""Every entry the rules read or the bundle carries is read or reported (issue 28), and never opened when it
cannot be: FIFOs, sockets, devices, directories where a file is expected, dangling, looping and escaping
symlinks, empty files, and (without the permission capabilities) unreadable files and directories."""
import json
import os
import shutil
import socket
import stat

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hostile_gen import CURVE, NO_DAC, REAL_RUNS, OpenRecorder, can_drop_dac, copy_valid, run_cli, slow

OUTSIDE = "/etc/hostname"
#: kind -> words one of which the finding says
KINDS = {
    "fifo": ("FIFO",), "socket": ("socket",), "device": ("device",), "directory": ("directory",),
    "dangling": ("dangling symlink",), "loop": ("symlink loop", "symlink cycle"), "outside": ("outside",),
    "empty": ("empty",),
}
#: entries the bundle carries, and the kinds each must report ("directory": only where a file is expected;
#: "empty": only documentation, a README, cli_metadata.json)
TARGETS = {
    "src/trtllm/README.md": set(KINDS),
    "docs/README.md": set(KINDS),
    "cli_metadata.json": set(KINDS),
    "docs/software_disclosure.md": set(KINDS),
    "docs/guides/setup.md": set(KINDS) - {"directory"},
    "src/trtllm/tools/run.sh": set(KINDS) - {"directory", "empty"},
    f"{CURVE}/r8/server_configs/engine.yaml": set(KINDS) - {"directory", "empty"},
    f"{CURVE}/r8/notes.txt": set(KINDS) - {"directory", "empty"},
}
MATRIX = sorted((t, k) for t, kinds in TARGETS.items() for k in kinds)


def make(kind: str, path: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if os.path.lexists(path):
        shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "socket":  # bound by its short name: a socket path may hold only about 100 bytes
        here = os.getcwd()
        os.chdir(os.path.dirname(path))
        try:
            s = socket.socket(socket.AF_UNIX)
            s.bind(os.path.basename(path))
            s.close()
        finally:
            os.chdir(here)
    elif kind == "device":
        os.mknod(path, stat.S_IFCHR | 0o644, os.makedev(1, 3))  # /dev/null's numbers
    elif kind == "directory":
        os.makedirs(path)
    elif kind == "dangling":
        os.symlink("nowhere-" + os.path.basename(path), path)
    elif kind == "loop":
        os.symlink(os.path.basename(path), path)
    elif kind == "outside":
        os.symlink(OUTSIDE, path)
    elif kind == "empty":
        open(path, "w").close()


def _problem_findings(report, target):
    name = os.path.basename(target)
    return [f for f in report.findings if f.status.value == "FAIL"
            and (name in f.message or name in f.subject.entry or (f.location and f.location.file.endswith(name)))]


def _check_one(tmp, target, kind):
    from checker.engine.pipeline import run_check

    root = copy_valid(os.path.join(tmp, "sub"))
    path = os.path.join(root, target)
    make(kind, path)
    if kind == "device" and not os.path.exists(path):
        pytest.skip("no mknod here")
    with OpenRecorder() as rec:
        report = run_check([root], select=["loading", "structure"])
    found = _problem_findings(report, target)
    words = KINDS[kind]
    assert any(any(w in f.message for w in words) for f in found), (target, kind, [(f.rule_id, f.message) for f in found])
    opened = [p for p in rec.paths if os.path.realpath(p) == OUTSIDE or (p == path and kind not in ("directory", "empty"))]
    assert not opened, opened  # special files, escaping links and unusable entries are never opened
    return found


@pytest.mark.parametrize("target,kind", [(t, k) for t, k in MATRIX if t in ("src/trtllm/README.md", "docs/README.md",
                                                                            "cli_metadata.json")])
def test_the_issues_entries_each_get_a_finding(tmp_path, target, kind):
    """The issue's list: src/<impl>/README.md, docs/README.md and cli_metadata.json, each kind."""
    found = _check_one(str(tmp_path), target, kind)
    severities = {f.severity.value for f in found}
    if kind == "empty":
        assert severities == {"warn"}  # present, as the rules ask; it documents nothing
    else:
        assert "reject" in severities


@slow(10)
@given(st.sampled_from([(t, k) for t, k in MATRIX if t not in ("src/trtllm/README.md", "docs/README.md",
                                                                "cli_metadata.json")]))
@pytest.mark.slow
def test_any_carried_entry_of_any_kind(tmp_path_factory, tk):
    _check_one(str(tmp_path_factory.mktemp("e")), *tk)


@pytest.mark.parametrize("entry,kind", [("report.txt", "fifo"), ("report.txt", "dangling"), ("report.txt", "directory"),
                                        ("report.txt", "outside"), ("report.txt", "empty"),
                                        ("metrics/final_snapshot.json", "empty"),
                                        ("performance/result_summary.json", "empty")])
def test_run_folder_entries(tmp_path, entry, kind):
    from checker.engine.pipeline import run_check

    rf = str(tmp_path / "run")
    shutil.copytree(os.path.join(REAL_RUNS, "var_poisson_perf"), rf)
    make(kind, os.path.join(rf, entry))
    with OpenRecorder() as rec:
        report = run_check([rf], select=["run-folder-files", "loading"])
    found = [f for f in report.findings if f.status.value == "FAIL"]
    assert any(entry in f.message or entry == f.subject.entry for f in found), [(f.rule_id, f.message) for f in found]
    assert not [p for p in rec.paths if os.path.realpath(p) == OUTSIDE]


def test_a_large_tree_is_inspected_within_the_budget(tmp_path, monkeypatch):
    """Beyond the entry budget the rest is named once (a warning), never walked."""
    import checker.load.carried as carried
    from checker.engine.pipeline import run_check

    monkeypatch.setattr(carried, "MAX_ENTRIES", 50)
    root = copy_valid(str(tmp_path / "sub"))
    for i in range(80):
        open(os.path.join(root, "src", "trtllm", f"f{i:03d}.py"), "w").close()
    os.mkfifo(os.path.join(root, "src", "trtllm", "zz-late-fifo"))
    report = run_check([root], select=["structure", "loading"])
    junk = [f for f in report.findings if f.rule_id == "unexpected-entry" and "not inspected" in f.message]
    assert len(junk) == 1 and junk[0].severity.value == "warn"


# ---------------------------------------------------------------------------------------------------------
# permissions: root reads everything, so the child runs without the permission capabilities


PERMISSIONS = {  # submission -> (path inside it, mode)
    "docs-000": ("docs", 0o000),
    "docs-111": ("docs", 0o111),
    "docs-444": ("docs", 0o444),
    "docs-file-000": ("docs/software_disclosure.md", 0o000),
    "readme-000": ("src/trtllm/README.md", 0o000),
    "impl-444": ("src/trtllm", 0o444),
    "server-configs-000": (f"{CURVE}/r8/server_configs", 0o000),
    "cli-metadata-000": ("cli_metadata.json", 0o000),
}


@pytest.mark.skipif(not can_drop_dac(), reason="setpriv cannot drop the permission capabilities here")
@pytest.mark.slow
def test_unreadable_entries_for_real(tmp_path):
    """One cohort run, one submission per case: each names its entry (before: docs/ 000/111/444 passed)."""
    org = tmp_path / "acme"
    for name, (rel, mode) in PERMISSIONS.items():
        root = copy_valid(str(org / name))
        p = os.path.join(root, rel)
        if not os.path.exists(p):
            os.makedirs(p) if "." not in os.path.basename(p) else open(p, "w").write("{}\n")
        os.chmod(p, mode)
    out = tmp_path / "r.json"
    try:
        rc, _o, stderr, cpu, mb = run_cli(["check", str(org), "-f", "json", "-o", str(out)], wrap=NO_DAC, timeout=120)
    finally:
        for dirpath, dirs, files in os.walk(tmp_path):
            for d in dirs:
                os.chmod(os.path.join(dirpath, d), 0o755)
    assert "Traceback" not in stderr, stderr
    doc = json.loads(out.read_text())
    assert rc == doc["summary"]["exit_code"] == 1
    for name, (rel, _mode) in PERMISSIONS.items():
        mine = [f for f in doc["findings"] if f["subject"]["submission"] == f"acme/{name}" and f["status"] == "FAIL"
                and f["severity"] == "reject"]
        said = " ".join(f["message"] + " " + f["subject"]["entry"] for f in mine)
        assert os.path.basename(rel) in said and "permission denied" in said.lower(), (name, said)
    assert cpu < 20 and mb < 400, (cpu, mb)
