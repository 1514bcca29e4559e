"""The language server as a real process over raw stdio, the frames written byte for byte: every kind of
malformed frame is refused with a logged error and the next message is answered; an oversized
Content-Length neither crashes nor hangs it; the protocol's lifecycle (-32002 before initialize, an error
after shutdown, exit 1 without shutdown); a change of a document never opened is no popup; memory stays
flat over 6,000 edits (pygls 2.1.1 kept a Future per notification, checker/lsp/protocol.py)."""
from __future__ import annotations

import json
import os
import time

import pytest

from lspclient import point_path, uri
from rawlsp import INITIALIZE, STATS, RawServer, frame, notification, request

HOVER = request(7, "textDocument/hover", {"textDocument": {"uri": "file:///nowhere/point.yaml"},
                                          "position": {"line": 0, "character": 0}})
BODY = json.dumps(HOVER).encode()
#: name -> the malformed bytes (each holding request 7) and whether request 7 can be answered with an error
MALFORMED = {
    "non-numeric length": (b"Content-Length: twelve\r\n\r\n" + BODY, True),
    "negative length": (b"Content-Length: -5\r\n\r\n" + BODY, True),
    "missing length": (b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n" + BODY, True),
    "random bytes": (bytes(range(256)) * 4 + os.urandom(4096).replace(b"ength", b"xxxxx"), False),
    "length shorter than the body": (frame(HOVER, len(BODY) - 20), False),
    "length longer than the body": (frame(HOVER, len(BODY) + 500), True),
    "length 99999999999": (frame(HOVER, 99999999999), True),
    "length 4000000000": (frame(HOVER, 4000000000), True),
    "a body that is not JSON": (b"Content-Length: 9\r\n\r\n{\"id\": 7,", False),
    "JSON that is not JSON-RPC": (frame({"id": 7, "method": "textDocument/hover"}), True),
}


@pytest.fixture
def server():
    s = RawServer()
    yield s
    s.close()


@pytest.mark.parametrize("name", list(MALFORMED))
def test_a_malformed_frame_is_refused_and_the_next_message_answered(server, name):
    bad, answerable = MALFORMED[name]
    server.initialize()
    server.write(bad)
    stats = server.call(STATS, timeout=30)
    assert stats["result"]["in_flight"] == 1, stats  # the stats request itself
    refusals = [text for text in server.logs() if text.startswith("refused")]
    assert len(refusals) >= 1, server.received
    if answerable:
        error = server.answer(7)["error"]
        assert error["code"] in (-32700, -32600) and error["message"].startswith("refused"), error
    assert not server.popups()
    assert server.proc.poll() is None
    # and it still serves the whole protocol: a second request, a clean shutdown, exit 0
    assert server.call(request("again", "workspace/executeCommand", {"command": "endpointsChecker.stats"}))["result"]
    assert server.call(request("bye", "shutdown"))["result"] is None
    server.send(notification("exit"))
    assert server.exit_code() == 0


def test_malformed_frames_one_after_another_each_resynchronise(server):
    """Every kind in a row, written in pieces that split headers and bodies, then one good request: it is
    answered. (Bytes after a refused frame up to the next header are skipped with it, so garbage right
    after a refusal is not a refusal of its own.)"""
    server.initialize()
    stream = b"".join(bad for bad, _ in MALFORMED.values()) + frame(STATS)
    for i in range(0, len(stream), 997):
        server.write(stream[i:i + 997])
    assert "result" in server.answer("stats")
    assert len([t for t in server.logs() if t.startswith("refused")]) >= 6
    assert all("error" in m for m in server.received if m.get("id") == 7)


def test_an_oversized_length_neither_allocates_it_nor_waits_for_it(server):
    """99,999,999,999 crashed the server with MemoryError, 4,000,000,000 made it wait for ever: now both
    are refused at once, memory stays where it was, and the next request is answered."""
    server.initialize()
    before = server.rss_kb()
    t = time.monotonic()
    server.write(b"Content-Length: 99999999999\r\n\r\n" + BODY + b"Content-Length: 4000000000\r\n\r\n" + BODY)
    server.send(STATS)
    assert "result" in server.answer("stats", timeout=30)
    assert time.monotonic() - t < 30
    assert server.rss_kb() - before < 20_000
    assert any("over the limit" in text for text in server.logs())


def test_requests_before_initialize_are_refused_with_32002(server):
    server.send(notification("textDocument/didOpen", {"textDocument": {
        "uri": "file:///tmp/x/point.yaml", "languageId": "yaml", "version": 1, "text": "a: 1\n"}}))
    assert server.call(STATS)["error"]["code"] == -32002
    assert server.call(HOVER)["error"]["code"] == -32002
    assert "capabilities" in server.call(INITIALIZE)["result"]
    assert server.call(request(1, "initialize", {"capabilities": {}}))["error"]["code"] == -32600
    stats = server.call(STATS)["result"]
    assert stats["documents"] == 0  # the didOpen before initialize was dropped


def test_after_shutdown_requests_get_an_error_and_exit_is_0(server):
    server.initialize()
    assert server.call(request("s", "shutdown"))["result"] is None
    assert server.call(STATS)["error"]["code"] == -32600
    assert server.call(request("s2", "shutdown"))["error"]["code"] == -32600
    server.send(notification("exit"))
    assert server.exit_code() == 0


def test_exit_without_shutdown_is_1(server):
    server.initialize()
    server.send(notification("exit"))
    assert server.exit_code() == 1


def test_exit_before_initialize_is_1(server):
    server.send(notification("exit"))
    assert server.exit_code() == 1


def test_end_of_input_without_exit_ends_the_server(server):
    server.initialize()
    assert server.exit_code(close_input=True) == 1


def test_a_change_of_a_document_never_opened_is_logged_not_a_popup(server, package):
    server.initialize()
    u = uri(point_path(package))
    server.send(notification("textDocument/didChange", {"textDocument": {"uri": u, "version": 2},
                                                          "contentChanges": [{"text": "concurrency: 8\n"}]}))
    server.send(notification("textDocument/didClose", {"textDocument": {"uri": u}}))
    stats = server.call(STATS)["result"]
    assert stats["documents"] == 0 and stats["checks"] == 0
    assert not server.popups(), server.popups()
    assert any("not open: ignored" in text for text in server.logs())
    assert "KeyError" not in server.error_output() + "".join(server.logs())


def test_params_that_are_not_the_methods_answer_the_request(server):
    server.initialize()
    answer = server.call(request(9, "textDocument/hover", {"textDocument": 5}))
    assert answer["error"]["code"] == -32602
    assert not server.popups()


def test_memory_is_flat_over_6000_edits(server):
    """6,000 didChange edits of an open document (one the server does not check, so only the protocol
    runs): resident memory after the 6,000th within 3 MB of after the 1,000th, and no handler kept. With
    pygls 2.1.1 alone it grew by 1.1-1.6 KB an edit (+6-8 MB here)."""
    server.initialize()
    u = "file:///tmp/endpoints-checker-notes.txt"
    server.send(notification("textDocument/didOpen", {"textDocument": {"uri": u, "languageId": "plaintext",
                                                                       "version": 1, "text": ""}}))
    samples, held = {}, {}
    for v in range(2, 6002):
        server.send(notification("textDocument/didChange", {
            "textDocument": {"uri": u, "version": v}, "contentChanges": [{"text": f"edit {v} " + "x" * 200}]}))
        if (v - 1) % 1000 == 0:
            held[v - 1] = server.call(STATS)["result"].get("in_flight")
            samples[v - 1] = server.rss_kb()
    assert samples[6000] - samples[1000] < 3 * 1024, samples
    assert set(held.values()) == {1}, held  # the stats request itself, nothing else


def test_a_client_that_stops_reading_ends_the_server(server):
    """The client closes its end of the server's output but keeps the input open: the next answer finds
    the pipe closed and the server ends (exit 1: no shutdown), instead of living on unheard."""
    server.initialize()
    server.proc.stdout.close()
    server.send(STATS)
    assert server.exit_code(timeout=30) == 1
