"""``endpoints-checker mcp``: serve the MCP tools over stdio (checker.mcp), or say how to install the SDK."""
from __future__ import annotations


class McpUnavailable(Exception):
    """The MCP SDK is not installed: a usage error naming the extra to install."""


def run() -> int:
    try:
        from checker.mcp.server import main
    except ImportError as exc:
        raise McpUnavailable(f"the MCP server needs the MCP Python SDK ({exc}): "
                             "pip install 'endpoints-checker[mcp]'") from None
    from checker.cli.settings import check_settings
    from checker.mcp import adapter

    adapter.use(check_settings())  # the configuration file's keys are check's options
    main()
    return 0
