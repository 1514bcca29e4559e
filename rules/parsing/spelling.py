"""How the submitter wrote the files: unknown keys (a did-you-mean each) and non-plain spellings.

A misspelt key is otherwise silent: the model tolerates it, nothing reads it, and the rules that
need the intended key report it missing. This rule names each unknown key at its line with the
closest known key of its object; the "missing" findings point at the misspelling too
(``checker.load.models.keys.missing_hint``).
"""
from __future__ import annotations

import os
import re

from checker.load.models.lenient import dotted
from checker.load.models.keys import KINDS, rename_edits, unknown_keys
from checker.load.models.spelling import describe as describe_spelling, plain_text, spelling_edits, spelt_text
from checker.core.findings import Location
from checker.core.rule import Fail, Pass, rule


def typed_files(pkg):
    """(subject, entry name, LoadedFile) of every loaded file in the package and its run folders."""
    for sub in pkg.submissions:
        for subject, lf in sub.all_files():
            yield subject, os.path.basename(lf.rel), lf
    for rf in pkg.run_folders:
        for lf in rf.files.values():
            yield rf.subject, os.path.relpath(lf.rel, rf.rel), lf


def key_location(lf, path: tuple):
    """Where the key at ``path`` is written (the loader maps values): the last `key:` before its value's
    position, so an editor underlines the key the user misspelt; the value's position when it is not found."""
    line, col = lf.position(path)
    text = lf.text
    if not path or not isinstance(path[-1], str) or text is None or not line or len(text) > 1_000_000:
        return lf
    lines = text.split("\n")
    if line > len(lines):
        return lf
    end = sum(len(x) + 1 for x in lines[:line - 1]) + (col or 1) - 1
    name = re.escape(path[-1])
    hit = None
    for hit in re.finditer(rf"(?m)(?:^|[\s{{,\-])(\"{name}\"|'{name}'|{name})\s*:", text[:end]):
        pass
    if hit is None:
        return lf
    start = hit.start(1)
    k_line = text.count("\n", 0, start) + 1
    k_col = start - (text.rfind("\n", 0, start) + 1) + 1 - (1 if k_line == 1 and getattr(lf, "bom", False) else 0)
    return Location(lf.rel, k_line, k_col, tuple(path))


@rule(id="unknown-key", title="Keys are known fields", clause="R§8.2, R§8.3", severity="warn",
      scope="package")
def unknown_key(pkg, ctx):
    """point.yaml and system_desc.json use only the keys of their templates; a misspelling is named.

    What it checks: every key of point.yaml (R§8.3 fields, the runtime_settings, warmup and
    steady_state blocks) and of system_desc.json (the R§8.2 template, node_types and
    accelerator_info entries, and the other top-level fields the official schema declares, which
    `submissions create` writes as null) that the file's model does not define, reported at its
    line with the closest known key of the same object ("did you mean"). `runtime_settings` may carry other
    client settings, so only near-misses are reported there; the model_equivalence block has its
    own check (me-block-valid). One finding per file, located at the first unknown key itself.
    Why: unknown keys are tolerated (the official checker ignores them), so a misspelt key such as
    `seedset` is never read: the rules that need `seed_set` then report it missing. Naming the
    misspelling at its line is the fix the user needs.
    How to fix: Rename the key to the suggested one (or remove it if it is not meant for the checker).
    """
    outs = []
    files = 0
    for subject, entry, lf in typed_files(pkg):
        if lf.kind not in KINDS or not lf.ok:
            continue
        files += 1
        found = unknown_keys(lf)
        if not found:
            continue
        first = found[0]
        shown = "; ".join(u.describe(lf) for u in found[:8])
        more = f" (+{len(found) - 8} more)" if len(found) > 8 else ""
        fix = (f"Rename `{first.key}` to `{first.suggestion}`." if first.suggestion else
               "Remove the key, or rename it to the field it was meant to be.")
        edits = rename_edits(lf, found)
        if edits:
            fix = "Rename " + ", ".join(f"`{dotted(e.path)}` to `{e.new}`" for e in edits) + (
                "." if len(edits) == len(found) else "; the other keys are not certain: rename or remove them by hand.")
        outs.append(Fail(f"{len(found)} unknown key(s) in {os.path.basename(lf.rel)}: {shown}{more}",
                         file=key_location(lf, first.path), path=first.path, subject=subject, entry=entry,
                         observed=[dotted(u.path) for u in found],
                         expected={dotted(u.path): u.suggestion for u in found if u.suggestion} or "known keys only",
                         fix=fix, edits=tuple(edits), parts=tuple(u.path for u in found)))
    return outs or Pass(f"every key of {files} point.yaml/system_desc.json file(s) is a known field")


#: the kinds the submitter writes by hand; every other file is the client's record of the run, never edited
HAND_WRITTEN = frozenset({"point_yaml", "system_desc", "power"})


@rule(id="value-spelling", title="Values in their plain form", clause="R§8.1", severity="warn",
      scope="package")
def value_spelling(pkg, ctx):
    """Unambiguous non-plain spellings are accepted as the value they spell, with a warning.

    What it checks: values that were read as something other than what they literally are, one
    finding per value, at its line (`observed` as written, `expected` the plain form): a float with an integral value where the field is an integer (`66840.0` for
    a count, `1.3e12` for `duration_ns`; exactly representable, up to 2^53), an unquoted YAML 1.1
    boolean word (`yes`, `no`, `on`, `off`) where the field is a boolean (YAML files only), and a UTF-8
    byte-order mark at the start of a JSON file (also sample_idx_map.json and events.jsonl).
    Why: each spelling means one value, and the tool that gates submission (YAML 1.1, pydantic)
    accepts them, so rejecting them would reject compliant packages; other tools may not read them
    the same way, hence the advice. Anything that is not unambiguous (64.5 for a count, a seed
    above 2^53 written as a float) is still a type error of the file's own rule.
    How to fix: Write the plain form the finding suggests: integers without a fraction or
    exponent, true/false, files saved as UTF-8 without a byte-order mark. A file the client wrote
    (result_summary.json, config.yaml, accuracy_results.json) is the record of the run: leave it as
    it is.
    """
    outs = []
    for subject, entry, lf in typed_files(pkg):
        editable = lf.kind in HAND_WRITTEN
        edits = {e.path: e for e in spelling_edits(lf)}
        # the values written alike travel together: an alias (`*c`) is fixed only with its anchor (`&c 64.0`)
        alike: dict = {}
        for x in lf.spellings:
            if x.written is not None and x.path in edits:
                alike.setdefault((repr(x.written), repr(x.value)), []).append(edits[x.path])
        for x in lf.spellings:
            edit = edits.get(x.path if x.written is not None else ())
            if x.written is None:
                observed, expected = "byte-order mark", "UTF-8 without a byte-order mark"
            else:
                observed, expected = spelt_text(x, lf), plain_text(x)
            if edit is not None:
                group = alike.get((repr(x.written), repr(x.value))) or [edit]
                fix = {"edits": tuple([edit] + [e for e in group if e is not edit]),
                       "fix": f"Write `{dotted(x.path)}: {edit.new}`." if edit.part == "value"
                       else "Save the file as UTF-8 without a byte-order mark."}
            elif not editable:
                fix = {"fix": f"Nothing to change: {entry} is the client's record of the run and is never edited; the "
                              "value is read as it means."}
            else:
                fix = {}
            # one finding per value: its subject names the value inside the file (``point.yaml#concurrency``)
            at = f"{entry}#{dotted(x.path)}" if x.path else entry
            outs.append(Fail(describe_spelling(x, lf, editable), file=lf, path=x.path, subject=subject, entry=at,
                             observed=observed, expected=expected, **fix))
    for rf in pkg.run_folders:
        for name, obj in (("sample_idx_map.json", rf.idx_map), ("events.jsonl", rf.events_audit)):
            if obj is not None and getattr(obj, "bom", False):
                outs.append(Fail(f"{name} starts with a UTF-8 byte-order mark (read as if absent)",
                                 file=os.path.join(rf.rel, name), subject=rf.subject, entry=name,
                                 observed="byte-order mark", expected="UTF-8 without a byte-order mark"))
    return outs or Pass("every value is written in its plain form")

