"""Patch functions for loose spellings and the official's accuracy shapes, registered in cf_patch.DERIVED.

Kept apart from cf_patch.py (its vocabulary of plain edits): a value written unquoted in YAML
(``set_plain``), a file's own value respelled loosely (``respell``), accuracy results as a mapping or
with one dataset listed twice. Importing this module registers them.
"""
from __future__ import annotations

import os
from typing import Any

import yaml

import cf_patch

def set_plain(root: str, names: dict[str, str], file: str, path: list, text: str) -> None:
    """Set the value at ``path`` of each YAML file to ``text`` written as a plain scalar (unquoted), e.g. ``yes``,
    which YAML 1.1 (PyYAML) reads as a boolean and YAML 1.2 as text."""
    marker = "PLAIN-VALUE-MARKER"
    for target in cf_patch.targets(root, file, names):
        data = cf_patch.load(target)
        if not cf_patch.has(data, path[:-1]):
            continue
        data = cf_patch.set_in(data, path, marker)
        dumped = yaml.safe_dump(data, sort_keys=False, width=110, allow_unicode=True)
        assert dumped.count(marker) == 1, target
        cf_patch.put(target, dumped.replace(marker, text))

def respell(root: str, names: dict[str, str], file: str, path: list, how: str, default: Any = None) -> None:
    """Respell the value at ``path`` of each file loosely, keeping its meaning: ``quote`` a number as text,
    ``case`` a word in the other case, ``one`` a boolean as 1/0, ``yaml11`` a boolean as plain yes/no.
    A file without the value gets ``default`` so spelled."""
    for target in cf_patch.targets(root, file, names):
        data = cf_patch.load(target)
        if not cf_patch.has(data, path[:-1]):
            continue
        try:
            value = cf_patch.get_in(data, path)
        except (KeyError, IndexError, TypeError):
            value = default
        if how == "yaml11":
            set_plain(root, names, os.path.relpath(target, root), path, "yes" if value else "no")
            continue
        new = {"quote": lambda v: str(v), "one": lambda v: 1 if v else 0,
               "case": lambda v: v.lower() if v.upper() == v else v.upper()}[how](value)
        cf_patch.save(target, cf_patch.set_in(data, path, new))

def accuracy_as_mapping(root: str, names: dict[str, str]) -> None:
    """Write each accuracy_results.json's accuracy_scores list as a mapping by dataset_name."""
    for target in cf_patch.targets(root, "{curve}/*/accuracy_results.json", names):
        doc = cf_patch.load(target)
        doc["accuracy_scores"] = {e["dataset_name"]: e for e in doc["accuracy_scores"]}
        cf_patch.save(target, doc)

def accuracy_duplicate_entry(root: str, names: dict[str, str]) -> None:
    """List the first accuracy entry of r1's accuracy_results.json twice."""
    for target in cf_patch.targets(root, "{curve}/r1/accuracy_results.json", names):
        doc = cf_patch.load(target)
        doc["accuracy_scores"].append(dict(doc["accuracy_scores"][0]))
        cf_patch.save(target, doc)

cf_patch.DERIVED.update({"set_plain": set_plain, "respell": respell, "accuracy_as_mapping": accuracy_as_mapping,
                         "accuracy_duplicate_entry": accuracy_duplicate_entry})
