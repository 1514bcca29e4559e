"""The LSP methods the server answers, each a few lines over the modules that do the work."""
from __future__ import annotations

import asyncio

from lsprotocol import types

#: workspace/executeCommand: the server's counters (checks run, superseded, documents, memory)
STATS = "endpointsChecker.stats"


def register(server, safe) -> None:
    @server.feature(types.INITIALIZE)
    @safe
    def initialize(ls, params: types.InitializeParams):
        ls.apply_settings(params.initialization_options)
        if ls.settings.diagnostics == "pull":
            ls.feature(types.TEXT_DOCUMENT_DIAGNOSTIC, types.DiagnosticOptions(
                identifier="endpoints-checker", inter_file_dependencies=True, workspace_diagnostics=False))(
                safe(pull_diagnostics))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @safe
    def did_open(ls, params: types.DidOpenTextDocumentParams):
        ls.opened(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @safe
    def did_change(ls, params: types.DidChangeTextDocumentParams):
        path, st = ls.state_of(params.text_document.uri)
        if st is not None:
            ls.touch(st.unit, ls.settings.debounce_ms / 1000.0, path)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    @safe
    def did_save(ls, params: types.DidSaveTextDocumentParams):
        path, st = ls.state_of(params.text_document.uri)
        if st is not None:
            ls.touch(st.unit, 0.0, path)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @safe
    def did_close(ls, params: types.DidCloseTextDocumentParams):
        ls.closed(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @safe
    def did_change_configuration(ls, params: types.DidChangeConfigurationParams):
        ls.apply_settings(params.settings)
        for st in list(ls.units.values()):
            ls.touch(st.unit, 0.0, "")

    @server.command(STATS)
    def stats_command(ls, *args):
        return stats(ls)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @safe
    def hover(ls, params: types.HoverParams):
        from checker.lsp.actions import hover_text

        text = hover_text(ls, params.text_document.uri, params.position)
        if not text:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text))

    @server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, types.CodeActionKind.SourceFixAll]))
    @safe
    def code_action(ls, params: types.CodeActionParams):
        from checker.lsp.actions import code_actions

        return code_actions(ls, params)


def stats(ls) -> dict:
    """What the server holds and has done (tests, the benchmark, a curious user): checks run and dropped,
    open documents and units held, the process's resident memory, the parsed files kept between checks,
    the handlers pygls still tracks (the requests in flight, this one included; protocol.py keeps finished
    ones from piling up)."""
    rss = None
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            rss = next((int(line.split()[1]) for line in fh if line.startswith("VmRSS:")), None)
    except (OSError, ValueError):
        pass
    return {"checks": ls.scheduler.checks, "superseded": ls.scheduler.superseded, "documents": len(ls.doc_units),
            "units": len(ls.units), "rss_kb": rss, "parse_cache": ls.parse_cache.stats(),
            "in_flight": len(ls.protocol._request_futures)}


async def pull_diagnostics(ls, params: types.DocumentDiagnosticParams):
    """textDocument/diagnostic: the document's diagnostics from its unit's latest check (awaited if one is due)."""
    path, st = ls.state_of(params.text_document.uri)
    if st is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if st.checked_gen != st.gen:
        try:
            await asyncio.wait_for(st.done.wait(), 60)
        except asyncio.TimeoutError:
            pass
    rid = f"{st.checked_gen}"
    if params.previous_result_id == rid:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=rid)
    items = st.mapped.diagnostics.get(path, []) if st.mapped is not None else []
    return types.RelatedFullDocumentDiagnosticReport(items=list(items), result_id=rid)
