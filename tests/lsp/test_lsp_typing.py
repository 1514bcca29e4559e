"""Diagnostics while the user keeps typing: with edits every 60 ms or every 100 ms (faster than the
default 150 ms debounce lets a check start) a check of the latest buffer is still published about every
200 ms (the max-wait beside the debounce, checker/lsp/schedule.py), not once at the end. Before, edits
every 60 ms gave one publish after the last edit, and every 100 ms publishes stopped after about 16
edits."""
from __future__ import annotations

import time

import pytest

from lspclient import point_path, uri
from rawlsp import RawServer, notification

TYPING = 4.0  # seconds of typing


@pytest.mark.parametrize("every", [0.06, 0.1], ids=["60ms", "100ms"])
def test_diagnostics_keep_coming_while_the_user_types(package, every):
    server = RawServer()
    try:
        server.initialize()  # the default settings: debounce 150 ms
        path = point_path(package)
        text = open(path, encoding="utf-8").read()
        u = uri(path)
        server.send(notification("textDocument/didOpen", {"textDocument": {
            "uri": u, "languageId": "yaml", "version": 1, "text": text}}))
        assert server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics", 60)
        start = time.monotonic()
        version = 1
        while time.monotonic() - start < TYPING:
            version += 1
            body = text.replace("concurrency: 8\n", f"concurrency: {version}\n", 1)
            server.send(notification("textDocument/didChange", {
                "textDocument": {"uri": u, "version": version}, "contentChanges": [{"text": body}]}))
            server.wait(lambda m: False, every)  # read what arrives meanwhile, for this long
        end = time.monotonic()
        while_typing = [t for t, v in server.publishes(u) if start < t <= end and v and v >= 2]
        assert len(while_typing) >= 3, (while_typing, version)
        marks = [start] + while_typing + [end]
        gaps = [b - a for a, b in zip(marks, marks[1:])]
        assert max(gaps) < 2.0, gaps  # about 0.25 s; generous for a loaded machine (before: no publish at all)
        last = version
        assert server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"].get("version") == last, 30), "the last buffer was not published"
    finally:
        server.close()
