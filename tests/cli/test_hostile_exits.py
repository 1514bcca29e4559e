"""One exit code (issue 28): whatever happens to the outputs, every JSON report written says the exit code the
process exits with, and an output that failed is named in it (summary.output_problems)."""
import json
import os
import stat
import subprocess
import sys

import pytest

from hostile_gen import NO_DAC, VALID, can_drop_dac, run_cli

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def _close(*fds):
    def pre():
        for fd in fds:
            os.close(fd)
    return pre


def _full_stdout():
    fd = os.open("/dev/full", os.O_WRONLY)
    os.dup2(fd, 1)
    os.close(fd)


def _readonly_dir(tmp_path):
    d = tmp_path / "ro"
    d.mkdir()
    os.chmod(d, 0o555)
    os.chmod(tmp_path, 0o755)
    return d


#: name -> (extra arguments after "-f json -o REPORT", preexec_fn, needs dropped capabilities, an output fails)
CASES = {
    "nothing-fails": (["-f", "text", "-o", "{tmp}/t.txt"], None, False, False),
    "stdout-closed-text": (["-f", "text"], _close(1), False, True),
    "all-streams-closed": (["-f", "text"], _close(0, 1, 2), False, True),
    "stdout-closed-no-stdout-output": ([], _close(1), False, False),
    "stdout-dev-full": (["-f", "text"], _full_stdout, False, True),
    "dash-o-dev-full": (["-f", "markdown", "-o", "/dev/full"], None, False, True),
    "second-json-dev-full": (["-f", "json", "-o", "/dev/full"], None, False, True),
    "html-dev-full": (["-f", "html", "-o", "/dev/full"], None, False, True),
    "unwritable-directory": (["-f", "text", "-o", "{ro}/t.txt"], None, True, True),
    "unwritable-html-folder": (["-f", "html", "-o", "{ro}/site/"], None, True, True),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_report_says_the_exit_code_the_process_exits_with(tmp_path, case):
    extra, pre, no_dac, fails = CASES[case]
    if no_dac and not can_drop_dac():
        pytest.skip("setpriv cannot drop the permission capabilities here")
    ro = _readonly_dir(tmp_path)
    report = tmp_path / "r.json"
    args = ["check", VALID, "-f", "json", "-o", str(report)] + [a.format(tmp=tmp_path, ro=ro) for a in extra]
    rc, _out, stderr, cpu, mb = run_cli(args, preexec_fn=pre, wrap=NO_DAC if no_dac else (), timeout=60)
    assert "Traceback" not in stderr, stderr
    doc = json.loads(report.read_text())
    summary = doc["summary"]
    assert summary["exit_code"] == rc, (rc, summary, stderr)
    assert rc == (2 if fails else 0), (rc, stderr)
    assert bool(summary.get("output_problems")) == fails, summary
    if fails and case != "all-streams-closed":  # the stderr line names the output too, when stderr is open
        assert "error: cannot " in stderr, stderr
    assert cpu < 5 and mb < 300, (cpu, mb)


def test_a_json_report_on_standard_output_also_says_it(tmp_path):
    """JSON on stdout is written after the other outputs: a failed text file is already in it."""
    rc, out, stderr, *_ = run_cli(["check", VALID, "-f", "text", "-o", "/dev/full", "-f", "json"])
    doc = json.loads(out)
    assert rc == 2 == doc["summary"]["exit_code"], stderr
    assert doc["summary"]["output_problems"] == ["cannot write the text report to /dev/full: No space left on device"]


def test_a_renderer_that_fails_is_in_the_report_it_did_not_break(tmp_path, monkeypatch):
    """In-process: the HTML renderer raises; the JSON report (written first or last) says exit code 2."""
    from checker.cli.check_command import _is_dir_output
    from checker.cli.output import emit
    from checker.engine.pipeline import run_check
    import checker.render as render

    real = render.render

    def broken(fmt, report, **kw):
        if fmt == "html":
            raise RuntimeError("boom")
        return real(fmt, report, **kw)

    monkeypatch.setattr(render, "render", broken)
    rep = run_check([VALID])
    first, last = tmp_path / "a.json", tmp_path / "z.json"
    done = emit(rep, [("json", str(first)), ("html", str(tmp_path / "r.html")), ("json", str(last))], {},
                _is_dir_output)
    assert not done.ok and rep.exit_code() == 2
    for p in (first, last):
        s = json.loads(p.read_text())["summary"]
        assert s["exit_code"] == 2 and "could not be rendered (RuntimeError: boom)" in s["output_problems"][0]
    assert not os.path.exists(tmp_path / "r.html")


def test_the_click_path_keeps_the_same_promise(tmp_path):
    """click's own exit (main() without the console script's quick exit): the exit code and the report agree."""
    report = tmp_path / "r.json"
    code = ("import sys; sys.argv = ['endpoints-checker', 'check', sys.argv[1], '-f', 'json', '-o', sys.argv[2], "
            "'-f', 'text', '-o', '/dev/full']; from checker.cli.main import main; main()")
    proc = subprocess.run([sys.executable, "-c", code, VALID, str(report)], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ, PYTHONPATH=os.path.dirname(os.path.dirname(VALID))))
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode == 2 == json.loads(report.read_text())["summary"]["exit_code"], proc.stderr


@pytest.mark.skipif(not can_drop_dac(), reason="setpriv cannot drop the permission capabilities here")
def test_a_staged_report_is_never_left_behind(tmp_path):
    """A failure after a file was staged leaves no temporary file and the target untouched."""
    ro = _readonly_dir(tmp_path)
    old = tmp_path / "old.json"
    old.write_text("{}")
    rc, *_ = run_cli(["check", VALID, "-f", "json", "-o", str(old), "-f", "text", "-o", str(ro / "x.txt")], wrap=NO_DAC)
    assert rc == 2
    assert json.loads(old.read_text())["summary"]["exit_code"] == 2
    assert sorted(os.listdir(tmp_path)) == ["old.json", "ro"] and not os.listdir(ro)
    assert stat.S_IMODE(os.stat(old).st_mode) & 0o444
