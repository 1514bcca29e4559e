"""pygls' LanguageServerProtocol with the protocol's lifecycle enforced, documents it never opened ignored,
and a per-notification leak of pygls 2.1.1 stopped.

Lifecycle (LSP 3.17, "Server lifecycle"): before ``initialize`` a request is answered with error -32002
(ServerNotInitialized) and a notification dropped; after ``shutdown`` a request is answered with error
-32600 (InvalidRequest) and a notification dropped; ``exit`` ends the server with code 0 after
``shutdown`` and 1 without (``exit_code``; the transport ends the process with it).
"""
from __future__ import annotations

import logging
from urllib.parse import unquote

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import RPCRequest

log = logging.getLogger(__name__)

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600


class CheckerProtocol(LanguageServerProtocol):
    def __init__(self, server, converter):
        super().__init__(server, converter)
        self.initialized = False  # an initialize request was answered
        self.shut_down = False  # a shutdown request was received
        self.exit_code: int | None = None  # set by the exit notification

    # -- lifecycle ----------------------------------------------------------------------------------------
    def handle_message(self, message) -> None:
        method = getattr(message, "method", None)
        if method is None:  # a response to a request of ours: always taken
            super().handle_message(message)
            return
        request = isinstance(message, RPCRequest)
        if method == types.EXIT:
            self.exit_code = 0 if self.shut_down else 1
            return
        if self.shut_down:
            self._refuse(message, request, INVALID_REQUEST, "the server is shut down: only exit is accepted")
        elif method == types.INITIALIZE:
            if self.initialized:
                self._refuse(message, request, INVALID_REQUEST, "the server is already initialized")
                return
            super().handle_message(message)
            self.initialized = True
        elif not self.initialized:
            self._refuse(message, request, SERVER_NOT_INITIALIZED, "the server is not initialized yet")
        else:
            if method == types.SHUTDOWN:
                self.shut_down = True
            super().handle_message(message)

    def _refuse(self, message, request: bool, code: int, text: str) -> None:
        if request:
            self._send_response(message.id, error=types.ResponseError(code=code, message=f"{text} ({message.method})"))
        else:
            log.info("dropped %s: %s", message.method, text)

    # -- pygls 2.1.1's leak ---------------------------------------------------------------------------------
    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        """Works around a leak of pygls 2.1.1, to be reported upstream (github.com/openlawlibrary/pygls; not
        yet filed from here): ``JsonRPCProtocol._execute_handler`` stores the Future of every handler that is
        a generator or a coroutine in ``_request_futures``, and for a notification (``_handle_notification``
        keys it by a fresh ``uuid4``) nothing ever removes it, since only a response or a cancellation pops
        an entry. Every didOpen, didChange, didSave and didClose runs the builtin generator handlers, so the
        server grew by 1.1-1.6 KB an edit for as long as it ran (62 -> 114 MB over 30,000 edits of a
        document it does not check). Here each stored entry is dropped once its handler is done; a request's
        own entry is popped first by its response, as before. tests/lsp/test_lsp_stdio.py holds the server
        flat over 6,000 edits, so a pygls that renames or moves the dict is noticed."""
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(lambda done, key=msg_id: self._forget(key, done))

    def _forget(self, msg_id, future) -> None:
        if self._request_futures.get(msg_id) is future:
            del self._request_futures[msg_id]

    # -- documents the client never opened ----------------------------------------------------------------
    def _is_open(self, uri: str) -> bool:
        return unquote(uri) in self.workspace.text_documents

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams):
        """A change of a document that is not open is logged and ignored (pygls raises KeyError, which
        its default error report shows the user as a popup)."""
        if not self._is_open(params.text_document.uri):
            self._server.note(f"textDocument/didChange for {params.text_document.uri}, which is not open: ignored")
            return
        yield from super().lsp_text_document__did_change(params)

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams):
        if not self._is_open(params.text_document.uri):
            self._server.note(f"textDocument/didClose for {params.text_document.uri}, which is not open: ignored")
            return
        yield from super().lsp_text_document__did_close(params)
