"""The click-free ``check`` (checker/cli/fast_check.py): it parses exactly as click does or hands over to
click, never imports click on a plain check, and every exit code, stdout and stderr is click's."""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from unittest import mock

import click
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from casefixtures import REPO
from checker.cli.check_options import OPTIONS
from checker.cli.fast_check import parse
from checker.cli.main import check, main

VALID = "fixtures/valid"
ENVVARS = sorted({o.envvar for o in OPTIONS if o.envvar})

# ---------------------------------------------------------------------------------------------------------
# the parser against click's, on argv built from the option table


def _environ(env: dict):
    """os.environ with the table's envvars set as ``env`` says (None: unset); restored afterwards."""
    patch = mock.patch.dict(os.environ, {k: v for k, v in env.items() if v is not None})
    patch.start()
    for name in ENVVARS:
        if env.get(name) is None:
            os.environ.pop(name, None)
    return patch


def _click_params(argv: list[str], env: dict) -> dict | None:
    """What click's parser makes of ``check ARGV`` (None: a usage error, help or an exit)."""
    patch = _environ(env)
    try:
        try:
            with main.make_context("endpoints-checker", ["check"]) as parent:
                with check.make_context("check", list(argv), parent=parent) as ctx:
                    return dict(ctx.params)
        except (click.ClickException, click.exceptions.Exit):
            return None
    finally:
        patch.stop()


_FILES = tempfile.mkdtemp(prefix="ec-fast-")
_FILE = os.path.join(_FILES, "file.yaml")
with open(_FILE, "w", encoding="utf-8") as _fh:
    _fh.write("x: 1\n")
_DIR = os.path.join(_FILES, "dir")
os.mkdir(_DIR)

texts = st.sampled_from(["", "-", "--", "-q", "--quiet", "-h", "x", "a=b", "r,s", "=x", "é", " 5", "--no-such"])
path_values = st.sampled_from([_FILE, _DIR, os.path.join(_FILES, "missing"), "", "-", "a\0b", VALID])


def _value(opt):
    """Valid and invalid values for one option of the table."""
    if opt.kind == "choice":
        return st.one_of(st.sampled_from(opt.choices), st.sampled_from(opt.choices).map(str.upper), texts)
    if opt.kind == "int":
        lo = opt.min if opt.min is not None else -5
        hi = opt.max if opt.max is not None else lo + 10 ** 6
        edges = [lo - 1, lo, lo + 1, hi - 1, hi, hi + 1]
        return st.one_of(st.integers(lo - 2, hi + 2).map(str), st.sampled_from(edges).map(str),
                         st.sampled_from(["1_0", " 7 ", "+3", "0x10", "2.0", "9" * 5000, "١٢"]), texts)
    if opt.kind == "path":
        return st.one_of(path_values, texts)
    return st.one_of(texts, st.text(max_size=8))


@st.composite
def words(draw, opt):
    """One use of ``opt`` on the command line, in one of the forms click accepts (or a broken one)."""
    flags = list(opt.flags) + list(opt.secondary)
    flag = draw(st.sampled_from(flags))
    if opt.kind in ("flag", "pair"):
        if flag[:2] != "--" and draw(st.booleans()):  # a cluster of short flags
            shorts = [f[1:] for o in OPTIONS if o.kind == "flag" for f in o.flags if f[:2] != "--"]
            return ["-" + flag[1:] + "".join(draw(st.lists(st.sampled_from(shorts), max_size=2)))]
        return [flag + "=x"] if draw(st.integers(0, 20)) == 0 else [flag]
    value = draw(_value(opt))
    form = draw(st.sampled_from(["space", "equals", "glued", "missing"]))
    if form == "missing":
        return [flag]
    if form == "equals" and flag[:2] == "--":
        return [f"{flag}={value}"]
    if form == "glued" and flag[:2] != "--":
        return [flag + value]
    return [flag, value]


@st.composite
def argvs(draw):
    parts = [[p] for p in draw(st.lists(st.sampled_from([VALID, "x", "-", "", "dir/"]), max_size=3))]
    for opt in draw(st.lists(st.sampled_from(OPTIONS), max_size=6)):
        parts.append(draw(words(opt)))
    if draw(st.integers(0, 9)) == 0:
        parts.append([draw(st.sampled_from(["-h", "--help", "--bogus", "-x", "-qx", "---q", "--format"]))])
    order = draw(st.permutations(range(len(parts))))
    argv = [w for i in order for w in parts[i]]
    if draw(st.integers(0, 9)) == 0:  # everything after -- is a path
        cut = draw(st.integers(0, len(argv)))
        argv = argv[:cut] + ["--"] + argv[cut:]
    return argv


envs = st.fixed_dictionaries({name: st.sampled_from([None, "", "seeds.yaml", "2026-01-01"]) for name in ENVVARS})


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(argv=argvs(), env=envs)
def test_fast_parser_agrees_with_click_or_hands_over(argv, env):
    patch = _environ(env)
    try:
        fast = parse(argv, os.environ)
    finally:
        patch.stop()
    event("fast path" if fast is not None else "left to click")
    if fast is not None:
        assert fast == _click_params(argv, env), argv


@pytest.mark.parametrize("argv", [
    [VALID, "-q"], [VALID], ["-q", VALID, "-v"], ["-fjson", "-o", "-", VALID, "x"], ["-qf", "JSON", VALID],
    ["--fail-on=warn", VALID, "-j", "2", "--timeout", "0"], ["--format", "html", "-o", "out/", VALID, "--", "-q"],
    ["--select", "seeds,power", "--select", "curve", "--ignore=x", VALID], ["--no-assemble", "--assemble", VALID],
    ["--point", _FILE, "--policy", _DIR, "--waivers", os.path.join(_FILES, "missing"), VALID],
    ["--max-file-size", "1_000", "--max-concurrency", "64", "--dataset-size", "10", VALID, "-o", "--"],
])
def test_common_invocations_take_the_fast_path(argv):
    env = {name: None for name in ENVVARS}
    assert parse(argv, {}) is not None, argv
    assert parse(argv, {}) == _click_params(argv, env)


@pytest.mark.parametrize("argv", [
    [], ["-q"], [VALID, "-h"], [VALID, "--help"], [VALID, "--bogus"], [VALID, "--fail-on", "nope"], [VALID, "-j", "0"],
    [VALID, "-j", "x"], [VALID, "--quiet=1"], [VALID, "-o"], [VALID, "--point", _DIR], [VALID, "--policy", _FILE],
    [VALID, "--format"], [VALID, "-qz"], [VALID, "--fail-on", "FLAG"],
])
def test_what_click_refuses_is_left_to_click(argv):
    assert parse(argv, {}) is None
    assert _click_params(argv, {name: None for name in ENVVARS}) is None


def test_shell_completion_is_left_to_click():
    assert parse([VALID], {"_ENDPOINTS_CHECKER_COMPLETE": "bash_complete"}) is None
    assert parse([VALID], {"_ENDPOINTS_CHECKER_COMPLETE": ""}) is not None


def test_envvars_are_read_like_click():
    env = {"MLPERF_ENDPOINTS_SEED_SETS": "s.yaml", "ENDPOINTS_CHECKER_TODAY": "", "MLPERF_ENDPOINTS_APPROVED_DRAFTERS": "d"}
    fast = parse([VALID, "--approved-drafters", "given"], env)
    assert (fast["seed_sets"], fast["today"], fast["approved_drafters"]) == ("s.yaml", None, "given")
    assert fast == _click_params([VALID, "--approved-drafters", "given"], env)


# ---------------------------------------------------------------------------------------------------------
# whole processes: the console script (fast path) against click's own run of the same arguments

_ENTRY = ("import sys, os; sys.argv = ['endpoints-checker', *sys.argv[1:]]; {setup}"
          "real = os._exit\n"
          "def _exit(code):\n"
          "    print('click modules:', sorted(m for m in sys.modules if m.split('.')[0] == 'click'), file=sys.stderr)\n"
          "    sys.stderr.flush(); real(code)\n"
          "os._exit = _exit\n"
          "from checker.cli.entry import run; run()")
_CLICK = ("import sys; sys.argv = ['endpoints-checker', *sys.argv[1:]]; {setup}"
          "from checker.cli.main import main; main()")


def _process(template: str, args, setup: str = ""):
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    return subprocess.run([sys.executable, "-c", template.format(setup=setup), *args], cwd=REPO, capture_output=True,
                          env=env, timeout=300)


def _both(args, setup: str = ""):
    fast = _process(_ENTRY, args, setup)
    err = fast.stderr.decode()
    marker = err.rindex("click modules: ")
    modules = err[marker:].splitlines()[0]
    fast = subprocess.CompletedProcess(fast.args, fast.returncode, fast.stdout, err[:marker].encode())
    return fast, _process(_CLICK, args, setup), modules


def test_a_plain_check_never_imports_click():
    fast, slow, modules = _both(["check", VALID, "-q"])
    assert modules == "click modules: []"
    assert fast.returncode == slow.returncode == 0
    assert (fast.stdout, fast.stderr) == (slow.stdout, slow.stderr)


@pytest.mark.parametrize("args,fast_path", [
    (["check", "--help"], False),
    (["check", VALID, "-h"], False),
    (["check", VALID, "--bogus"], False),
    (["check", VALID, "--fail-on", "nope"], False),
    (["check"], False),
    (["check", VALID, "--fail-on-new"], True),
    (["check", VALID, "--quiet", "--verbose"], True),
    (["check", VALID, "-qv"], True),
    (["check", VALID, "-o", "nowhere/x.json"], True),
    (["check", VALID, "--select", "nonexistent-rule"], True),
    (["check", "fixtures/does-not-exist", "-q"], True),
])
def test_help_and_errors_are_clicks(args, fast_path):
    assert (parse(args[1:], {}) is not None) == fast_path
    fast, slow, modules = _both(args)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert fast.returncode == (0 if "--help" in args or "-h" in args else 2)
    if fast.returncode == 2 and "fixtures/does-not-exist" not in args:
        assert b"Usage: endpoints-checker check [OPTIONS] PATHS..." in fast.stderr
        assert b"Try 'endpoints-checker check --help' for help." in fast.stderr


def test_an_interrupt_ends_like_clicks():
    setup = ("import checker.cli.check_command as c\n"
             "def boom(values): raise KeyboardInterrupt\n"
             "c.run = boom\n")
    fast, slow, _ = _both(["check", VALID, "-q"], setup)
    assert (fast.returncode, fast.stdout, fast.stderr) == (slow.returncode, slow.stdout, slow.stderr)
    assert fast.returncode == 1 and fast.stderr == b"\nAborted!\n"


def test_stderr_lines_escape_what_stderr_cannot_encode(tmp_path):
    """The check's own stderr lines go through output.warn (click.echo wrote raw UTF-8 to an ASCII
    stderr): what the encoding lacks is written as a visible escape (docs/robustness.md)."""
    missing = str(tmp_path / "caf\u00e9")
    env = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE")}
    env["PYTHONIOENCODING"] = "ascii"
    p = subprocess.run([sys.executable, "-m", "checker", "check", missing, "-q"], cwd=REPO, capture_output=True,
                       env=env, timeout=300)
    assert p.returncode == 2
    assert f"error: path does not exist: {tmp_path}/caf\\xe9\n".encode() in p.stderr
