"""Every path a docstring or a docs page names exists: a module moved or renamed leaves no reader looking for it.

A path is a word starting with one of the repository's top folders (checker/, rules/, docs/, tests/, fixtures/,
schemas/, bench/); in a docs page a link relative to the page counts too. A pattern (``<family>``, ``*``) must
match something. ``ELSEWHERE`` lists the few paths that are not this repository's, each with why.
"""
from __future__ import annotations

import ast
import glob
import os
import re

from conftest import REPO

TOPS = ("checker", "rules", "docs", "tests", "fixtures", "schemas", "bench")
PATH = re.compile(r"(?<![\w./-])((?:%s)/(?:[\w./*{}-]|<[^>\n]*>)*[\w/*>])" % "|".join(TOPS))
ELSEWHERE = {
    "checker/schemas/": "the schemas inside an installed wheel (setup.py copies schemas/ there)",
    "checker/docs/rules/": "the rule pages inside an installed wheel",
    "tests/submission_checker": "the official checker's own test folder, in its repository",
    "docs/drafts/*": "an --exclude example: a submitter's folder",
    "docs/.gitkeep": "a placeholder real packages carry in their docs/",
}


def _named() -> list[tuple[str, str, str]]:
    """(where, the path as written, the folder it is relative to) for every path named."""
    out = []
    for top in ("checker", "rules"):
        for path in sorted(glob.glob(os.path.join(REPO, top, "**", "*.py"), recursive=True)):
            with open(path, encoding="utf-8") as fh:
                tree = ast.parse(fh.read())
            for node in ast.walk(tree):
                if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                    doc = ast.get_docstring(node, clean=False) or ""
                    out += [(os.path.relpath(path, REPO), m.group(1), REPO) for m in PATH.finditer(doc)]
    for path in sorted(glob.glob(os.path.join(REPO, "docs", "*.md"))):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        out += [(os.path.relpath(path, REPO), m.group(1), os.path.dirname(path)) for m in PATH.finditer(text)]
    return out


def _exists(named: str, base: str) -> bool:
    named = named.rstrip(".")
    if any(c in named for c in "<>*{}"):
        pattern = re.sub(r"<[^>]*>|\{[^}]*\}", "*", named)
        return any(glob.glob(os.path.join(b, pattern)) for b in {base, REPO})
    return any(os.path.exists(os.path.join(b, named)) for b in {base, REPO})


def test_every_path_a_docstring_or_page_names_exists():
    named = _named()
    assert len(named) > 100  # the scan sees the docstrings and the pages
    missing = sorted({(where, p) for where, p, base in named if p not in ELSEWHERE and not _exists(p, base)})
    assert not missing, "paths named but not in the repository (moved or renamed?):\n" + "\n".join(
        f"  {where}: {p}" for where, p in missing)


def test_no_page_carries_notes_about_how_the_project_is_built():
    """The docs are for users: no notes about branches, merges or work still to land."""
    notes = re.compile(r"\b(at merge|other branch|another branch|when (it|they) lands?|the lead)\b", re.I)
    found = []
    for path in sorted(glob.glob(os.path.join(REPO, "docs", "*.md"))) + sorted(
            glob.glob(os.path.join(REPO, "checker", "**", "*.py"), recursive=True)):
        with open(path, encoding="utf-8") as fh:
            found += [f"{os.path.relpath(path, REPO)}:{i}: {line.strip()}" for i, line in enumerate(fh, 1)
                      if notes.search(line)]
    assert not found, "process notes in user-facing text:\n" + "\n".join(found)
