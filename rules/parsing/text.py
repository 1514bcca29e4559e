"""Values that are not plain text: keys that are not strings, NUL characters, lone surrogates, stray BOMs.

The loader reads each as written (so every rule sees what the file says) and notes where it is
(``checker.load.text_check``); this rule names them, one finding per file, at the first one's line.
"""
from __future__ import annotations

from checker.core.findings import path_step
from checker.core.rule import Fail, Pass, rule
from checker.load.file_kinds import CLIENT_FILES
from rules.parsing.spelling import typed_files


def _dotted(path: tuple) -> str:
    return ".".join(str(path_step(p)) for p in path) or "(start of the file)"


@rule(id="text-characters", title="Keys and strings are plain text", clause="R§8.1", severity="warn",
      scope="package")
def text_characters(pkg, ctx):
    """Every mapping key is a string and every string is Unicode text without NUL characters or byte-order marks.

    What it checks: in every loaded YAML/JSON file, a mapping key that is not a string (YAML `5:`,
    `.inf:`, `true:`, `null:`), a string or key holding a NUL character (`\\u0000`, YAML `"\\0"`), a
    lone UTF-16 surrogate (a JSON `"\\ud800"` escape: no Unicode character), a byte-order mark
    (U+FEFF) inside a value, and more than one byte-order mark at the start of a file. Where the
    file's own model refuses the key (point.yaml, system_desc.json, result_summary.json: "keys are
    strings", a reject of that file's rule), this rule does not repeat it.
    Why: JSON, the JSON report and the submission API hold text keys only, and such characters
    are invisible or unprintable: tools read them differently (a NUL ends a C string, a surrogate
    cannot be written as UTF-8), so a value that looks right may not be.
    How to fix: Quote keys that are numbers or words (`"5":`), remove the NUL, surrogate and
    byte-order-mark characters, and save the file as UTF-8 with at most one byte-order mark.
    """
    outs = []
    for subject, entry, lf in typed_files(pkg):
        if not lf.text_notes:
            continue
        # a package point's typed files report a refused key themselves (point-config-valid, ...)
        # (the client's files are validated too, but no rule reports their problems: CLIENT_FILES)
        refused = {tuple(p.path) for p in lf.field_errors} \
            if subject.kind == "point" and lf.kind not in CLIENT_FILES else set()
        notes = [(p, what) for p, what in lf.text_notes if tuple(p) not in refused]
        if not notes:
            continue
        shown = "; ".join(f"`{_dotted(p)}`: {what}" for p, what in notes[:5])
        more = f" (+{len(notes) - 5} more)" if len(notes) > 5 else ""
        outs.append(Fail(f"{len(notes)} value(s) in {entry} are not plain text: {shown}{more}", file=lf,
                         path=notes[0][0], subject=subject, entry=entry,
                         observed={_dotted(p): what for p, what in notes[:50]}, expected="text keys and strings",
                         parts=tuple(p for p, _what in notes)))
    return outs or Pass("every key is a string and every string is plain text")
