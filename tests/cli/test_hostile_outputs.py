"""Hostile input, round two (issue 17): output encoding and output targets.

Every string from a submitter reaches every format (a lone surrogate as a visible \\udcxx escape, a
character the target encoding lacks as the format's own escape); the JSON report is always written,
never left at 0 bytes; one renderer or one target failing never loses the other outputs; a report that
cannot be written is one error line naming the path, exit code 2; nothing blocks on a FIFO.
"""
from __future__ import annotations

import io
import json
import os
import stat

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from casefixtures import REPO
from conftest import assert_valid_report
from hostile_gen import (CURVE, EXT, FORMATS, NO_DAC, VALID, can_drop_dac, copy_valid, examples, hostile_str, nasty_text,
                         run_cli, slow)

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

_REPORT = None


def _report():
    """One checked report of the valid fixture, packages kept (the HTML renderer draws the curve)."""
    global _REPORT
    if _REPORT is None:
        from checker.engine.pipeline import run_check

        _REPORT = run_check([VALID], keep_packages=True)
    return _REPORT


def _hostile_report(strings: list[str]):
    """The valid report with submitter strings everywhere a renderer prints one."""
    from checker.core.findings import Location, Status, Subject

    rep = _report()
    out = []
    for i, f in enumerate(rep.findings[:60]):
        s = strings[i % len(strings)]
        subject = Subject(f.subject.submission, f.subject.system + s, f.subject.model, f.subject.point + s, s)
        loc = Location(f"{CURVE}/r{s}/point.yaml", 3, 1, ("a" + s, 0)) if i % 2 else f.location
        status = Status.FAIL if i % 3 == 0 else f.status
        out.append(msgspec.structs.replace(f, subject=subject, message=f.message + s, location=loc, status=status,
                                           fix=(f.fix or "fix it") + s, observed={s: [s]}, expected=s,
                                           reason=f.reason or ("waived: " + s if status is Status.SKIP else None)))
    return msgspec.structs.replace(rep, findings=out, paths=[VALID + strings[0]], json_blocks={})


@slow(12)
@given(st.lists(hostile_str, min_size=1, max_size=4))
def test_every_format_carries_every_string(tmp_path, strings):
    """Each format renders and writes; JSON and SARIF stay valid JSON with surrogates as visible text."""
    from checker.cli.main import _is_dir_output
    from checker.cli.output import emit
    from checker.core.fingerprint import visible

    rep = _hostile_report(strings)
    import pathlib
    import tempfile

    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    pairs = [(fmt, str(d / f"r.{EXT[fmt]}")) for fmt in FORMATS] + [("html", str(d / "site") + "/")]
    done = emit(rep, pairs, {"quiet": False}, _is_dir_output)
    assert done.ok, done.problems
    for fmt, path in pairs[:-1]:
        raw = open(path, "rb").read()
        assert raw, f"{fmt}: empty"
        text = raw.decode("utf-8")  # strictly valid UTF-8
        assert not any(0xD800 <= ord(c) <= 0xDFFF for c in text)
    doc = json.loads(open(pairs[0][1], "rb").read())
    assert_valid_report(doc)
    assert {visible(f.message) for f in rep.findings} == {f["message"] for f in doc["findings"]}
    json.loads(open(pairs[4][1], "rb").read())  # SARIF
    assert os.path.getsize(d / "site" / "index.html") > 0
    assert not [n for n in os.listdir(d) if n.endswith(".part")]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(nasty_text | st.text(max_size=20), max_size=6), st.sampled_from(["utf-8", "ascii", "latin-1"]))
def test_encode_output_is_total_and_json_stays_json(strings, encoding):
    """Any text in any format and target encoding: bytes come out; JSON still parses, to the visible form."""
    from checker.cli.output import encode_output
    from checker.core.fingerprint import visible

    doc = {"k" + s: [s, {"v": s}] for s in strings}
    text = json.dumps(doc, ensure_ascii=False, indent=2)
    for fmt in FORMATS:
        data = encode_output(fmt, text, encoding)
        data.decode(encoding)
    back = json.loads(encode_output("json", text, encoding).decode(encoding))
    assert back == {"k" + visible(s): [visible(s), {"v": visible(s)}] for s in strings}


def test_ascii_stdout_every_format(monkeypatch):
    """PYTHONIOENCODING=ascii: each format goes to stdout, escaped, never a UnicodeEncodeError."""
    from checker.cli.output import write_stdout

    rep = _hostile_report(["\udcff\u2014\U0001f4a5<&>"])
    from checker.render import render

    for fmt in FORMATS:
        buf = io.BytesIO()
        monkeypatch.setattr("sys.stdout", io.TextIOWrapper(buf, encoding="ascii", errors="strict"))
        write_stdout(fmt, render(fmt, rep))
        out = buf.getvalue().decode("ascii")
        assert out
        if fmt == "json":
            assert_valid_report(json.loads(out))


def _nonutf8_package(tmp_path):
    """A package with a non-UTF-8 byte in a directory name and a lone surrogate in a JSON string."""
    root = copy_valid(str(tmp_path / "pkg"))
    os.mkdir(os.path.join(os.fsencode(root), b"results", b"caf\xe9-\xff"))
    sd = os.path.join(root, CURVE, "r64", "system_desc.json")
    with open(sd, encoding="utf-8") as fh:
        doc = json.load(fh)
    doc["system_name"] = "\ud800 bad \udcff"
    with open(sd, "w", encoding="utf-8") as fh:
        fh.write(json.dumps(doc, ensure_ascii=True))
    return root


def test_cli_surrogates_all_formats_ascii_io(tmp_path):
    """Issue 17: a lone surrogate reached _emit and the run died; now every output is written, exit 1."""
    root = _nonutf8_package(tmp_path)
    args = ["check", root]
    outs = {}
    for fmt in FORMATS:
        outs[fmt] = str(tmp_path / f"r.{EXT[fmt]}")
        args += ["-f", fmt, "-o", outs[fmt]]
    args += ["-f", "html", "-o", str(tmp_path / "site") + "/", "-f", "text", "-o", "-"]
    rc, stdout, stderr, cpu, _ = run_cli(args, env={"PYTHONIOENCODING": "ascii", "GITHUB_ACTIONS": "true",
                                                    "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md")})
    assert "Traceback" not in stderr, stderr
    assert rc == 1, stderr
    for fmt, path in outs.items():
        assert os.path.getsize(path) > 0, fmt
        open(path, "rb").read().decode("utf-8")
    doc = json.loads(open(outs["json"], "rb").read())
    assert_valid_report(doc)
    texts = json.dumps(doc)
    assert "\\\\ud800 bad \\\\udcff" in texts  # the visible escape, never a raw surrogate
    assert "caf\\\\udce9-\\\\udcff" in texts
    assert os.path.getsize(tmp_path / "site" / "index.html") > 0
    assert os.path.getsize(tmp_path / "summary.md") > 0
    assert stdout.strip()


def test_baseline_roundtrip_with_surrogates(tmp_path):
    """A report with surrogates, read back as --baseline, matches itself: every FAIL unchanged."""
    root = _nonutf8_package(tmp_path)
    first = tmp_path / "first.json"
    rc, _, stderr, *_ = run_cli(["check", root, "-f", "json", "-o", str(first)])
    assert rc == 1, stderr
    second = tmp_path / "second.json"
    rc, _, stderr, *_ = run_cli(["check", root, "--baseline", str(first), "-f", "json", "-o", str(second)])
    assert rc == 1, stderr
    counts = json.loads(second.read_text())["baseline"]["counts"]
    assert counts["new"] == 0 and counts["resolved"] == 0 and counts["unchanged"] > 0, counts


# ---------------------------------------------------------------------------------------------------------
# output targets


def _fifo(tmp_path, name="fifo"):
    p = tmp_path / name
    os.mkfifo(p)
    return str(p)


def _unwritable(tmp):
    d = tmp / "read-only"
    d.mkdir()
    os.chmod(d, 0o555)  # unwritable once the child runs without the permission capabilities (NO_DAC)
    return str(d / "endpoints-checker-report.json")


TARGETS = {
    "dev-full": lambda tmp: "/dev/full",
    "unwritable-dir": _unwritable,
    "fifo-without-reader": lambda tmp: _fifo(tmp),
    "directory": lambda tmp: str(tmp),
}


@pytest.mark.parametrize("target", sorted(TARGETS))
def test_unwritable_target_is_exit_2_naming_it_and_others_written(tmp_path, target):
    wrap = ()
    if target == "unwritable-dir":  # root writes anywhere: the child runs without that privilege
        if not can_drop_dac():
            pytest.skip("setpriv cannot drop the permission capabilities here")
        wrap = NO_DAC
    bad = TARGETS[target](tmp_path)
    good = tmp_path / "good.json"
    text = tmp_path / "good.txt"
    rc, stdout, stderr, cpu, _ = run_cli(["check", VALID, "-f", "json", "-o", bad, "-f", "json", "-o", str(good),
                                          "-f", "text", "-o", str(text)], timeout=30, wrap=wrap)
    assert "Traceback" not in stderr, stderr
    if target == "directory":
        assert rc == 2 and "directory" in stderr  # a usage error: only html writes a folder
        return
    assert rc == 2, stderr
    assert bad in stderr and "cannot write the json report" in stderr, stderr
    assert_valid_report(json.loads(good.read_text()))
    assert text.stat().st_size > 0


def test_empty_output_path_is_a_usage_error(tmp_path):
    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "json", "-o", ""])
    assert rc == 2 and "names no file" in stderr and "Traceback" not in stderr


def test_closed_stdout_and_stderr(tmp_path):
    out = tmp_path / "r.json"

    def close_stdout():
        os.close(1)

    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "text", "-o", "-", "-f", "json", "-o", str(out)],
                                preexec_fn=close_stdout)
    assert rc == 2, stderr
    assert "standard output" in stderr and "Traceback" not in stderr
    assert_valid_report(json.loads(out.read_text()))
    out.unlink()

    def close_stderr():
        os.close(2)

    rc, *_ = run_cli(["check", VALID, "-f", "json", "-o", str(out)], preexec_fn=close_stderr)
    assert rc == 0
    assert_valid_report(json.loads(out.read_text()))


def test_stdout_to_dev_full_is_exit_2(tmp_path):
    """A stdout that refuses the bytes (a full disk) is an error naming standard output, exit 2."""
    import subprocess
    import sys

    with open("/dev/full", "wb") as full:
        proc = subprocess.run([sys.executable, "-m", "checker", "check", VALID, "-f", "json"], stdout=full,
                              stderr=subprocess.PIPE, text=True, timeout=60,
                              cwd=REPO)
    assert proc.returncode == 2, proc.stderr
    assert "standard output" in proc.stderr and "Traceback" not in proc.stderr


def test_fifo_step_summary_never_blocks(tmp_path):
    out = tmp_path / "r.json"
    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "json", "-o", str(out)], timeout=30,
                                env={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": _fifo(tmp_path)})
    assert rc == 0 and "GITHUB_STEP_SUMMARY" in stderr, stderr
    assert_valid_report(json.loads(out.read_text()))


def test_fifo_with_a_reader_receives_the_report(tmp_path):
    """A FIFO someone reads is a fine target: the report arrives whole."""
    import threading

    fifo = _fifo(tmp_path)
    got = {}

    def read():
        with open(fifo, "rb") as fh:
            got["data"] = fh.read()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "json", "-o", fifo], timeout=30)
    t.join(10)
    assert rc == 0, stderr
    assert_valid_report(json.loads(got["data"]))


def test_symlinked_output_replaced_through_the_link(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "json", "-o", str(link)])
    assert rc == 0, stderr
    assert link.is_symlink()
    assert_valid_report(json.loads(real.read_text()))
    assert stat.S_IMODE(real.stat().st_mode) & 0o044  # a normal file mode, not mkstemp's 0600


# ---------------------------------------------------------------------------------------------------------
# a failing renderer or a crash never loses the other outputs


def _invoke(args):
    from click.testing import CliRunner

    from checker.cli.main import main

    return CliRunner().invoke(main, args)


def test_one_failing_renderer_loses_nothing_else(tmp_path, monkeypatch):
    import checker.render.html as html

    def boom(*a, **k):
        raise RuntimeError("renderer bug")

    monkeypatch.setattr(html, "render", boom)
    old = tmp_path / "r.html"
    old.write_text("previous report")
    args = ["check", VALID, "-f", "html", "-o", str(old), "-f", "json", "-o", str(tmp_path / "r.json"),
            "-f", "sarif", "-o", str(tmp_path / "r.sarif")]
    res = _invoke(args)
    assert res.exit_code == 2, res.output
    assert "html report" in res.output and "renderer bug" in res.output
    assert old.read_text() == "previous report"  # never truncated: the temp file is not renamed over it
    assert_valid_report(json.loads((tmp_path / "r.json").read_text()))
    json.loads((tmp_path / "r.sarif").read_text())


def test_json_renderer_failure_still_writes_the_json_report(tmp_path, monkeypatch):
    import checker.render.json_report as jr

    def boom(report):
        yield "{"
        raise ValueError("Out of range float values are not JSON compliant")

    monkeypatch.setattr(jr, "render_chunks", boom)
    out = tmp_path / "r.json"
    res = _invoke(["check", VALID, "-f", "json", "-o", str(out)])
    assert res.exit_code == 2, res.output
    doc = json.loads(out.read_text())
    assert_valid_report(doc)
    assert doc["findings"]


def test_crash_in_the_check_exits_2_with_a_json_report(tmp_path, monkeypatch):
    import checker.engine.pipeline as pipeline

    def boom(*a, **k):
        raise KeyError("bug")

    monkeypatch.setattr(pipeline, "check", boom)
    out = tmp_path / "r.json"
    res = _invoke(["check", VALID, "-f", "json", "-o", str(out), "-f", "text", "-o", str(tmp_path / "r.txt")])
    assert res.exit_code == 2, res.output
    assert "did not complete" in res.output and "Traceback" not in res.output
    doc = json.loads(out.read_text())
    assert_valid_report(doc)
    assert doc["summary"]["exit_code"] == 2
    assert [f for f in doc["findings"] if f["status"] == "FAIL" and "KeyError" in f["message"]]


def test_dev_stdout_and_dev_null_are_written_in_place(tmp_path):
    """/dev/stdout (a pipe or a redirected file) and /dev/null are written where they are: never replaced
    by a renamed temporary file, never a temporary file in /dev."""
    import subprocess
    import sys

    repo = REPO
    cmd = [sys.executable, "-m", "checker", "check", VALID, "-f", "json", "-o", "/dev/stdout"]
    piped = subprocess.run(cmd, capture_output=True, timeout=60, cwd=repo)
    assert piped.returncode == 0, piped.stderr
    assert_valid_report(json.loads(piped.stdout))
    target = tmp_path / "redirected.json"
    with open(target, "wb") as fh:
        assert subprocess.run(cmd, stdout=fh, timeout=60, cwd=repo).returncode == 0
    assert_valid_report(json.loads(target.read_text()))
    before = os.stat("/dev/null")
    rc, _, stderr, *_ = run_cli(["check", VALID, "-f", "json", "-o", "/dev/null"])
    assert rc == 0, stderr
    after = os.stat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and (before.st_ino, before.st_rdev) == (after.st_ino, after.st_rdev)
    assert not [n for n in os.listdir("/dev") if n.endswith(".part")]
