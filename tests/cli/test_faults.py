"""Faults of a real machine (issue 38), each driven with the real process: a slow reader on a non-blocking
pipe, a reader that goes away, SIGINT/SIGTERM/SIGKILL to the parent of a ``-j 2`` cohort and to ``--fix``,
temporary files caught in the act, an HTML folder interrupted while it is built."""
import fcntl
import json
import os
import re
import signal
import time

import pytest

from faultproc import (CURVE, FIXTURES, VALID, alive_in_session, children, cohort, finish, handles_sigterm,
                       kill_session, spoil_for_fix, start, temporaries, wait_for, written_temporaries)

CORPUS = os.path.join(FIXTURES, "official-corpus")
#: seconds from the signal to the exit, on a loaded machine (the machine's own run takes a tenth of a second)
PROMPT = 5.0
_STAMP = re.compile(rb'\n  "generated_at": "[^"]*",')


# ---- every byte delivered, or an honest failure ----------------------------------------------------------

@pytest.mark.parametrize("fmt", ["json", "sarif", "text"])
def test_a_slow_reader_on_a_non_blocking_pipe_gets_every_byte(tmp_path, fmt):
    """Before: exactly 65,536 bytes arrived (the short count of a non-blocking write was ignored), exit 0 or 1."""
    args = ["check", CORPUS, "-f", fmt, "-j", "1"] + (["-v"] if fmt == "text" else [])
    ref = tmp_path / f"ref.{fmt}"
    expected_rc = start(args + ["-o", str(ref)]).wait(120)
    r, w = os.pipe()
    os.set_blocking(w, False)  # what an event loop or a CI runner hands its child
    proc = start(args, stdout=w)
    os.close(w)
    got = bytearray()
    while True:
        chunk = os.read(r, 4096)
        if not chunk:
            break
        got += chunk
        time.sleep(0.0002)  # slower than the writer
    os.close(r)
    rc, err, _ = finish(proc)
    expected = ref.read_bytes()
    assert len(expected) > 3 * 65536
    assert rc == expected_rc == 1 and err == ""
    assert _STAMP.sub(b"", bytes(got)) == _STAMP.sub(b"", expected)
    if fmt != "text":
        json.loads(got)


def test_a_reader_that_goes_away_is_exit_2_with_one_line(tmp_path):
    """Before: ``check ... -f json | head -c 10`` exited 0 or 1 with nothing on stderr."""
    r, w = os.pipe()
    proc = start(["check", VALID, "-f", "json"], stdout=w)
    os.close(w)
    assert os.read(r, 10)
    os.close(r)
    rc, err, _ = finish(proc)
    assert rc == 2
    assert err.splitlines() == ["error: cannot write the json report to standard output: Broken pipe"]


# ---- signals to the parent of a cohort ---------------------------------------------------------------------

def _all_gone(proc) -> bool:
    """Every process of the run's session has ended, within PROMPT seconds (a helper such as multiprocessing's
    resource tracker takes a moment to see its parent gone)."""
    deadline = time.monotonic() + PROMPT
    while alive_in_session(proc.pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def _cohort_run(tmp_path, jobs: str, *extra, size: int = 24):
    path = cohort(tmp_path, size)
    report = tmp_path / "report.json"
    report.write_text("OLD\n")
    proc = start(["check", path, "-f", "json", "-o", str(report), "-j", jobs, *extra])
    return proc, report


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_stops_a_cohort_at_once_with_its_workers(tmp_path, sig):
    """Before: SIGINT waited for every queued submission, printed ``Aborted!`` and exited 1; SIGTERM left the two
    workers running, holding stderr, so ``communicate()`` hung."""
    proc, report = _cohort_run(tmp_path, "2")
    try:
        assert wait_for(lambda: len(children(proc.pid)) >= 2, proc), "the workers never started"
        time.sleep(0.3)  # the workers are checking submissions, more are queued
        assert proc.poll() is None, "the cohort finished before the signal: make it bigger"
        os.kill(proc.pid, sig)
        rc, err, took = finish(proc)
    finally:
        kill_session(proc.pid)
    assert rc == 128 + sig and took < PROMPT
    assert err.splitlines() == [f"error: interrupted by {sig.name}; not written: {report} (json) (each file keeps "
                                "its previous content)"]
    assert report.read_text() == "OLD\n"
    assert _all_gone(proc)
    assert not temporaries(tmp_path, ".part")


def test_sigkill_to_the_parent_takes_the_workers_down(tmp_path):
    """Before: in 9 of 20 runs the workers outlived a SIGKILLed parent (re-parented to init, holding stderr)."""
    proc, report = _cohort_run(tmp_path, "2")
    try:
        assert wait_for(lambda: len(children(proc.pid)) >= 2, proc)
        time.sleep(0.3)
        os.kill(proc.pid, signal.SIGKILL)
        rc, _err, took = finish(proc)
        assert rc == -signal.SIGKILL and took < PROMPT
        assert _all_gone(proc)
    finally:
        kill_session(proc.pid)
    assert report.read_text() == "OLD\n"


def test_a_serial_run_stops_at_once_too(tmp_path):
    proc, report = _cohort_run(tmp_path, "1")
    try:
        assert wait_for(lambda: handles_sigterm(proc.pid), proc)
        time.sleep(0.5)
        assert proc.poll() is None
        os.kill(proc.pid, signal.SIGINT)
        rc, err, took = finish(proc)
    finally:
        kill_session(proc.pid)
    assert rc == 130 and took < PROMPT and err.startswith("error: interrupted by SIGINT")


@pytest.mark.parametrize("when", [0.0, 0.5], ids=["cluster-starting", "checking"])
def test_ctrl_c_to_a_dask_run_stops_it_with_its_cluster(tmp_path, when):
    """The terminal's Ctrl-C reaches the whole process group: the workers of ``local:2`` stay quiet (no
    traceback each), also while they start, and the run stops with its cluster."""
    pytest.importorskip("distributed")
    # 24 submissions can be done 1 s after the workers start: enough of them that the run is still checking
    proc, report = _cohort_run(tmp_path, "2", "--executor", "dask", "--scheduler", "local:2", size=80)
    try:
        # the cluster's worker processes are starting (their nannies live in the parent)
        assert wait_for(lambda: len(children(proc.pid)) >= 2, proc, every=0.01)
        time.sleep(when)
        assert proc.poll() is None
        os.killpg(proc.pid, signal.SIGINT)
        rc, err, took = finish(proc)
    finally:
        kill_session(proc.pid)
    assert rc == 130 and took < PROMPT
    assert err.splitlines()[-1].startswith("error: interrupted by SIGINT"), err
    assert "Traceback" not in err
    assert report.read_text() == "OLD\n"
    assert _all_gone(proc)


# ---- --fix interrupted -----------------------------------------------------------------------------------------

def _fix_run(tmp_path):
    path = cohort(tmp_path, 4, name="pkg")
    files = spoil_for_fix(path)
    before = {f: open(f, "rb").read() for f in files}
    proc = start(["check", path, "--fix", "-j", "1", "-o", str(tmp_path / "r.json")])
    caught = wait_for(lambda: temporaries(path, ".fix-tmp"), proc, every=0)
    assert caught, "the fix was written before a temporary file was seen"
    return path, files, before, proc


def _whole(files, before):
    """Every file is its old bytes or the whole fix (concurrency written as an integer again)."""
    for f in files:
        now = open(f, "rb").read()
        assert now == before[f] or now == re.sub(rb"concurrency: (\d+)\.0\n", rb"concurrency: \1\n", before[f])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_fix_leaves_no_temporary_file(tmp_path, sig):
    """Before: a SIGTERMed --fix left ``.point.yaml.<hex>.fix-tmp`` (SIGTERM was not handled)."""
    path, files, before, proc = _fix_run(tmp_path)
    try:
        os.kill(proc.pid, sig)
        rc, err, took = finish(proc)
    finally:
        kill_session(proc.pid)
    assert rc == 128 + sig and took < PROMPT
    assert err.splitlines()[-1].startswith(f"error: interrupted by {sig.name}")
    assert not temporaries(path, ".fix-tmp")
    _whole(files, before)


def test_a_fix_killed_leaves_a_temporary_the_next_runs_recognise(tmp_path):
    """Before: a later --fix did not remove ``.point.yaml.<hex>.fix-tmp`` and ``check`` reported it as an
    ``unexpected-entry``."""
    path, files, before, proc = _fix_run(tmp_path)
    os.kill(proc.pid, signal.SIGSTOP)  # caught in the act: its temporary cannot go away now
    left = temporaries(path, ".fix-tmp")
    os.kill(proc.pid, signal.SIGKILL)
    finish(proc)
    assert left and temporaries(path, ".fix-tmp") == left
    _whole(files, before)
    for f in left:  # found later (one caught before its first byte is left alone for FRESH_SECONDS)
        os.utime(f, (time.time() - 60, time.time() - 60))
    report = tmp_path / "after.json"
    check = start(["check", path, "-j", "1", "-f", "json", "-o", str(report)])
    rc, err, _ = finish(check)
    doc = json.loads(report.read_text())
    assert not [f for f in doc["findings"] if f["rule_id"] == "unexpected-entry" and f["status"] == "FAIL"]
    assert [ln for ln in err.splitlines() if ln.startswith("note: a temporary file of endpoints-checker (")
            and "left by an interrupted --fix" in ln and left[0] in ln]
    fix = start(["check", path, "--fix", "-j", "1", "-o", str(report)])
    rc, err, _ = finish(fix)
    assert [ln for ln in err.splitlines() if ln.startswith("removed a temporary file of endpoints-checker")]
    assert not temporaries(path, ".fix-tmp")


def test_a_fix_temporary_held_by_a_running_fix_is_left_alone(tmp_path):
    root = tmp_path / "pkg"
    import shutil

    shutil.copytree(VALID, root)
    mine = root / CURVE / "r8" / ".point.yaml.0123456789ab.fix-tmp"
    mine.write_text("being written\n")
    held = root / CURVE / "r4" / ".point.yaml.ba9876543210.fix-tmp"
    held.write_text("being written\n")
    os.utime(mine, (time.time() - 60, time.time() - 60))
    fd = os.open(held, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another --fix writing it now
    try:
        rc, err, _ = finish(start(["check", str(root), "--fix", "-o", str(tmp_path / "r.json")]))
    finally:
        os.close(fd)
    assert not mine.exists() and held.exists()
    assert f"removed a temporary file of endpoints-checker ({mine}) left by an interrupted --fix" in err


# ---- output temporaries and the HTML folder --------------------------------------------------------------------

def test_an_output_temporary_of_a_killed_run_is_removed_by_the_next(tmp_path):
    """Before: ``.report.json.<rand>.part`` of an interrupted ``-o report.json`` was never cleaned."""
    path = cohort(tmp_path, 12)
    report = tmp_path / "report.json"
    proc = start(["check", path, "-f", "json", "-o", str(report), "-j", "2"])
    assert wait_for(lambda: written_temporaries(tmp_path, ".part"), proc, every=0), "no temporary file was seen"
    os.kill(proc.pid, signal.SIGKILL)
    finish(proc)
    left = temporaries(tmp_path, ".part")
    assert left and not report.exists()
    rc, err, _ = finish(start(["check", VALID, "-f", "json", "-o", str(report)]))
    assert rc == 0 and json.loads(report.read_text())
    assert f"removed {left[0]}: a temporary file of endpoints-checker left by an interrupted run" in err
    assert not temporaries(tmp_path, ".part")


def _pages(folder):
    return {n: (folder / n).read_bytes() for n in sorted(os.listdir(folder))}


def _html_run(tmp_path):
    path = cohort(tmp_path, 16)  # enough pages that a loaded machine is still seen writing them
    site = tmp_path / "site"
    assert finish(start(["check", path, "-o", f"{site}/", "-j", "2"]))[0] == 0
    old = _pages(site)
    assert len(old) == 17
    proc = start(["check", path, "-o", f"{site}/", "-j", "2"])
    try:
        assert wait_for(lambda: written_temporaries(tmp_path, ".part"), proc, every=0), \
            "the new folder was never seen being built"
        os.kill(proc.pid, signal.SIGSTOP)  # caught with some pages of the new folder written
        assert _pages(site) == old
    except BaseException:
        kill_session(proc.pid)  # never leave a stopped run behind a failed test
        raise
    return site, old, proc


def test_an_html_folder_interrupted_while_built_is_left_as_it_was(tmp_path):
    """Before: 1 to 12 of 31 pages were new and the rest old, with complete ``.part`` pages left beside them."""
    site, old, proc = _html_run(tmp_path)
    os.kill(proc.pid, signal.SIGTERM)
    os.kill(proc.pid, signal.SIGCONT)
    rc, err, _ = finish(proc)
    assert rc == 143 and err.startswith("error: interrupted by SIGTERM") and f"{site}/ (html)" in err
    assert _pages(site) == old
    assert not temporaries(site.parent, ".part")


def test_an_html_folder_killed_while_built_is_replaced_whole_by_the_next_run(tmp_path):
    site, old, proc = _html_run(tmp_path)
    os.kill(proc.pid, signal.SIGKILL)
    finish(proc)
    left = temporaries(site.parent, ".part")
    assert left and _pages(site) == old
    inode = os.stat(site).st_ino
    rc, err, _ = finish(start(["check", VALID, "-o", f"{site}/"]))
    assert rc == 0 and f"removed {left[0]}: a temporary file of endpoints-checker left by an interrupted run" in err
    assert not set(os.listdir(site)) & (set(old) - {"index.html"})  # nothing of the old run is left in it
    assert os.stat(site).st_ino != inode  # swapped, not rewritten in place
    assert not temporaries(site.parent, ".part")


def test_a_folder_holding_other_files_is_never_replaced(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "notes.txt").write_text("mine\n")
    rc, err, _ = finish(start(["check", VALID, "-o", f"{site}/"]))
    assert rc == 2 and "it holds 'notes.txt', not a page of a report" in err
    assert os.listdir(site) == ["notes.txt"]

