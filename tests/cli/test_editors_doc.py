"""docs/editors.md's editor settings point at schemas the command prints and at files a package holds."""
from __future__ import annotations

import fnmatch
import json
import os
import re

from checker.lsp.schemas import kinds

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PACKAGE = os.path.join(REPO, "fixtures", "valid")


def _doc() -> str:
    with open(os.path.join(REPO, "docs", "editors.md"), encoding="utf-8") as fh:
        return fh.read()


def _package_files() -> list[str]:
    out = []
    for dirpath, _dirs, files in os.walk(PACKAGE):
        out += [os.path.relpath(os.path.join(dirpath, f), PACKAGE).replace(os.sep, "/") for f in files]
    return out


def _kind(path: str) -> str:
    name = os.path.basename(path)
    assert name.endswith(".schema.json"), path
    return name[: -len(".schema.json")]


def _matches(glob: str, files: list[str]) -> bool:
    pattern = glob[3:] if glob.startswith("**/") else glob
    return any(fnmatch.fnmatch(f, pattern) or fnmatch.fnmatch(f, "*/" + pattern) for f in files)


def test_the_vscode_settings_map_package_files_to_printed_schemas():
    block = re.search(r"```json\n(\{\n  \"yaml.schemas\".*?)```", _doc(), re.S)
    assert block, "the VS Code settings snippet is gone"
    settings = json.loads(block.group(1))
    files = _package_files()
    pairs = [(path, globs) for path, globs in settings["yaml.schemas"].items()]
    pairs += [(entry["url"], entry["fileMatch"]) for entry in settings["json.schemas"]]
    assert {_kind(p) for p, _ in pairs} == {"point", "system_desc", "result_summary", "system_power"}
    for path, globs in pairs:
        assert _kind(path) in kinds()
        assert os.path.normpath(path).startswith(".schemas"), path
        for glob in globs:
            assert _matches(glob, files), f"{glob} matches no file of fixtures/valid"
            assert fnmatch.fnmatch(glob.rsplit("/", 1)[1], _kind(path) + ".*"), (glob, path)


def test_the_modeline_reaches_the_package_root_from_a_point():
    line = re.search(r"# yaml-language-server: \$schema=(\S+)", _doc())
    assert line
    target = line.group(1)
    point = next(f for f in _package_files() if f.endswith("/point.yaml"))
    resolved = os.path.normpath(os.path.join(os.path.dirname(point), target))
    assert resolved == os.path.join(".schemas", "point.schema.json"), resolved
    assert "endpoints-checker schema point > .schemas/point.schema.json" in _doc()
