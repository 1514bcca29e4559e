"""A drafted point.yaml that still holds a placeholder: the disclosure it stands for has not been made."""
from __future__ import annotations

from checker.core.fixes import FIXABLE_KINDS
from checker.core.placeholders import MARK, find
from checker.core.rule import Fail, Pass, rule
from rules.parsing.spelling import typed_files


@rule(id="draft-placeholder", title="No placeholder left from a draft", clause="R§8.3", severity="reject",
      scope="package")
def draft_placeholder(pkg, ctx):
    """point.yaml (and system_desc.json) hold no `<FILL: ...>` placeholder of `endpoints-checker draft`.

    What it checks: every line of each hand-written file, values and comments alike, for the marker
    `<FILL:` that `draft` writes where only the submitter can make the disclosure (links, the model's
    precision and equivalence, notes, the target cohort, anything the run folder does not prove). One
    finding per file, naming each placeholder's line, key and what it asks for.
    Why: R§8.3 makes the point.yaml the published record of how the point was run; a placeholder is a
    disclosure not made. The official checker reads a placeholder as an ordinary string and may pass
    it, so nothing else stops it from being published.
    How to fix: Replace each `<FILL: ...>` with what it asks for (uncomment a commented field once
    filled in), or delete the line of an optional field you do not disclose.
    """
    outs, files = [], 0
    for subject, entry, lf in typed_files(pkg):
        if lf.kind not in FIXABLE_KINDS or not lf.exists or lf.text is None:
            continue
        files += 1
        found = find(lf.text)
        if not found:
            continue
        shown = "; ".join(f"line {ln}{f' `{key}`' if key else ''}: {what}" for ln, _c, key, what in found[:6])
        more = f" (+{len(found) - 6} more)" if len(found) > 6 else ""
        line, _col, key, what = found[0]
        outs.append(Fail(f"{len(found)} placeholder(s) of a draft still to fill in: {shown}{more}",
                         file=lf, path=_first_value(lf.data) or (), subject=subject, entry=entry,
                         observed=[f"line {ln}: {k or '?'}" for ln, _c, k, _w in found],
                         expected="the disclosures themselves",
                         fix=f"Replace each <FILL: ...> with what it asks for (first: line {line}"
                             f"{f', `{key}`' if key else ''}: {what}).",
                         extra={"placeholders": [{"line": ln, "column": c, "key": k, "asks": w}
                                                 for ln, c, k, w in found]}))
    return outs or Pass(f"no draft placeholder in {files} hand-written file(s)")


def _first_value(data, path: tuple = ()) -> tuple | None:
    """The path of the first string value holding a placeholder (file order), to locate the finding."""
    if isinstance(data, str):
        return path if MARK in data else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        hit = _first_value(v, path + (k,))
        if hit is not None:
            return hit
    return None
