"""Hostile buffers (binary, a YAML alias bomb, 50 MB, lone surrogates) get a diagnostic, never a crashed
or hung server: after each, the same server still answers a hover and checks the next edit."""
from __future__ import annotations

import asyncio
import time

import pytest
from lsprotocol import types

from lspclient import change_doc, codes, open_doc, point_path, wait_diags

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

BOMB = "\n".join(["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"] +
                 [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]) + "\n"
HOSTILE = [
    ("binary", "\x00\x01\x02\x7fELF\x00" * 100, "file-encoding"),
    ("alias-bomb", BOMB, "alias-budget"),
    ("50-MB", "concurrency: 8\nnotes: " + "x" * (50 * 1024 * 1024) + "\n", "file-too-large"),
    ("lone-surrogate", "concurrency: 8\nregion: \ud800\n", "file-encoding"),
]


async def _alive(client, u: str, version: int, valid: str) -> None:
    """The server answers a hover at once and still checks: the valid text clears the diagnostic."""
    t = time.monotonic()
    await asyncio.wait_for(client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(0, 1))), 30)
    assert time.monotonic() - t < 30
    change_doc(client, u, valid, version)
    await wait_diags(client, u, lambda ds: not any(d.severity == types.DiagnosticSeverity.Error for d in ds))


@pytest.mark.asyncio
@pytest.mark.parametrize("name,text,rule", HOSTILE, ids=[h[0] for h in HOSTILE])
async def test_a_hostile_buffer_is_a_diagnostic(client, package, name, text, rule):
    path = point_path(package)
    valid = open(path, encoding="utf-8").read()
    u = open_doc(client, path, text)
    t = time.monotonic()
    diags = await wait_diags(client, u, lambda ds: rule in codes(ds), timeout=90)
    assert time.monotonic() - t < 90
    d = next(d for d in diags if d.code == rule)
    assert d.severity == types.DiagnosticSeverity.Error
    await _alive(client, u, 2, valid)


@pytest.mark.asyncio
async def test_a_burst_of_edits_is_checked_once_at_its_end(client, package):
    """Fifty edits 5 ms apart (inside the debounce): the diagnostics that end up published are the last
    buffer's, and the server is not left checking the burst one edit at a time."""
    path = point_path(package)
    valid = open(path, encoding="utf-8").read()
    u = open_doc(client, path, valid)
    await wait_diags(client, u, lambda ds: True)
    for v in range(2, 52):
        change_doc(client, u, valid.replace("concurrency: 8\n", f"concurrency: {'x' * v}\n", 1), v)
        await asyncio.sleep(0.005)
    last = "x" * 51
    diags = await wait_diags(client, u, lambda ds: any(last in d.message for d in ds if d.code == "point-config-valid"))
    assert "point-config-valid" in codes(diags)
    stats = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="endpointsChecker.stats"))
    assert stats["checks"] <= 10, stats  # 51 buffers, a handful of checks (the debounce is 50 ms here)
    change_doc(client, u, valid, 60)
    await wait_diags(client, u, lambda ds: "point-config-valid" not in codes(ds))
