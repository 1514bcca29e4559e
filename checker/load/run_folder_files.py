"""Load a run folder written by the reference client (RUN-FOLDER.md §1): the small files it always
writes, each read once by the loader; events.jsonl and sample_idx_map.json are streamed by the audits."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from checker.load.models import attach_model
from checker.load.reader import read_file
from checker.load.package_tree import RunFolder

if TYPE_CHECKING:
    from checker.load.submission import Options

#: run-folder files read eagerly (events.jsonl and sample_idx_map.json grow with the samples: the
#: run-folder family streams them, checker.load.run_folder)
RUN_FOLDER_FILES = {
    "config.yaml": "config",
    "performance/result_summary.json": "result_summary",
    "accuracy/accuracy_results.json": "accuracy",
    "metrics/final_snapshot.json": "final_snapshot",
    "point.yaml": "point_yaml",
    "system_desc.json": "system_desc",
    "system_power.json": "power",
    "result_summary.json": "flat_result_summary",
}
#: entries the client writes that are not loaded above: their state is recorded for run-folder-files
#: (events.jsonl is also audited, unless --no-events)
UNREAD_ENTRIES = ("report.txt", "events.jsonl", "sample_idx_map.json")


def load_run_folder(path: str, display: str, options: Options) -> RunFolder:
    abspath = os.path.abspath(path)
    root_real = os.path.realpath(abspath)
    name = os.path.basename(os.path.normpath(abspath))
    rf = RunFolder(name=name, rel=display, abspath=abspath, dir_error=None, junk=[],
                                   files={}, layout="standard", refused=[])
    if options.shallow:
        return rf
    from checker.load.reader import LoadBudget

    budget = LoadBudget()  # the values this run folder's files may hold, together
    for relname, kind in RUN_FOLDER_FILES.items():
        lf = read_file(kind, os.path.join(display, relname), os.path.join(abspath, relname), root_real,
                       options.max_bytes, budget=budget)
        attach_model(lf)
        rf.files[kind] = lf
        if lf.error is not None and lf.error.code != "parse-error":
            rf.refused.append((rf.subject, relname, lf.error))
    if rf.files["flat_result_summary"].exists and not rf.files["result_summary"].exists:
        rf.layout = "flat"
    from checker.load.carried import file_state

    for name in UNREAD_ENTRIES:
        path = os.path.join(abspath, name)
        rf.entry_states[name] = file_state(path, root_real) if os.path.lexists(path) else "missing"
    return rf
