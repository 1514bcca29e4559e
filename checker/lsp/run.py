"""One check of one unit with the editor's buffers standing in for the files on disk.

The buffers are the check's overlay (``checker.load.reader.Reads``, on the RunConfig), so every bound and the
symlink safety of the disk still hold (the overlay is read only for a file that exists, is regular and lies
inside the checked root, under the same size cap); the server's parse cache rides along. A file outside any package is checked alone: a scratch
package in a temporary directory holds an empty file at the place of its kind, the buffer is its overlay,
and only the file-level families (loading, parsing) run; findings about anything else are dropped.
"""
from __future__ import annotations

import os
import shutil
import tempfile

from checker.lsp.diagnostics import Mapped, map_report
from checker.lsp.resolve import Unit
from checker.lsp.settings import Settings

#: where a file checked alone sits in its scratch package
_SCRATCH = {"system_power.json": ("results", "SYSTEM")}
_SCRATCH_POINT = ("results", "SYSTEM", "MODEL", "r1")
FILE_FAMILIES = ("loading", "parsing")


def encode(text: str) -> bytes:
    """A buffer as bytes; a lone surrogate stays invalid UTF-8, so the reader reports it (never raises)."""
    return text.encode("utf-8", "surrogatepass")


def check_unit(unit: Unit, buffers: dict[str, str], trigger: str, settings: Settings,
               encoding: str = "utf-16", cache=None) -> Mapped:
    """Check ``unit`` with ``buffers`` (absolute path -> text of each open document inside it); ``cache``: the
    server's parse cache (``checker.load.parse_cache.ParseCache``), or None to parse every file."""
    if unit.kind == "file":
        return _check_alone(unit.root, buffers.get(unit.root, ""), settings, encoding, cache)
    import msgspec

    from checker.engine.request import check_request
    from checker.load.reader import Reads

    eff = settings.effective(unit.root)
    overlay = {os.path.realpath(p): encode(t) for p, t in buffers.items()}
    report = check_request([unit.root], msgspec.structs.replace(eff.config, reads=Reads(overlay, cache)))
    return _told(map_report(report, buffers, trigger, eff.fail_on, settings.rule_docs, encoding=encoding),
                 trigger, eff.problem)


def _told(mapped: Mapped, trigger: str, problem: str | None) -> Mapped:
    """An unusable configuration file said on the document whose check it concerns (an Error at its start)."""
    if problem:
        from lsprotocol import types

        from checker.lsp.diagnostics import SOURCE

        mapped.add(trigger, types.Diagnostic(range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                                             severity=types.DiagnosticSeverity.Error, source=SOURCE,
                                             code="configuration", message=problem))
    return mapped


def _check_alone(path: str, text: str, settings: Settings, encoding: str, cache=None) -> Mapped:
    from checker.engine.request import check_request
    from checker.load.reader import Reads

    name = os.path.basename(path)
    scratch = tempfile.mkdtemp(prefix="endpoints-checker-lsp-")
    try:
        where = os.path.join(scratch, *_SCRATCH.get(name, _SCRATCH_POINT))
        os.makedirs(where)
        copy = os.path.join(where, name)
        open(copy, "wb").close()
        eff = settings.effective(path)
        import msgspec

        config = msgspec.structs.replace(eff.config, select=FILE_FAMILIES, keep_packages=True,
                                         reads=Reads({os.path.realpath(copy): encode(text)}, cache))
        report = check_request([scratch], config)
        return _told(map_report(report, {path: text}, path, eff.fail_on, settings.rule_docs,
                                rename={os.path.abspath(copy): path, os.path.realpath(copy): path}, encoding=encoding),
                     path, eff.problem)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
