"""Renderers: small functions over one Report, each in its own module, imported on demand."""
from __future__ import annotations

import importlib

#: format name -> module exposing ``render(report, **options) -> str``
RENDERERS = {
    "text": "checker.render.text",
    "json": "checker.render.json_report",
    "html": "checker.render.html",
    "markdown": "checker.render.markdown",
}

#: output file extension -> format, for ``-o FILE`` without ``--format``
EXTENSIONS = {
    ".json": "json",
    ".txt": "text",
    ".html": "html",
    ".htm": "html",
    ".md": "markdown",
}


def render(fmt: str, report, **options) -> str:
    return importlib.import_module(RENDERERS[fmt]).render(report, **options)
