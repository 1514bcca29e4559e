"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (standard library only).

The layout tests need what ``--dump-dom`` cannot give: a viewport of a chosen width, element
boxes after layout, screenshots. Chromium reads commands from fd 3 and writes replies and events
to fd 4, each a JSON text ended by a NUL byte. ``Runtime.evaluate`` runs as the DevTools console
does, outside the page's Content-Security-Policy, so the page under test is loaded unchanged.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import pathlib
import select
import shutil
import subprocess
import tempfile
import time

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-extensions", "--hide-scrollbars", "--host-resolver-rules=MAP * ~NOTFOUND"]


class CDPError(RuntimeError):
    pass


class Browser:
    """One headless chromium with one page; ``open(path, width)`` then ``eval(js)`` / ``screenshot``."""

    def __init__(self, exe: str, timeout: float = 60.0):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="cdp-profile-")
        to_child_r, self._w = os.pipe()
        self._r, from_child_w = os.pipe()
        hi_r = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 100)
        hi_w = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 100)

        def fds():  # runs in the child before exec: the pipe ends become fds 3 and 4
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.proc = subprocess.Popen([exe, *FLAGS, f"--user-data-dir={self.profile}", "--remote-debugging-pipe",
                                      "about:blank"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL, preexec_fn=fds, pass_fds=(3, 4))
        for fd in (to_child_r, from_child_w, hi_r, hi_w):
            os.close(fd)
        self._buf, self._id, self._events = b"", 0, []
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)

    # ------------------------------------------------------------------ protocol
    def _read(self) -> dict:
        deadline = time.monotonic() + self.timeout
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._r], [], [], left)[0]:
                raise CDPError(f"chromium did not answer within {self.timeout:.0f} s")
            chunk = os.read(self._r, 1 << 16)
            if not chunk:
                raise CDPError("chromium closed the DevTools pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, session: bool = False, **params):
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if session:
            msg["sessionId"] = self.session
        os.write(self._w, json.dumps(msg).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._id:
                if "error" in reply:
                    raise CDPError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self._events.append(reply)

    def _wait_event(self, name: str) -> dict:
        while True:
            for i, ev in enumerate(self._events):
                if ev.get("method") == name:
                    return self._events.pop(i)
            self._events.append(self._read())

    # ------------------------------------------------------------------ page
    def open(self, path, width: int, height: int = 900, fragment: str = "") -> None:
        """Load a local file at a viewport of ``width`` x ``height`` CSS pixels; return after its load event."""
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)
        self._goto("about:blank")  # so the page below always loads afresh (not a same-document hash change)
        self._goto(pathlib.Path(path).resolve().as_uri() + fragment)

    def _goto(self, url: str) -> None:
        self._events.clear()
        r = self.call("Page.navigate", session=True, url=url)
        if "errorText" in r:
            raise CDPError(f"{url}: {r['errorText']}")
        if "loaderId" in r:  # omitted for a same-document navigation, which fires no load event
            self._wait_event("Page.loadEventFired")

    def eval(self, expression: str):
        """The JSON value of a JavaScript expression evaluated in the page."""
        r = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise CDPError(f"{expression[:80]}: {r['exceptionDetails'].get('exception', {}).get('description')}")
        return r["result"].get("value")

    def screenshot(self, out, full_page: bool = False, selector: str = "") -> None:
        """A PNG of the viewport, of the whole page, or of the first element matching ``selector``."""
        params = {"format": "png"}
        if selector:
            find = f"document.querySelector({json.dumps(selector)})"
            box = self.eval(f"(() => {{ const b = {find}.getBoundingClientRect();"
                            " return [b.left + scrollX, b.top + scrollY, b.width, b.height]; })()")
            params.update(captureBeyondViewport=True,
                          clip={"x": box[0], "y": box[1], "width": box[2], "height": box[3], "scale": 1})
        elif full_page:
            w, h = self.eval("[document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True, clip={"x": 0, "y": 0, "width": w, "height": h, "scale": 1})
        data = self.call("Page.captureScreenshot", session=True, **params)["data"]
        pathlib.Path(out).write_bytes(base64.b64decode(data))

    def close(self) -> None:
        try:
            self.call("Browser.close")
        except (CDPError, OSError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._r, self._w):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
