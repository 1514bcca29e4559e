"""End to end over stdio: a broken point.yaml's diagnostic (exact range, code, link), fixed in the buffer
(never on disk) and cleared, a quick fix applied, a finding about two points on both files, pull mode."""
from __future__ import annotations

import os

import pytest
from lsprotocol import types

from lspclient import change_doc, codes, open_doc, point_path, uri, wait_diags

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


def _apply(text: str, edits) -> str:
    """Apply LSP text edits (one file, UTF-16 positions on ASCII text) to ``text``."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    spans = sorted(((offsets[e.range.start.line] + e.range.start.character,
                     offsets[e.range.end.line] + e.range.end.character, e.new_text) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


@pytest.mark.asyncio
async def test_a_broken_point_yaml_gets_its_diagnostic_and_the_fixed_buffer_clears_it(client, package):
    path = point_path(package)
    on_disk = open(path, encoding="utf-8").read()
    assert on_disk.startswith("concurrency: 8\n")
    broken = on_disk.replace("concurrency: 8\n", "concurrency: eight\n", 1)
    u = open_doc(client, path, broken)
    diags = await wait_diags(client, u, lambda ds: "point-config-valid" in codes(ds))
    d = next(d for d in diags if d.code == "point-config-valid")
    assert d.range == types.Range(types.Position(0, 13), types.Position(0, 18))  # the token `eight`
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.source == "endpoints-checker"
    assert d.code_description.href.endswith("/docs/rules/parsing.md#point-config-valid")
    assert "concurrency" in d.message

    change_doc(client, u, on_disk, 2)  # the buffer is fixed; the file on disk never changed
    diags = await wait_diags(client, u, lambda ds: "point-config-valid" not in codes(ds))
    assert not [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    assert open(path, encoding="utf-8").read() == on_disk


@pytest.mark.asyncio
async def test_the_code_action_is_the_fix_engines_edit(client, package):
    path = point_path(package)
    on_disk = open(path, encoding="utf-8").read()
    spelled = on_disk.replace("concurrency: 8\n", "concurrency: 8.0\n", 1)
    u = open_doc(client, path, spelled)
    diags = await wait_diags(client, u, lambda ds: "value-spelling" in codes(ds))
    d = next(d for d in diags if d.code == "value-spelling")
    assert d.range == types.Range(types.Position(0, 13), types.Position(0, 16))
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u), range=d.range,
        context=types.CodeActionContext(diagnostics=[d])))
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert len(quick) == 1 and quick[0].title.startswith("value-spelling:")
    (change,) = quick[0].edit.document_changes
    assert change.text_document.uri == u and change.text_document.version == 1
    assert _apply(spelled, change.edits) == on_disk  # `8.0` -> `8`, nothing else
    fix_all = [a for a in actions if a.kind == "source.fixAll.endpoints-checker"]
    assert len(fix_all) == 1 and _apply(spelled, fix_all[0].edit.document_changes[0].edits) == on_disk

    change_doc(client, u, _apply(spelled, change.edits), 2)  # the editor applies it to the buffer
    await wait_diags(client, u, lambda ds: "value-spelling" not in codes(ds))
    stale = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=u), range=d.range,
        context=types.CodeActionContext(diagnostics=[d])))
    assert not stale


@pytest.mark.asyncio
async def test_a_finding_about_two_points_shows_on_both_files(client, package):
    path, other = point_path(package, "r8"), point_path(package, "r1")
    text = open(path, encoding="utf-8").read().replace("model_name: llama3_1-8b\n", "model_name: llama3_1-70b\n", 1)
    u = open_doc(client, path, text)
    diags = await wait_diags(client, u, lambda ds: "config-consistency-model" in codes(ds))
    d = next(d for d in diags if d.code == "config-consistency-model")
    assert d.range.start == types.Position(9, 12)
    related = {r.location.uri: r for r in d.related_information}
    assert uri(other) in related
    assert related[uri(other)].location.range.start == types.Position(9, 12)
    # r1/point.yaml is not open: its diagnostic is published all the same, pointing back at r8
    back = await wait_diags(client, uri(other), lambda ds: "config-consistency-model" in codes(ds))
    b = next(x for x in back if x.code == "config-consistency-model")
    assert b.severity == types.DiagnosticSeverity.Information
    assert b.related_information[0].location.uri == u

    change_doc(client, u, open(path, encoding="utf-8").read(), 2)
    await wait_diags(client, uri(other), lambda ds: not ds)  # cleared when the disagreement goes away
    await wait_diags(client, u, lambda ds: "config-consistency-model" not in codes(ds))


@pytest.mark.asyncio
async def test_a_file_outside_any_package_gets_the_file_level_rules(client, tmp_path):
    path = str(tmp_path / "point.yaml")
    open(path, "w").close()
    u = open_doc(client, path, "concurrency: 8\nregion: Low\nconcurrency: 9\n")
    diags = await wait_diags(client, u, lambda ds: bool(ds))
    assert codes(diags) == {"duplicate-key"}
    (d,) = diags
    assert d.range.start.line == 2
    assert "duplicate key 'concurrency' (first at line 1)" in d.message and "endpoints-checker-lsp-" not in d.message


@pytest.mark.asyncio
async def test_pull_diagnostics(pull_client, package):
    path = point_path(package)
    broken = open(path, encoding="utf-8").read().replace("concurrency: 8\n", "concurrency: eight\n", 1)
    u = open_doc(pull_client, path, broken)
    report = await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=u)))
    assert report.kind == "full"
    assert "point-config-valid" in codes(report.items)
    again = await pull_client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        text_document=types.TextDocumentIdentifier(uri=u), previous_result_id=report.result_id))
    assert again.kind == "unchanged"
    assert u not in pull_client.diagnostics  # nothing pushed in pull mode


@pytest.mark.asyncio
async def test_settings_select_ignore_and_fail_on(client, package):
    path = point_path(package)
    spelled = open(path, encoding="utf-8").read().replace("concurrency: 8\n", "concurrency: 8.0\n", 1)
    u = open_doc(client, path, spelled)
    d = next(d for d in await wait_diags(client, u, lambda ds: "value-spelling" in codes(ds))
             if d.code == "value-spelling")
    assert d.severity == types.DiagnosticSeverity.Information  # a warning, below --fail-on flag
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"endpointsChecker": {"failOn": "warn"}}))
    await wait_diags(client, u, lambda ds: any(x.code == "value-spelling" and x.severity == 1 for x in ds))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"endpointsChecker": {"ignore": ["value-spelling"]}}))
    await wait_diags(client, u, lambda ds: "value-spelling" not in codes(ds))


@pytest.mark.asyncio
async def test_hover_shows_the_schema_and_explain(client, package):
    path = point_path(package)
    text = open(path, encoding="utf-8").read().replace("concurrency: 8\n", "concurrency: eight\n", 1)
    u = open_doc(client, path, text)
    await wait_diags(client, u, lambda ds: "point-config-valid" in codes(ds))
    region = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(1, 2)))
    assert "`region`" in region.contents.value and "`submitters_choice`" in region.contents.value
    on_diag = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(0, 14)))
    assert "point-config-valid" in on_diag.contents.value and "How to fix" in on_diag.contents.value
    nothing = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=u), position=types.Position(500, 0)))
    assert nothing is None


def test_the_sample_package_is_valid_on_disk(package):
    """The tests above break only buffers: the copy they start from is the valid fixture."""
    assert os.path.isfile(point_path(package))


@pytest.mark.asyncio
async def test_an_unknown_key_is_underlined_at_the_key(client, package):
    path = point_path(package)
    on_disk = open(path, encoding="utf-8").read()
    line = on_disk.split("\n").index(next(x for x in on_disk.split("\n") if x.startswith("seed_set:")))
    u = open_doc(client, path, on_disk.replace("\nseed_set:", "\nseedset:", 1))
    diags = await wait_diags(client, u, lambda ds: "unknown-key" in codes(ds))
    d = next(d for d in diags if d.code == "unknown-key")
    assert d.range == types.Range(types.Position(line, 0), types.Position(line, len("seedset")))  # the key, not its value
