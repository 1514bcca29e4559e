"""Dependencies that match use (issue 24): pyproject's run-time dependencies are exactly the distributions
whose modules checker/ and rules/ import (lazy imports included), and every other import comes from an
optional extra. A library only the tests use belongs in the ``test`` extra."""
from __future__ import annotations

import ast
import os
import re
import sys
import tomllib
from importlib.metadata import packages_distributions

import pytest

from conftest import REPO

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

#: extras a run may need without them being run-time dependencies (the import is lazy, behind an option)
OPTIONAL_EXTRAS = ("dask", "lsp", "mcp", "week0")


def _name(requirement: str) -> str:
    """The normalised distribution name of a requirement (PEP 503)."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", requirement).group(0)).lower()


def _project() -> dict:
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as fh:
        return tomllib.load(fh)["project"]


def _imports() -> dict[str, set[str]]:
    """Top-level third-party modules imported anywhere in checker/ and rules/ -> the files importing them."""
    found: dict[str, set[str]] = {}
    for package in ("checker", "rules"):
        for dirpath, _dirs, files in os.walk(os.path.join(REPO, package)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read(), path)
                for node in ast.walk(tree):
                    if isinstance(node, ast.Import):
                        names = [a.name for a in node.names]
                    elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                        names = [node.module]
                    else:
                        continue
                    for top in {n.split(".")[0] for n in names}:
                        if top not in sys.stdlib_module_names and top not in ("checker", "rules"):
                            found.setdefault(top, set()).add(os.path.relpath(path, REPO))
    return found


def _distributions(modules) -> dict[str, set[str]]:
    """Distribution name -> the imported modules it provides (every module must come from an installed one)."""
    owners = packages_distributions()
    out: dict[str, set[str]] = {}
    for module in modules:
        assert module in owners, f"{module} is imported but no installed distribution provides it"
        dists = {_name(d) for d in owners[module]}
        if module == "ruamel":  # a namespace package: ruamel.yaml is the distribution imported through it
            dists = {"ruamel-yaml"}
        for d in dists:
            out.setdefault(d, set()).add(module)
    return out


def test_runtime_dependencies_are_what_run_time_imports():
    project = _project()
    declared = {_name(r) for r in project["dependencies"]}
    optional = {_name(r) for extra in OPTIONAL_EXTRAS for r in project["optional-dependencies"][extra]}
    imported = _distributions(_imports())
    needed = set(imported) - optional
    assert needed == declared, (f"imported but not declared: {sorted(needed - declared)}; "
                                f"declared but not imported at run time: {sorted(declared - needed)}")


def test_test_only_libraries_are_not_imported_at_run_time():
    project = _project()
    optional = {_name(r) for extra in OPTIONAL_EXTRAS for r in project["optional-dependencies"][extra]}
    test_only = ({_name(r) for r in project["optional-dependencies"]["test"]}
                 - {_name(r) for r in project["dependencies"]} - optional)
    assert {"jsonschema", "pyyaml"} <= test_only
    imported = _distributions(_imports())
    leaked = {d: sorted(imported[d]) for d in test_only if d in imported}
    assert not leaked, f"test-only libraries imported by checker/ or rules/: {leaked}"


def test_check_and_explain_run_without_the_test_only_libraries():
    """With PyYAML and jsonschema unimportable, a check and ``explain`` (which reads the YAML case files)
    still work: they read YAML with ruamel.yaml only."""
    import subprocess

    code = ("import sys; sys.modules.update(yaml=None, jsonschema=None)\n"
            "sys.argv = ['endpoints-checker', *sys.argv[1:]]\n"
            "from checker.cli.entry import run; run()")
    for args, code_expected, shown in ((["explain", "seed-set-adoption"], 0, "failing example: "),
                                       (["check", "fixtures/valid", "-q"], 0, "PASSED")):
        p = subprocess.run([sys.executable, "-c", code, *args], cwd=REPO, capture_output=True, text=True, timeout=300)
        assert p.returncode == code_expected, p.stderr[-2000:]
        assert shown in p.stdout
