"""Prepare run folders before the rules run: optional context files and the events audits.

Rules never do I/O, so the two things the run-folder family reads besides the eagerly loaded
files happen here: a ``--point point.yaml`` given on the command line replaces (or supplies) the
folder's point.yaml, and every ``events.jsonl`` is streamed once (in parallel processes, see
``checker.parallel``) into ``RunFolder.events_audit``.
"""
from __future__ import annotations

import os
from typing import Any

from checker.model import Package


def audit_job(args: tuple[str, str]):
    """One events audit (module level so a worker process can run it)."""
    from checker.events import audit_events

    path, root_real = args
    return audit_events(path, root_real)


def prepare_run_folders(pkg: Package, options: dict[str, Any], max_bytes: int) -> None:
    if not pkg.run_folders:
        return
    for rf in pkg.run_folders:
        rf.context = {}
        if rf.files.get("point_yaml") is not None and rf.files["point_yaml"].exists:
            rf.context["point_yaml"] = "beside the run folder"
        if rf.files.get("system_desc") is not None and rf.files["system_desc"].exists:
            rf.context["system_desc"] = "beside the run folder"
    point = options.get("point")
    if point:
        _load_point_option(pkg, str(point), max_bytes)
    if not options.get("events", True):
        return
    todo = []
    for rf in pkg.run_folders:
        path = os.path.join(rf.abspath, "events.jsonl")
        if os.path.lexists(path):
            todo.append((rf, (path, os.path.realpath(rf.abspath))))
    if not todo:
        return
    from checker.parallel import run_parallel

    results = run_parallel(audit_job, [args for _, args in todo], jobs=options.get("jobs"),
                           label="auditing events.jsonl", progress=options.get("progress"))
    for (rf, _), audit in zip(todo, results):
        audit.path = os.path.join(rf.rel, "events.jsonl")
        rf.events_audit = audit


def _load_point_option(pkg: Package, path: str, max_bytes: int) -> None:
    from checker.discovery import _validate_model
    from checker.loader import read_file

    abspath = os.path.abspath(path)
    lf = read_file("point_yaml", os.path.normpath(path), abspath, os.path.realpath(os.path.dirname(abspath)),
                   max_bytes)
    _validate_model(lf)
    for rf in pkg.run_folders:
        rf.files["point_yaml"] = lf
        rf.context["point_yaml"] = "--point"
