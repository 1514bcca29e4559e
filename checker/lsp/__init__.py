"""The language server (``endpoints-checker lsp``, pygls, the optional ``[lsp]`` extra): diagnostics while a
submitter types, quick fixes from the fix engine, hover from the schemas and ``explain``. docs/editors.md.

server.py wires the protocol; protocol.py enforces its lifecycle; transport.py and frames.py read stdio with
bounded frames; resolve.py finds the package a document belongs to; run.py checks it with the editor's
buffers as the reader's overlay; diagnostics.py maps findings; hover.py, actions.py, settings.py,
schedule.py (debounce, max-wait and superseding), memory.py (freed heap pages handed back) and schemas.py
(the bundled JSON Schemas) hold the rest.
"""
