"""Prepare run folders before the rules run: their context files, then the events audits in the pool."""
from __future__ import annotations

from typing import Any

from checker.load.package_tree import Package
from checker.load.run_folder import attach_context, audit_job, audit_todo, store_audits, total_bytes

#: without an explicit --jobs, logs smaller than this in total are audited in-process
SERIAL_BELOW_BYTES = 64 << 20


def prepare_run_folders(pkg: Package, options: dict[str, Any], max_bytes: int, jobs: int | None = None,
                        progress: bool = False, executor=None, timeout: int = 0, reads=None) -> None:
    if not pkg.run_folders:
        return
    attach_context(pkg, options, max_bytes, reads)
    todo = audit_todo(pkg, options.get("events", True))
    if not todo:
        return
    if executor is not None and executor.name != "local":
        store_audits(todo, _audit_remotely(executor, todo, progress, timeout))
        return
    from checker.engine.pool import run_parallel

    if jobs is None and total_bytes(todo) < SERIAL_BELOW_BYTES:
        jobs = 1  # starting worker processes costs more than auditing small logs
    results = run_parallel(audit_job, [args for _, args in todo], jobs=jobs, label="auditing run-folder logs",
                           progress=progress, sizes=[total_bytes([job]) for job in todo])
    store_audits(todo, results)


def _audit_remotely(executor, todo, progress: bool, timeout: int) -> list:
    """Each log a task on the executor; a log its workers could not finish is an unreadable log (a FAIL)."""
    from checker.engine.progress import Progress
    from checker.load.events_data import EventsAudit
    from checker.load.sample_map import IdxMap

    bar = Progress(len(todo), "auditing run-folder logs", enabled=progress)

    def audited(_i, ok, res):
        if ok and res[0] is not None:
            bar.add_bytes(res[0].bytes_read)

    try:
        outs = executor.run_units(audit_job, [args for _, args in todo], names=[rf.rel for rf, _ in todo],
                                  on_done=bar.advance, on_result=audited, timeout=timeout)
    finally:
        bar.close()
    results = []
    for (_, args), (ok, value) in zip(todo, outs):
        if ok:
            results.append(value)
        else:
            why = f"not audited: {value}"
            results.append((EventsAudit(error=why) if args[0] else None, IdxMap(error=why) if args[1] else None))
    return results
