"""``endpoints-checker lsp``: the language server over stdio (checker.lsp, the optional ``[lsp]`` extra)."""
from __future__ import annotations

import sys

MISSING = ("the language server needs the optional [lsp] extra (pygls): "
           "pip install 'endpoints-checker[lsp]'")


def run() -> int:
    """Serve until the client exits: 0 after shutdown, 1 without; 2 (a usage error) when pygls is not installed."""
    try:
        import pygls  # noqa: F401
        import lsprotocol  # noqa: F401
    except ImportError:
        print(f"error: {MISSING}", file=sys.stderr)
        return 2
    from checker.cli.settings import check_settings
    from checker.lsp import settings
    from checker.lsp.server import serve

    settings.use(check_settings())  # the configuration file's keys are check's options
    return serve()
