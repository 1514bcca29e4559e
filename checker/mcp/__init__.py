"""``endpoints-checker mcp``: a Model Context Protocol server over stdio for coding agents.

server.py wires the tools and resources onto the SDK's MCPServer; roots.py keeps every path inside the
client's declared roots; tools.py holds the tool functions (plain, synchronous, SDK-free); adapter.py is
the one place that runs a check in-process; models.py the typed results; arguments.py tells a refused
argument in our words; resources.py what agents read.
Importing this package imports nothing of the SDK: only server.py does (the optional ``[mcp]`` extra).
"""
