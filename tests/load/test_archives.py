"""Run archives (.tar.gz) read in place as run folders (issue 19): the same report as the extracted folder,
and the limits: member count, total size, nothing outside the archive root, links judged by the loader."""
import io
import os
import tarfile

import pytest

from cohortfixture import build_cohort
from daskfixture import REAL_RUNS, archive
from golden import scrub

from checker.core.findings import Status


def _run(paths, **kw):
    from checker.engine.pipeline import run_check

    return run_check(paths, jobs=1, **kw)


def _json(report):
    from checker.render import render

    return scrub(render("json", report))


def _tar(path, members):
    """Write ``members`` [(name, kind, payload)] as a .tar.gz; kind: file, dir, sym, link, fifo."""
    with tarfile.open(path, "w:gz") as tf:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                data = payload.encode() if isinstance(payload, str) else payload
                info.size = len(data)
                tf.addfile(info, io.BytesIO(data))
                continue
            info.type = {"dir": tarfile.DIRTYPE, "sym": tarfile.SYMTYPE, "link": tarfile.LNKTYPE,
                         "fifo": tarfile.FIFOTYPE}[kind]
            info.linkname = payload or ""
            tf.addfile(info)
    return str(path)


def _base(top="run1/"):
    with open(os.path.join(REAL_RUNS, "var_poisson_perf", "config.yaml"), encoding="utf-8") as fh:
        config = fh.read()
    return [(top + "config.yaml", "file", config), (top + "events.jsonl", "file", "")]


@pytest.mark.parametrize("name", ["var_poisson_perf", "echo_accuracy_only"])
def test_an_archive_reads_like_its_extracted_folder(tmp_path, name):
    packed = archive(os.path.join(REAL_RUNS, name), str(tmp_path / f"{name}.tar.gz"))
    got = _json(_run([packed]))
    want = _json(_run([os.path.join(REAL_RUNS, name)]))
    assert got.replace(packed, "RUN") == want.replace(os.path.join(REAL_RUNS, name), "RUN")


@pytest.mark.parametrize("members,why", [
    ([("../evil.yaml", "file", "x")], "outside the archive root"),
    ([("/etc/evil.yaml", "file", "x")], "outside the archive root"),
    ([("run1/performance", "sym", "/tmp"), ("run1/performance/result_summary.json", "file", "{}")],
     "lies under a link member"),
    ([("run1/config.yaml", "file", "a: 1"), ("run1/config.yaml", "file", "a: 2")], "appears twice"),
    ([("run1/x", "link", "../../etc/passwd")], "outside the archive root"),
])
def test_an_archive_member_leaving_the_root_refuses_the_archive(tmp_path, members, why):
    packed = _tar(tmp_path / "bad.tar.gz", _base() + members)
    report = _run([packed])
    assert report.input_error and report.exit_code() == 2
    ((path, message),) = report.package.unusable_paths
    assert path == packed and why in message
    assert not os.path.exists("/tmp/result_summary.json")


def test_member_count_and_total_size_are_limited(tmp_path, monkeypatch):
    import checker.load.archive as ar

    packed = _tar(tmp_path / "many.tar.gz", _base() + [(f"run1/f{i}.txt", "file", "x" * 100) for i in range(8)])
    monkeypatch.setattr(ar, "MAX_MEMBERS", 5)
    assert "more than 5 members" in _run([packed]).package.unusable_paths[0][1]
    monkeypatch.setattr(ar, "MAX_MEMBERS", 1000)
    monkeypatch.setattr(ar, "MAX_TOTAL_BYTES", 500)
    assert "exceed 500 bytes" in _run([packed]).package.unusable_paths[0][1]


@pytest.mark.parametrize("data,why", [(b"not gzip at all", "not a readable .tar.gz archive"),
                                      (None, "not a readable .tar.gz archive")])
def test_a_broken_archive_is_refused_not_a_crash(tmp_path, data, why):
    path = tmp_path / "broken.tar.gz"
    if data is None:  # a good archive cut in half
        whole = open(archive(os.path.join(REAL_RUNS, "var_poisson_perf"), str(tmp_path / "w.tar.gz")), "rb").read()
        data = whole[: len(whole) // 2]
    path.write_bytes(data)
    ((_, message),) = _run([str(path)]).package.unusable_paths
    assert why in message


def test_links_inside_the_archive_are_judged_by_the_loader_never_followed(tmp_path):
    packed = _tar(tmp_path / "links.tar.gz", _base() + [
        ("run1/performance/result_summary.json", "sym", "/etc/passwd"),
        ("run1/system_desc.json", "fifo", None),
    ])
    report = _run([packed])
    escapes = [f for f in report.findings if f.rule_id == "symlink-escape" and f.status is Status.FAIL]
    assert escapes and "outside" in escapes[0].message
    assert any("not a regular file" in f.message for f in report.findings if f.status is Status.FAIL)
    assert "root:x:0:0" not in _json(report)


def test_a_refused_archive_in_a_cohort_is_a_fail_naming_it(tmp_path):
    cohort = build_cohort(str(tmp_path))
    bad = _tar(os.path.join(cohort, "bad-run.tar.gz"), _base() + [("../../escape.yaml", "file", "x")])
    good = archive(os.path.join(REAL_RUNS, "echo_accuracy_only"), os.path.join(cohort, "good-run.tar.gz"))
    report = _run([cohort])
    crashed = [f for f in report.findings if f.rule_id == "submission-checked" and f.status is Status.FAIL]
    assert [f.subject.label() for f in crashed] == ["bad-run"]
    assert bad in crashed[0].message and "input refused: archive member" in crashed[0].message
    assert "outside the archive root" in crashed[0].message and "internal error" not in crashed[0].message
    assert any(f.subject.label() == "good-run" for f in report.findings)
    assert good
