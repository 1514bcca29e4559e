"""click parses every command (issue 24): the help texts are the ones users had, values are converted as
click converts them (choices folded, ranges, paths, envvars), usage errors are exit 2 with the usage
text, shell completion offers rule ids, and an interrupt ends as click ends it."""
from __future__ import annotations

import os
import subprocess
import sys

import click
import pytest

from casefixtures import REPO
from checker.cli.check_command import command
from checker.cli.main import main

VALID = "fixtures/valid"
HELP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "help")
ENVVARS = ("MLPERF_ENDPOINTS_SEED_SETS", "MLPERF_ENDPOINTS_APPROVED_DRAFTERS", "ENDPOINTS_CHECKER_TODAY")


def _cli(args, env: dict | None = None, setup: str = ""):
    """The console script in a fresh process, 80 columns, no completion request and no envvar of ours."""
    base = {k: v for k, v in os.environ.items() if not k.endswith("_COMPLETE") and k not in ENVVARS}
    base["COLUMNS"] = "80"
    code = ("import sys; sys.argv = ['endpoints-checker', *sys.argv[1:]]\n" + setup +
            "from checker.cli.entry import run; run()")
    return subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True,
                          env={**base, **(env or {})}, timeout=300)


def _params(argv: list[str], env: dict | None = None) -> dict:
    """The values click gives ``check`` for ``argv`` (the words after ``check``)."""
    old = {k: os.environ.pop(k, None) for k in ENVVARS}
    os.environ.update(env or {})
    try:
        with main.make_context("endpoints-checker", ["check"]) as parent:
            with command.make_context("check", list(argv), parent=parent) as ctx:
                return dict(ctx.params)
    finally:
        for k in ENVVARS:
            os.environ.pop(k, None)
        os.environ.update({k: v for k, v in old.items() if v is not None})


@pytest.mark.parametrize("name,args", [("main", ["--help"]), ("check", ["check", "--help"]), ("rules", ["rules", "-h"]),
                                       ("explain", ["explain", "--help"]), ("regions", ["regions", "--help"]),
                                       ("draft", ["draft", "--help"])])
def test_help_texts_are_unchanged(name, args):
    """tests/cli/help/ holds each command's help as the click-plus-fast-parser CLI printed it (commit 3e3f5cb; main.txt since gains lsp, mcp, schema and policy)."""
    p = _cli(args)
    assert p.returncode == 0 and p.stderr == ""
    with open(os.path.join(HELP, f"{name}.txt"), encoding="utf-8") as fh:
        assert p.stdout == fh.read()


def test_values_are_converted_as_before():
    v = _params(["-qf", "JSON", "--fail-on=warn", VALID, "-j", "2", "--timeout", "0",
                 "--select", "seeds,power", "--select", "curve", "--", "-v"])
    assert v["paths"] == (VALID, "-v")
    assert (v["quiet"], v["verbose"], v["formats"], v["fail_on"], v["jobs"], v["timeout"]) == \
        (True, False, ("json",), "warn", 2, 0)
    assert v["select"] == ("seeds,power", "curve")
    defaults = _params([VALID])
    assert (defaults["fail_on"], defaults["max_file_size"], defaults["timeout"], defaults["assemble"],
            defaults["formats"], defaults["jobs"]) == ("flag", 8 * 1024 * 1024, 600, None, (), None)
    assert _params(["--no-assemble", "--assemble", VALID])["assemble"] is True
    assert _params(["--max-file-size", "1_000", VALID])["max_file_size"] == 1000  # int() accepts underscores


def test_envvars_fill_only_what_the_command_line_leaves_out():
    env = {"MLPERF_ENDPOINTS_SEED_SETS": "s.yaml", "ENDPOINTS_CHECKER_TODAY": "",
           "MLPERF_ENDPOINTS_APPROVED_DRAFTERS": "d"}
    v = _params([VALID, "--approved-drafters", "given"], env)
    assert (v["seed_sets"], v["today"], v["approved_drafters"]) == ("s.yaml", None, "given")


@pytest.mark.parametrize("argv,message", [
    ([VALID, "--fail-on", "FLAG"], "Invalid value for '--fail-on': 'FLAG' is not one of"),
    ([VALID, "-j", "0"], "Invalid value for '-j' / '--jobs': 0 is not in the range 1<=x<=256."),
    ([VALID, "--quiet=1"], "Option '--quiet' does not take a value."),
    ([VALID, "--point", "fixtures"], "Invalid value for '--point': File 'fixtures' is a directory."),
    ([VALID, "--bogus"], "No such option '--bogus'."),
    ([], "Missing argument 'PATHS...'."),
])
def test_what_click_refuses_is_a_usage_error(argv, message):
    with pytest.raises(click.UsageError) as err:
        _params(argv)
    assert message in err.value.format_message()


@pytest.mark.parametrize("args,message", [
    (["check", VALID, "--bogus"], "No such option '--bogus'."),
    (["check", VALID, "--fail-on-new"], "--fail-on-new needs --baseline FILE"),
    (["check", VALID, "-qv"], "--quiet and --verbose contradict each other"),
    (["check", VALID, "--select", "seeds-configg"], "Did you mean: seed-config-legacy"),
    (["rules", "--family", "powr"], "Did you mean: power?"),
    (["explain", "seeds-bogus"], "no rule or family 'seeds-bogus'"),
])
@pytest.mark.slow
def test_usage_errors_are_exit_2_with_the_usage_text(args, message):
    p = _cli(args)
    assert p.returncode == 2 and p.stdout == ""
    assert f"Usage: endpoints-checker {args[0]} [OPTIONS]" in p.stderr
    assert f"Try 'endpoints-checker {args[0]} --help' for help." in p.stderr
    assert message in p.stderr


@pytest.mark.slow
def test_shell_completion_offers_rule_ids_and_choices():
    ids = _cli([], {"_ENDPOINTS_CHECKER_COMPLETE": "bash_complete",
                    "COMP_WORDS": "endpoints-checker check fixtures/valid --select power,see", "COMP_CWORD": "4"})
    assert ids.returncode == 0
    offered = ids.stdout.split()
    assert offered and all(o.startswith("plain,power,see") for o in offered)
    assert "plain,power,seed-set-adoption" in offered
    levels = _cli([], {"_ENDPOINTS_CHECKER_COMPLETE": "bash_complete",
                       "COMP_WORDS": "endpoints-checker check fixtures/valid --fail-on ", "COMP_CWORD": "4"})
    assert levels.stdout.split() == ["plain,reject", "plain,flag", "plain,warn", "plain,never", "plain,week0"]
    several = _cli([], {"_ENDPOINTS_CHECKER_COMPLETE": "bash_complete",
                        "COMP_WORDS": "endpoints-checker check fixtures/valid --fail-on flag,w", "COMP_CWORD": "4"})
    assert several.stdout.split() == ["plain,flag,warn", "plain,flag,week0"]


def test_an_interrupt_ends_as_click_ends_it():
    setup = ("import checker.cli.check_command as c\n"
             "def boom(values): raise KeyboardInterrupt\n"
             "c.check = boom\n")
    p = _cli(["check", VALID, "-q"], setup=setup)
    assert (p.returncode, p.stdout, p.stderr) == (1, "", "\nAborted!\n")


@pytest.mark.slow
def test_stderr_lines_escape_what_stderr_cannot_encode(tmp_path):
    """The check's own stderr lines go through output.warn (click.echo wrote raw UTF-8 to an ASCII
    stderr): what the encoding lacks is written as a visible escape (docs/robustness.md)."""
    missing = str(tmp_path / "caf\u00e9")
    p = _cli(["check", missing, "-q"], {"PYTHONIOENCODING": "ascii"})
    assert p.returncode == 2
    assert f"error: path does not exist: {tmp_path}/caf\\xe9\n" in p.stderr
