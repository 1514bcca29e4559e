"""How the submitter wrote the files: keys the typed models do not know (a did-you-mean each).

A misspelt key is otherwise silent: the model tolerates it, nothing reads it, and the rules that
need the intended key report it missing. This rule names each unknown key at its line with the
closest known key of its object; the "missing" findings point at the misspelling too
(``checker.filemodels.keys.missing_hint``).
"""
from __future__ import annotations

import os

from checker.filemodels import dotted
from checker.filemodels.keys import KINDS, unknown_keys
from checker.registry import Fail, Pass, rule


def typed_files(pkg):
    """(subject, LoadedFile) of every loaded file in the package and its run folders."""
    for sub in pkg.submissions:
        yield from sub.all_files()
    for rf in pkg.run_folders:
        for lf in rf.files.values():
            yield rf.subject, lf


@rule(id="unknown-key", title="Keys are known fields", clause="R§8.2, R§8.3", family="parsing", severity="warn",
      scope="package")
def unknown_key(pkg, ctx):
    """point.yaml and system_desc.json use only the keys of their templates; a misspelling is named.

    What it checks: every key of point.yaml (R§8.3 fields, the runtime_settings, warmup and
    steady_state blocks) and of system_desc.json (the R§8.2 template, node_types and
    accelerator_info entries) that the file's model does not define, reported at its line with the
    closest known key of the same object ("did you mean"). `runtime_settings` may carry other
    client settings, so only near-misses are reported there; the model_equivalence block has its
    own check (me-block-valid). One finding per file.
    Why: unknown keys are tolerated (the official checker ignores them), so a misspelt key such as
    `seedset` is never read: the rules that need `seed_set` then report it missing. Naming the
    misspelling at its line is the fix the user needs.
    How to fix: Rename the key to the suggested one (or remove it if it is not meant for the checker).
    """
    outs = []
    files = 0
    for subject, lf in typed_files(pkg):
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
        outs.append(Fail(f"{len(found)} unknown key(s) in {os.path.basename(lf.rel)}: {shown}{more}", file=lf,
                         path=first.path, subject=subject, entry=os.path.basename(lf.rel),
                         observed=[dotted(u.path) for u in found],
                         expected={dotted(u.path): u.suggestion for u in found if u.suggestion} or "known keys only",
                         fix=fix))
    return outs or Pass(f"every key of {files} point.yaml/system_desc.json file(s) is a known field")
