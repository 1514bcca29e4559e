"""The server's stdio transport, in place of pygls' reader loop: frames cut with a bounded size and
re-synchronised after anything malformed (checker.lsp.frames), each refusal logged to the client (and the
request it held answered when its id can be read), messages that are not JSON-RPC answered or logged, and
the process's exit code from the protocol's lifecycle (checker.lsp.protocol).

The protocol writes to its own copy of standard output; file descriptor 1 then points at standard error,
so nothing else the process prints (a stray print, a library's warning) can corrupt the stream.
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import select
import threading

from checker.lsp.frames import PEEK, Frames, Problem

log = logging.getLogger(__name__)

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
CHUNK = 64 * 1024
#: a request's id near the start of a body that could not be read (before its params, as clients write it)
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\\r\n]|\\.){0,200}")')


class Output:
    """pygls' writer: every byte of each message to the client, one message at a time (a check's worker
    thread may log while the loop publishes), or ``lost`` once the client stopped reading."""

    def __init__(self, fd: int):
        self.fd = fd
        self.lost = False
        self.on_lost = lambda: None
        self._lock = threading.Lock()

    def write(self, data: bytes) -> None:
        with self._lock:
            view = memoryview(data)
            while view and not self.lost:
                try:
                    view = view[os.write(self.fd, view):]
                except BlockingIOError:  # a non-blocking pipe that is full: wait until it drains
                    select.select([], [self.fd], [])
                except OSError:  # EPIPE and the like: the client went away
                    self.lost = True
                    self.on_lost()

    def close(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass


def serve_stdio(server) -> int:
    """Serve ``server`` over standard input and output until exit or end of input; the exit code."""
    out = Output(os.dup(1))
    try:
        os.dup2(2, 1)
    except OSError:  # no standard error: stray output goes nowhere
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.close(devnull)
    server.protocol.set_writer(out)
    try:
        return asyncio.run(_serve(server, 0, out))
    finally:
        out.close()


async def _serve(server, in_fd: int, out: Output) -> int:
    protocol = server.protocol
    loop = asyncio.get_running_loop()
    chunks: asyncio.Queue[bytes] = asyncio.Queue(maxsize=2)  # the reader waits: input is read as it is used
    threading.Thread(target=_read, args=(in_fd, loop, chunks), daemon=True, name="endpoints-checker-lsp-stdin").start()
    out.on_lost = lambda: loop.call_soon_threadsafe(_wake, chunks)
    frames = Frames()
    while protocol.exit_code is None and not out.lost:
        chunk = await chunks.get()
        if not chunk:
            break
        for item in frames.feed(chunk):
            if isinstance(item, Problem):
                refused(server, item)
            else:
                dispatch(server, item)
            if protocol.exit_code is not None:
                break
    if protocol.exit_code is not None:
        return protocol.exit_code
    return 0 if protocol.shut_down else 1  # the client went away without exit


def _wake(chunks: asyncio.Queue) -> None:
    """End the wait for input (the client stopped reading); a full queue is read, and the loop stops, anyway."""
    try:
        chunks.put_nowait(b"")
    except asyncio.QueueFull:
        pass


def _read(fd: int, loop: asyncio.AbstractEventLoop, chunks: asyncio.Queue) -> None:
    """Standard input, chunk by chunk, into the loop (a daemon thread: a read still waiting never holds
    the process at exit)."""
    while True:
        try:
            chunk = os.read(fd, CHUNK)
        except OSError:
            chunk = b""
        try:
            asyncio.run_coroutine_threadsafe(chunks.put(chunk), loop).result()
        except Exception:  # noqa: BLE001  (the loop is gone: the server is ending)
            return
        if not chunk:
            return


def dispatch(server, body: bytes) -> None:
    """One frame's body to the protocol; a body that is not a JSON-RPC message is answered or logged."""
    protocol = server.protocol
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as exc:
        refused(server, Problem(f"a message that is not JSON ({str(exc)[:120]})", body[:PEEK]))
        return
    if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
        refused(server, Problem("a message that is not a JSON-RPC 2.0 object", body[:PEEK]), INVALID_REQUEST)
        return
    from pygls.exceptions import JsonRpcException

    try:
        message = protocol.structure_message(data)
    except JsonRpcException as exc:
        method = str(data.get("method", ""))[:80]
        if "id" in data and "method" in data:
            protocol._send_response(data["id"], error=exc.to_response_error())
        server.note(f"{method or 'a message'}: its params are not what the method takes: ignored")
        return
    try:
        protocol.handle_message(message)
    except Exception:  # noqa: BLE001  (pygls answers a handler's own failure; this is anything else)
        log.exception("handling %s", getattr(message, "method", "a response"))
        server.note(f"could not handle {getattr(message, 'method', 'a response')}: an internal error, logged")


def refused(server, problem: Problem, code: int = PARSE_ERROR) -> None:
    """Log a refused frame or message to the client; answer the request it held when its id can be read."""
    server.note(f"refused {problem.text}; waiting for the next message")
    rid = request_id(problem.body)
    if rid is not None:
        from lsprotocol import types

        server.protocol._send_response(rid, error=types.ResponseError(code=code, message=f"refused {problem.text}"))


def request_id(body: bytes | None):
    """The id of the request at the start of ``body``, if one can be read there (else None)."""
    if not body or b'"method"' not in body:
        return None
    m = _ID.search(body.split(b'"params"', 1)[0])
    if m is None:
        return None
    try:
        return json.loads(m.group(1))
    except ValueError:
        return None
