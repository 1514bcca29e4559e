"""What run folders need besides their eagerly loaded files: context files and the streamed audits.

Rules never do I/O, so this happens before they run: a ``--point point.yaml`` given on the command
line replaces (or supplies) the folder's point.yaml, and every folder's ``events.jsonl`` and
``sample_idx_map.json`` (both grow with the samples) are streamed once (``audit_job``; the engine
spreads the jobs over its worker pool) into ``RunFolder.events_audit`` and ``RunFolder.idx_map``.
"""
from __future__ import annotations

import os
from typing import Any

from checker.load.package_tree import Package
from checker.load.mirror import is_url, source

def audit_job(args: tuple):
    """Stream one folder's events.jsonl and sample_idx_map.json (module level: runs in a worker)."""
    events_path, idx_path, root_real = args
    audit = idx = None
    if events_path is not None and not isinstance(events_path, str):
        audit = events_path  # audited already, while its archive streamed by (checker.load.archive)
    elif events_path is not None and is_url(events_path):
        audit = _streamed(events_path, "events")
    elif events_path is not None:
        from checker.load.events import audit_events

        audit = audit_events(events_path, root_real)
    if idx_path is not None and not isinstance(idx_path, str):
        idx = idx_path
    elif idx_path is not None and is_url(idx_path):
        idx = _streamed(idx_path, "idx")
    elif idx_path is not None:
        from checker.load.sample_map import summarize_idx_map

        idx = summarize_idx_map(idx_path, root_real)
    return audit, idx


def _streamed(url: str, what: str):
    """Audit a log straight from object storage (the mirror holds only a placeholder of it)."""
    from checker.load.events_data import EventsAudit
    from checker.load.remote import open_url
    from checker.load.sample_map import IdxMap, summarize_stream

    try:
        fh = open_url(url)
    except Exception as exc:  # noqa: BLE001  (any storage error: the log is unreadable, a FAIL)
        why = f"cannot open: {exc}"[:300]
        return EventsAudit(path=url, error=why) if what == "events" else IdxMap(path=url, error=why)
    with fh:
        if what == "events":
            from checker.load.events import audit_stream

            return audit_stream(fh, url)
        return summarize_stream(fh, fh.size, url)


def attach_context(pkg: Package, options: dict[str, Any], max_bytes: int, reads=None) -> None:
    """Record where each folder's point.yaml / system_desc.json come from, and whether it is checked as part of the
    bundle it becomes (``assembled``: then the bundle rules report what `runs create` refuses); load ``--point``."""
    assembled = {id(run.rf) for a in pkg.assemblies for run in a.runs}
    for rf in pkg.run_folders:
        rf.context = {"assembled": True} if id(rf) in assembled else {}
        if rf.files.get("point_yaml") is not None and rf.files["point_yaml"].exists:
            rf.context["point_yaml"] = "beside the run folder"
        if rf.files.get("system_desc") is not None and rf.files["system_desc"].exists:
            rf.context["system_desc"] = "beside the run folder"
    point = options.get("point")
    if point:
        _load_point_option(pkg, str(point), max_bytes, reads)


def audit_todo(pkg: Package, events: bool) -> list[tuple[Any, tuple]]:
    """(run folder, audit_job arguments) for every folder with a log or sample map to stream."""
    todo = []
    for rf in pkg.run_folders:
        ev = os.path.join(rf.abspath, "events.jsonl")
        idx = os.path.join(rf.abspath, "sample_idx_map.json")
        args = (source(ev) if events and os.path.lexists(ev) else None, source(idx) if os.path.lexists(idx) else None,
                os.path.realpath(rf.abspath))
        if args[0] or args[1]:
            todo.append((rf, args))
    return todo


def store_audits(todo: list[tuple[Any, tuple]], results: list) -> None:
    """Attach each folder's audit results (in ``todo`` order) to its RunFolder."""
    for (rf, _), (audit, idx) in zip(todo, results):
        if audit is not None:
            audit.path = os.path.join(rf.rel, "events.jsonl")
            rf.events_audit = audit
        if idx is not None:
            idx.path = os.path.join(rf.rel, "sample_idx_map.json")
            rf.idx_map = idx


def total_bytes(todo) -> int:
    total = 0
    for _, args in todo:
        for p in args[:2]:
            if isinstance(p, str) and not is_url(p):
                try:
                    total += os.stat(p).st_size
                except OSError:
                    pass
    return total


def _load_point_option(pkg: Package, path: str, max_bytes: int, reads=None) -> None:
    from checker.load.models.attach import attach_model
    from checker.load.reader import DISK, read_file

    abspath = os.path.abspath(path)
    lf = read_file("point_yaml", os.path.normpath(path), abspath, os.path.realpath(os.path.dirname(abspath)),
                   max_bytes, post=attach_model, reads=reads or DISK)
    for rf in pkg.run_folders:
        rf.files["point_yaml"] = lf
        rf.context["point_yaml"] = "--point"
