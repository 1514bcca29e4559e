"""The JSON Schemas in schemas/ by kind: what ``endpoints-checker schema KIND`` prints and what hover reads.

They are looked up as the rest of the command line finds its repository files (``checker.render.explain``):
package data ``checker/schemas/`` when an install ships it, else the source checkout's ``schemas/``.
A kind is a file's name without ``.schema.json`` (``point``, ``report``), or ``policy/<name>``.
"""
from __future__ import annotations

import json
import os

_HERE = os.path.dirname(os.path.abspath(__file__))
_CANDIDATES = (os.path.join(os.path.dirname(_HERE), "schemas"), os.path.join(os.path.dirname(os.path.dirname(_HERE)),
                                                                             "schemas"))
SUFFIX = ".schema.json"
#: the file a document kind's hover reads (the first that exists)
FOR_FILE = {
    "point.yaml": ("point",),
    "config.yaml": ("config", "client_config"),
    "system_desc.json": ("system_desc",),
    "result_summary.json": ("result_summary",),
    "accuracy_results.json": ("accuracy_results", "accuracy"),
    "system_power.json": ("system_power",),
    "steady_state.json": ("steady_state",),
}


def schema_dir() -> str | None:
    for d in _CANDIDATES:
        if os.path.isdir(d):
            return d
    return None


def kinds() -> list[str]:
    """Every kind there is a schema for, sorted (policy schemas as policy/<name>)."""
    d = schema_dir()
    if d is None:
        return []
    out = [n[: -len(SUFFIX)] for n in os.listdir(d) if n.endswith(SUFFIX)]
    pol = os.path.join(d, "policy")
    if os.path.isdir(pol):
        out += [f"policy/{n[: -len(SUFFIX)]}" for n in os.listdir(pol) if n.endswith(SUFFIX)]
    return sorted(out)


def path_of(kind: str) -> str | None:
    d = schema_dir()
    if d is None or kind not in kinds():
        return None
    return os.path.join(d, *kind.split("/")) + SUFFIX


def text_of(kind: str) -> str | None:
    p = path_of(kind)
    if p is None:
        return None
    with open(p, encoding="utf-8") as fh:
        return fh.read()


def for_file(name: str) -> dict | None:
    """The parsed schema a document of this file name is described by, or None. Read per hover (a few kB):
    no cache, so an updated schema shows at once and memory stays flat."""
    for kind in FOR_FILE.get(name, ()):
        try:
            text = text_of(kind)
        except OSError:
            text = None
        if text is not None:
            try:
                doc = json.loads(text)
            except ValueError:
                return None
            return doc if isinstance(doc, dict) else None
    return None
