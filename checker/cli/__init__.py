"""The command line (click): main.py (the commands), entry.py (the console script; prestart.py starts the
official checker's child first), check_command.py (``check``: its options, then one RunConfig and the run),
output.py, targets.py, streams.py and folder.py (every byte of every output delivered, or the exit code says
not), interrupt.py (SIGINT/SIGTERM), fixing.py (--fix, --diff), usage.py (usage errors, completion), settings.py
(``config``; check's option declarations for the servers and the library API), policy_command.py,
draft_command.py, schema_command.py, lsp_command.py and mcp_command.py (the only importers of lsp/ and mcp/),
action.py and action_setup.py (the GitHub Action), maintainer.py (``make docs``: rule_docs.py; ``make schemas``:
schemagen.py)."""
