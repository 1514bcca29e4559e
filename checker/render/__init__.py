"""Renderers: small functions over one Report, each in its own module, imported on demand."""
from __future__ import annotations

import importlib

#: format name -> module exposing ``render(report, **options) -> str``
RENDERERS = {
    "text": "checker.render.text",
    "json": "checker.render.json_report",
    "sarif": "checker.render.sarif",
    "junit": "checker.render.junit",
    "github": "checker.render.github",
    "html": "checker.render.html",
    "markdown": "checker.render.markdown",
    "baseline": "checker.render.baseline_file",  # --write-baseline FILE (not a --format: a file to commit)
}

#: output file extension -> format, for ``-o FILE`` without ``--format``
EXTENSIONS = {
    ".json": "json",
    ".txt": "text",
    ".sarif": "sarif",
    ".xml": "junit",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
}


def resolve_auto(environ=None) -> str:
    """`--format auto`: GitHub annotations inside GitHub Actions, the text table elsewhere."""
    import os

    env = os.environ if environ is None else environ
    return "github" if env.get("GITHUB_ACTIONS") == "true" else "text"


def render(fmt: str, report, **options) -> str:
    return importlib.import_module(RENDERERS[fmt]).render(report, **options)
