"""A client that drives ``python -m checker lsp`` over raw stdio: the test writes the frames itself, byte for
byte (tests/lsp/test_lsp_stdio.py), and reads what the server answers with a deadline."""
from __future__ import annotations

import json
import os
import select
import subprocess
import tempfile
import time

from lspclient import ENV, SERVER


def frame(obj, length: int | str | None = None) -> bytes:
    """``obj`` as one frame; ``length`` replaces the true Content-Length (a number or any text)."""
    body = json.dumps(obj).encode()
    return b"Content-Length: %s\r\n\r\n" % str(len(body) if length is None else length).encode() + body


def request(rid, method: str, params=None) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def notification(method: str, params=None) -> dict:
    return {"jsonrpc": "2.0", "method": method, "params": params}


STATS = request("stats", "workspace/executeCommand", {"command": "endpointsChecker.stats"})
INITIALIZE = request(0, "initialize", {"capabilities": {}, "processId": None})


class RawServer:
    def __init__(self):
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.stderr,
                                     env=ENV)
        self.received: list[dict] = []  # every message from the server, in order
        self.arrived: list[float] = []  # time.monotonic() when each was read
        self._buf = b""

    @property
    def pid(self) -> int:
        return self.proc.pid

    def write(self, data: bytes) -> None:
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, obj: dict) -> None:
        self.write(frame(obj))

    def initialize(self) -> dict:
        self.send(INITIALIZE)
        answer = self.answer(0)
        self.send(notification("initialized", {}))
        return answer

    def call(self, obj: dict, timeout: float = 30.0) -> dict:
        """Send request ``obj``; its response (one received after it was sent)."""
        start = len(self.received)
        self.send(obj)
        return self.answer(obj["id"], timeout, start)

    def answer(self, rid, timeout: float = 30.0, start: int = 0) -> dict:
        """The server's response to request ``rid`` (the first from ``received[start]`` on)."""
        found = self.wait(lambda m: "method" not in m and m.get("id") == rid, timeout, start)
        assert found is not None, f"no answer to {rid!r} within {timeout} s; received {self.received[-5:]}"
        return found

    def wait(self, pred, timeout: float, start: int = 0) -> dict | None:
        """The first message from ``received[start]`` on (already there, or arriving within ``timeout``) for
        which ``pred`` holds."""
        seen = start
        end = time.monotonic() + timeout
        while True:
            for m in self.received[seen:]:
                if pred(m):
                    return m
            seen = len(self.received)
            left = end - time.monotonic()
            if left <= 0 or not self._pump(left):
                return next((m for m in self.received[seen:] if pred(m)), None)

    def logs(self) -> list[str]:
        return [m["params"]["message"] for m in self.received if m.get("method") == "window/logMessage"]

    def popups(self) -> list[str]:
        return [m["params"]["message"] for m in self.received if m.get("method") == "window/showMessage"]

    def _pump(self, timeout: float) -> bool:
        """Read what the server wrote within ``timeout``; False at end of its output."""
        fd = self.proc.stdout.fileno()
        ready, _, _ = select.select([fd], [], [], timeout)
        if not ready:
            return True
        data = os.read(fd, 1 << 16)
        if not data:
            return False
        self._buf += data
        while True:
            head, sep, rest = self._buf.partition(b"\r\n\r\n")
            if not sep:
                break
            length = int(next(line for line in head.split(b"\r\n") if line.startswith(b"Content-Length:")).split(b":")[1])
            if len(rest) < length:
                break
            self.received.append(json.loads(rest[:length]))
            self.arrived.append(time.monotonic())
            self._buf = rest[length:]
        return True

    def publishes(self, u: str) -> list[tuple[float, int | None]]:
        """(arrival time, version) of each publishDiagnostics received for ``u``."""
        return [(t, m["params"].get("version")) for t, m in zip(self.arrived, self.received)
                if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == u]

    def rss_kb(self) -> int:
        with open(f"/proc/{self.pid}/status", encoding="ascii") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))

    def exit_code(self, timeout: float = 30.0, close_input: bool = False) -> int:
        """Wait for the server to end (its input left open unless ``close_input``)."""
        if close_input:
            self.proc.stdin.close()
        return self.proc.wait(timeout)

    def error_output(self) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        for fh in (self.proc.stdin, self.proc.stdout):
            try:
                fh.close()
            except OSError:
                pass
        self.stderr.close()
