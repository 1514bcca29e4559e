"""The MCP tools read the project's configuration file as ``check`` does (with check's option declarations,
as ``endpoints-checker mcp`` hands them over): a tool argument wins over it, an unusable file is a tool
error saying where, the walk up stops at the client's root, and a path the file names must lie inside the
roots. (tests/lsp/test_lsp_config.py drives the server over stdio on the same repository.)"""
from __future__ import annotations

import os

import pytest

from configrepo import EXPECTED_FAILS, SUBMISSION, fails, make_repo


@pytest.fixture
def tools(monkeypatch):
    from checker.cli.settings import check_settings
    from checker.mcp import adapter, tools

    monkeypatch.setattr(adapter, "_CHECK", check_settings())
    return tools


@pytest.fixture
def repo(tmp_path):
    return make_repo(tmp_path / "repo")


def _fails(result) -> set:
    return fails([f.model_dump() for f in result.findings])


def test_the_file_is_read_and_an_argument_wins(tools, repo):
    sub = os.path.join(repo, SUBMISSION)
    result = tools.check_submission([repo], sub)
    assert _fails(result) == EXPECTED_FAILS and result.fail_on == "warn" and result.exit_code == 1
    result = tools.check_submission([repo], sub, fail_on="never")
    assert result.fail_on == "never" and result.exit_code == 0 and _fails(result) == EXPECTED_FAILS
    # the argument's ignore replaces the file's, as --ignore does on the command line
    result = tools.check_submission([repo], sub, ignore=["empty-file"])
    assert ("src-readme", "") in _fails(result) and ("empty-file", "") not in _fails(result)


def test_an_unusable_file_is_a_tool_error_saying_where(tools, repo):
    with open(os.path.join(repo, "pyproject.toml"), "a", encoding="utf-8") as fh:
        fh.write('select = ["seed-runtim-match"]\n')
    with pytest.raises(tools.ToolUsage, match=r"pyproject.toml:9: select 'seed-runtim-match' names no rule.*"
                                              r"Did you mean: seed-runtime-match"):
        tools.check_submission([repo], os.path.join(repo, SUBMISSION))


def test_the_walk_stops_at_the_clients_root(tools, repo):
    sub = os.path.join(repo, SUBMISSION)
    result = tools.check_submission([sub], sub)  # the root is the submission: the repository's file is outside
    assert result.fail_on == "flag" and ("src-readme", "") in _fails(result)


def test_a_path_the_file_names_outside_the_roots_is_refused(tools, repo, tmp_path):
    outside = tmp_path / "outside-waivers.yaml"
    outside.write_text("version: 1\nwaivers: []\n")
    text = open(os.path.join(repo, "pyproject.toml"), encoding="utf-8").read()
    with open(os.path.join(repo, "pyproject.toml"), "w", encoding="utf-8") as fh:
        fh.write(text.replace('waivers = "review/waivers.yaml"', f'waivers = "{outside}"'))
    with pytest.raises(tools.PathRefused, match="outside-waivers.yaml lies outside the client's roots"):
        tools.check_submission([repo], os.path.join(repo, SUBMISSION))
