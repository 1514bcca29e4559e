"""Helpers of the language-server tests (tests/lsp): the server command, client capabilities, documents
opened and changed in the editor's buffer, and waiting for one document's diagnostics."""
from __future__ import annotations

import asyncio
import os
import sys

from lsprotocol import types

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POINT = os.path.join("results", "H200-SXM-141GBx8_TRT", "llama3_1-8b", "{}", "point.yaml")
SERVER = [sys.executable, "-m", "checker", "lsp"]
ENV = {**os.environ, "PYTHONPATH": REPO}


def capabilities() -> types.ClientCapabilities:
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(
            workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True),
            diagnostics=types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)),
        text_document=types.TextDocumentClientCapabilities(
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(related_information=True),
            diagnostic=types.DiagnosticClientCapabilities()))


def point_path(root: str, point: str = "r8") -> str:
    return os.path.join(root, POINT.format(point))


def uri(path: str) -> str:
    from pygls.uris import from_fs_path

    return from_fs_path(path)


def open_doc(client, path: str, text: str, version: int = 1, language: str = "yaml") -> str:
    u = uri(path)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=u, language_id=language, version=version, text=text)))
    return u


def change_doc(client, u: str, text: str, version: int) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=u, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


async def wait_diags(client, u: str, pred, timeout: float = 60.0):
    """The diagnostics last published for ``u`` once ``pred(diagnostics)`` holds (fails after ``timeout``)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = client.diagnostics.get(u)
        if got is not None and pred(list(got)):
            return list(got)
        left = end - loop.time()
        if left <= 0:
            raise AssertionError(f"no matching diagnostics for {u} within {timeout} s; last: {got}")
        try:
            await asyncio.wait_for(client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), left)
        except asyncio.TimeoutError:
            pass


def codes(diags) -> set:
    return {d.code for d in diags}
