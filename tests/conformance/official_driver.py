"""Run the official checker on many packages in one process; print one JSON line per package.

Runs INSIDE the official checker's virtual environment (.venv-official): it imports only the
standard library and the official ``submission_checker`` package, never this repository's code.
It calls ``SubmissionChecker(path).run()``, the library entry point both official command lines
call; its ``passed`` (no ERROR result) is exactly what decides their exit code 0/1
(OFFICIAL-CHECKER.md §1.3). The command lines are not used because they phone PyPI for a version
check on every run, and one process for all packages is much faster than one per package.
An uncaught exception is what the command line exits 1 on with no report: recorded as a crash.

usage: python official_driver.py --version | PATH [PATH ...]
"""
from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path


def check(path: str) -> dict:
    """One package's verdict: passed, its ERROR results, its WARNING rule ids, or the crash."""
    from submission_checker import SubmissionChecker

    try:
        report = SubmissionChecker(Path(path)).run()
    except BaseException as exc:  # noqa: BLE001 - any crash is the CLI's exit 1 with no report
        return {"path": path, "passed": False, "errors": [], "warnings": [],
                "crash": f"{type(exc).__name__}: {str(exc)[:200]}"}
    errors = sorted({(r.rule, r.message, str(r.path) if r.path is not None else "") for r in report.errors})
    return {"path": path, "passed": bool(report.passed), "crash": None,
            "errors": [{"rule": rule, "message": msg, "path": where} for rule, msg, where in errors],
            "warnings": sorted({r.rule for r in report.warnings})}


def main(argv: list[str]) -> int:
    """--version prints the installed distribution version; otherwise one JSON line per PATH."""
    if argv == ["--version"]:
        print(metadata.version("endpoints-submission-cli"))
        return 0
    for path in argv:
        print(json.dumps(check(path), sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
