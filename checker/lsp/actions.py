"""Quick fixes (the fix engine's edits as workspace edits) and the hover text of a position.

A fix is offered only while the document is the version the check read: the edits' spans are exact for
that text (``checker.fix.locate``) and would be wrong for any other. The client is told the version too
(a versioned TextDocumentEdit), so a stale edit is refused by the editor as well.
"""
from __future__ import annotations

import os

from lsprotocol import types

FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.endpoints-checker"


def _contains(r: types.Range, p: types.Position) -> bool:
    return (r.start.line, r.start.character) <= (p.line, p.character) <= (r.end.line, r.end.character)


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and \
        (b.start.line, b.start.character) <= (a.end.line, a.end.character)


def _current(ls, st, path: str) -> bool:
    try:
        doc = ls.workspace.get_text_document(ls.uri_of(path))
    except Exception:  # noqa: BLE001
        return False
    return st.checked_gen == st.gen and st.versions.get(path) == doc.version


def _workspace_edit(ls, st, edits) -> types.WorkspaceEdit:
    by_path: dict[str, list] = {}
    for path, rng, new in edits:
        by_path.setdefault(path, []).append(types.TextEdit(range=rng, new_text=new))
    ws = getattr(ls.client_capabilities, "workspace", None)
    we = getattr(ws, "workspace_edit", None) if ws is not None else None
    if we is not None and getattr(we, "document_changes", False):
        return types.WorkspaceEdit(document_changes=[
            types.TextDocumentEdit(text_document=types.OptionalVersionedTextDocumentIdentifier(
                uri=ls.uri_of(p), version=st.versions.get(p)), edits=es) for p, es in sorted(by_path.items())])
    return types.WorkspaceEdit(changes={ls.uri_of(p): es for p, es in sorted(by_path.items())})


def code_actions(ls, params: types.CodeActionParams):
    path, st = ls.state_of(params.text_document.uri)
    if st is None or st.mapped is None or not _current(ls, st, path):
        return []
    only = params.context.only or []
    want_quick = not only or any(k.startswith("quickfix") for k in only)
    want_all = not only or any(FIX_ALL.startswith(k) or k.startswith("source") for k in only)
    out = []
    if want_quick:
        for diag, rule_id, _title, edits in st.mapped.fixes.get(path, []):
            if not _overlaps(diag.range, params.range):
                continue
            fix = diag.message.split("\nfix: ", 1)[1] if "\nfix: " in diag.message else "apply the fix"
            out.append(types.CodeAction(title=f"{rule_id}: {fix}"[:160], kind=types.CodeActionKind.QuickFix,
                                        diagnostics=[diag], is_preferred=True, edit=_workspace_edit(ls, st, edits)))
    if want_all and st.mapped.fix_all.get(path):
        edits = [(path, rng, new) for rng, new in st.mapped.fix_all[path]]
        out.append(types.CodeAction(title=f"Fix every certain problem in {os.path.basename(path)} (endpoints-checker)",
                                    kind=FIX_ALL, edit=_workspace_edit(ls, st, edits)))
    return out


def hover_text(ls, uri: str, position: types.Position) -> str | None:
    """explain's text for the diagnostics under the cursor, then the key's schema entry."""
    path, st = ls.state_of(uri)
    if path is None:
        return None
    parts = []
    if st is not None and st.mapped is not None:
        here = [d.code for d in st.mapped.diagnostics.get(path, []) if isinstance(d.code, str)
                and _contains(d.range, position)]
        if here:
            from checker.lsp.hover import explain_markdown

            text = explain_markdown(here)
            if text:
                parts.append(text)
    doc = ls.workspace.get_text_document(uri)
    from checker.lsp.hover import describe_field, key_at
    from checker.lsp.schemas import for_file

    pos = doc.position_codec.position_from_client_units(doc.lines, position)
    key = key_at(doc.source, pos.line, pos.character)
    if key is not None:
        schema = for_file(os.path.basename(path))
        text = describe_field(schema, key) if schema else None
        if text:
            parts.insert(0, text)
    return "\n\n---\n\n".join(parts) or None
