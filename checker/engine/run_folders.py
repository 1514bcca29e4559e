"""Prepare run folders before the rules run: their context files, then the events audits in the pool."""
from __future__ import annotations

from typing import Any

from checker.load.model import Package
from checker.load.run_folder import attach_context, audit_job, audit_todo, store_audits, total_bytes

#: without an explicit --jobs, logs smaller than this in total are audited in-process
SERIAL_BELOW_BYTES = 64 << 20


def prepare_run_folders(pkg: Package, options: dict[str, Any], max_bytes: int, jobs: int | None = None,
                        progress: bool = False) -> None:
    if not pkg.run_folders:
        return
    attach_context(pkg, options, max_bytes)
    todo = audit_todo(pkg, options.get("events", True))
    if not todo:
        return
    from checker.engine.pool import run_parallel

    if jobs is None and total_bytes(todo) < SERIAL_BELOW_BYTES:
        jobs = 1  # starting worker processes costs more than auditing small logs
    results = run_parallel(audit_job, [args for _, args in todo], jobs=jobs, label="auditing run-folder logs",
                           progress=progress, sizes=[total_bytes([job]) for job in todo])
    store_audits(todo, results)
