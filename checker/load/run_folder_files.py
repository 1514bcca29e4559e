"""Load a run folder written by the reference client (RUN-FOLDER.md §1): the small files it always
writes, each read once by the loader; events.jsonl and sample_idx_map.json are streamed by the audits."""
from __future__ import annotations

import os

from checker.load.carried import file_state
from checker.load.layout import RUN_FOLDER_FILES, UNREAD_ENTRIES, Options
from checker.load.models.attach import attach_model
from checker.load.package_tree import RunFolder
from checker.load.reader import LoadBudget, read_file


def load_run_folder(path: str, display: str, options: Options) -> RunFolder:
    abspath = os.path.abspath(path)
    root_real = os.path.realpath(abspath)
    name = os.path.basename(os.path.normpath(abspath))
    rf = RunFolder(name=name, rel=display, abspath=abspath, dir_error=None, junk=[],
                                   files={}, layout="standard", refused=[])
    if options.shallow:
        return rf
    budget = LoadBudget()  # the values this run folder's files may hold, together
    for relname, kind in RUN_FOLDER_FILES.items():
        lf = read_file(kind, os.path.join(display, relname), os.path.join(abspath, relname), root_real,
                       options.max_bytes, budget=budget, post=attach_model, reads=options.reads)
        rf.files[kind] = lf
        if lf.error is not None and lf.error.code != "parse-error":
            rf.refused.append((rf.subject, relname, lf.error))
    if rf.files["flat_result_summary"].exists and not rf.files["result_summary"].exists:
        rf.layout = "flat"
    for name in UNREAD_ENTRIES:
        path = os.path.join(abspath, name)
        rf.entry_states[name] = file_state(path, root_real) if os.path.lexists(path) else "missing"
    return rf
