"""Prepare run folders before the rules run: optional context files and the events audits.

Rules never do I/O, so what the run-folder family reads besides the eagerly loaded files happens
here: a ``--point point.yaml`` given on the command line replaces (or supplies) the folder's
point.yaml, and every folder's ``events.jsonl`` and ``sample_idx_map.json`` (both grow with the
samples) are streamed once, folders in parallel processes (``checker.engine.parallel``), into
``RunFolder.events_audit`` and ``RunFolder.idx_map``.
"""
from __future__ import annotations

import os
from typing import Any

from checker.load.model import Package

#: without an explicit --jobs, logs smaller than this in total are audited in-process
SERIAL_BELOW_BYTES = 64 << 20


def audit_job(args: tuple):
    """Stream one folder's events.jsonl and sample_idx_map.json (module level: runs in a worker)."""
    events_path, idx_path, root_real = args
    audit = idx = None
    if events_path is not None:
        from checker.load.events import audit_events

        audit = audit_events(events_path, root_real)
    if idx_path is not None:
        from checker.load.sample_map import summarize_idx_map

        idx = summarize_idx_map(idx_path, root_real)
    return audit, idx


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
    events = options.get("events", True)
    todo = []
    for rf in pkg.run_folders:
        ev = os.path.join(rf.abspath, "events.jsonl")
        idx = os.path.join(rf.abspath, "sample_idx_map.json")
        args = (ev if events and os.path.lexists(ev) else None, idx if os.path.lexists(idx) else None,
                os.path.realpath(rf.abspath))
        if args[0] or args[1]:
            todo.append((rf, args))
    if not todo:
        return
    from checker.engine.parallel import run_parallel

    jobs = options.get("jobs")
    if jobs is None and _total_bytes(todo) < SERIAL_BELOW_BYTES:
        jobs = 1  # starting worker processes costs more than auditing small logs
    results = run_parallel(audit_job, [args for _, args in todo], jobs=jobs,
                           label="auditing run folders", progress=options.get("progress"))
    for (rf, _), (audit, idx) in zip(todo, results):
        if audit is not None:
            audit.path = os.path.join(rf.rel, "events.jsonl")
            rf.events_audit = audit
        if idx is not None:
            idx.path = os.path.join(rf.rel, "sample_idx_map.json")
            rf.idx_map = idx


def _total_bytes(todo) -> int:
    total = 0
    for _, args in todo:
        for p in args[:2]:
            if p is not None:
                try:
                    total += os.stat(p).st_size
                except OSError:
                    pass
    return total


def _load_point_option(pkg: Package, path: str, max_bytes: int) -> None:
    from checker.load.models import attach_model
    from checker.load.reader import read_file

    abspath = os.path.abspath(path)
    lf = read_file("point_yaml", os.path.normpath(path), abspath, os.path.realpath(os.path.dirname(abspath)),
                   max_bytes)
    attach_model(lf)
    for rf in pkg.run_folders:
        rf.files["point_yaml"] = lf
        rf.context["point_yaml"] = "--point"
