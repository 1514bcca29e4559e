"""The language server's protocol wiring (pygls): documents in, diagnostics, hovers and quick fixes out.

Every handler survives whatever a document holds: a check never raises (``check_request``), and anything
else that fails is logged to the client (window/logMessage, never a popup) and answered with nothing. The
lifecycle and pygls' workarounds are in protocol.py, the stdio framing in transport.py and frames.py.
"""
from __future__ import annotations

import asyncio
import logging
import os
import traceback

from lsprotocol import types
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from checker.core.version import __version__
from checker.lsp import settings as settings_mod
from checker.lsp.diagnostics import SOURCE, Mapped
from checker.lsp.protocol import CheckerProtocol
from checker.lsp.resolve import Unit, file_kind, inside, resolve
from checker.lsp.schedule import Scheduler, UnitState

log = logging.getLogger("endpoints-checker.lsp")


class CheckerServer(LanguageServer):
    def __init__(self):
        super().__init__("endpoints-checker", __version__, protocol_cls=CheckerProtocol)
        self.settings = settings_mod.Settings()
        self.units: dict[Unit, UnitState] = {}
        self.doc_units: dict[str, Unit] = {}  # path of each open document -> its unit
        self.uris: dict[str, str] = {}  # path -> the URI the client named it by
        from checker.lsp.memory import trim

        self.scheduler = Scheduler(self._run, self._publish, settle=trim)
        from checker.load.parse_cache import ParseCache

        # a file whose bytes did not change since the last check is not parsed again (checker.load.parse_cache):
        # every check is given it (checker.lsp.run.check_unit)
        self.parse_cache = ParseCache()

    # -- documents -> units -------------------------------------------------------------------------------
    def path_of(self, uri: str) -> str | None:
        if not uri.startswith("file:"):
            return None
        p = to_fs_path(uri)
        return os.path.abspath(p) if p else None

    def uri_of(self, path: str) -> str:
        return self.uris.get(path) or from_fs_path(path) or path

    def opened(self, uri: str) -> None:
        path = self.path_of(uri)
        if path is None or file_kind(path) is None:
            return
        unit = resolve(path)
        self.doc_units[path] = unit
        self.uris[path] = uri
        self.units.setdefault(unit, UnitState(unit))
        self.touch(unit, 0.0, path)

    def touch(self, unit: Unit, delay: float, trigger: str) -> None:
        st = self.units.get(unit)
        if st is None:
            return
        self.scheduler.touch(st, delay, lambda: self._snapshot(unit, trigger))

    def closed(self, uri: str) -> None:
        path = self.path_of(uri)
        unit = self.doc_units.pop(path, None) if path else None
        if unit is None:
            return
        self.uris.pop(path, None)
        st = self.units.get(unit)
        if st is None:
            return
        if any(u == unit for u in self.doc_units.values()):
            self.touch(unit, 0.0, next(p for p, u in self.doc_units.items() if u == unit))
            return
        self.scheduler.cancel(st)
        if self.settings.diagnostics == "push":
            for p in st.published:
                self._send(p, [])
        del self.units[unit]

    def _snapshot(self, unit: Unit, trigger: str) -> dict:
        buffers, versions = {}, {}
        for path, u in self.doc_units.items():
            if u != unit:
                continue
            doc = self.workspace.get_text_document(self.uris[path])
            buffers[path] = doc.source
            versions[path] = doc.version
        if trigger not in buffers and buffers:
            trigger = next(iter(buffers))
        return {"buffers": buffers, "versions": versions, "trigger": trigger, "settings": self.settings,
                "encoding": _encoding(self)}

    # -- checks (worker thread) ---------------------------------------------------------------------------
    def _run(self, st: UnitState, snap: dict):
        from checker.lsp.run import check_unit

        try:
            mapped = check_unit(st.unit, snap["buffers"], snap["trigger"], snap["settings"], snap["encoding"],
                                self.parse_cache)
        except Exception as exc:  # noqa: BLE001  (a bug of the server: said on the document, never a crash)
            mapped = Mapped()
            mapped.add(snap["trigger"], types.Diagnostic(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)), severity=types.DiagnosticSeverity.Error,
                source=SOURCE, code="submission-checked",
                message=f"the check did not complete (internal error: {type(exc).__name__}: {str(exc)[:200]}); "
                        "please report this to the endpoints-checker maintainers"))
            self.note(traceback.format_exc())
        return mapped, snap["versions"]

    def _publish(self, st: UnitState) -> None:
        mapped = st.mapped
        now = {p for p in mapped.diagnostics if inside(p, st.unit) or p in self.doc_units}
        if self.settings.diagnostics == "push":
            for p in sorted(now):
                self._send(p, mapped.diagnostics[p], st.versions.get(p))
            for p in sorted(p for p, u in self.doc_units.items() if u == st.unit and p not in now):
                self._send(p, [], st.versions.get(p))  # an open document with nothing to say is told so
            for p in sorted(st.published - now):
                self._send(p, [])
            st.published = now
        else:
            st.published = set()
            ws = getattr(self.client_capabilities, "workspace", None)
            diag = getattr(ws, "diagnostics", None) if ws is not None else None
            if diag is not None and getattr(diag, "refresh_support", False):
                self.workspace_diagnostic_refresh(None)

    def _send(self, path: str, diags: list, version: int | None = None) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=self.uri_of(path), diagnostics=list(diags), version=version))

    def note(self, text: str, kind: types.MessageType = types.MessageType.Error) -> None:
        """Say ``text`` in the client's log (window/logMessage); never raises. (Not on standard error as well: a
        client that never reads it would, once its pipe fills, block the server.)"""
        log.debug("%s", text[:4000])
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=text[:4000]))
        except Exception:  # noqa: BLE001
            pass

    def report_server_error(self, error: Exception, source) -> None:
        """pygls' report of a failure outside a request: logged, where pygls' default shows a popup."""
        self.note(f"endpoints-checker: internal error ({type(error).__name__}: {str(error)[:300]})")

    def state_of(self, uri: str) -> tuple[str | None, UnitState | None]:
        path = self.path_of(uri)
        unit = self.doc_units.get(path) if path else None
        return path, (self.units.get(unit) if unit is not None else None)

    def apply_settings(self, raw) -> None:
        new, problems = settings_mod.parse(raw, self.settings)
        if new.diagnostics != self.settings.diagnostics and self.settings.diagnostics == "push":
            for st in self.units.values():
                for p in st.published:
                    self._send(p, [])
                st.published = set()
        mode = self.settings.diagnostics
        self.settings = new
        if mode == "pull" and new.diagnostics == "push":
            pass  # the next checks publish
        for text in problems:
            try:
                self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning,
                                                                 message=f"endpoints-checker: {text}"))
            except Exception:  # noqa: BLE001
                pass


def _encoding(ls) -> str:
    enc = ls.workspace.position_encoding
    return str(getattr(enc, "value", enc) or "utf-16")


def _safe(fn):
    """A handler that logs its own failure and answers None instead of raising into pygls."""
    import functools

    if asyncio.iscoroutinefunction(fn):
        @functools.wraps(fn)
        async def wrapped(ls, params):
            try:
                return await fn(ls, params)
            except Exception:  # noqa: BLE001
                ls.note(traceback.format_exc())
                return None
    else:
        @functools.wraps(fn)
        def wrapped(ls, params):
            try:
                return fn(ls, params)
            except Exception:  # noqa: BLE001
                ls.note(traceback.format_exc())
                return None
    return wrapped


def build() -> CheckerServer:
    from checker.lsp import features

    server = CheckerServer()
    features.register(server, _safe)
    return server


def serve() -> int:
    """Serve over standard input and output until the client says exit; the exit code (0 after shutdown)."""
    from checker.lsp.memory import one_heap
    from checker.lsp.transport import serve_stdio

    one_heap()
    server = build()
    try:
        return serve_stdio(server)
    finally:
        server.scheduler.close()
