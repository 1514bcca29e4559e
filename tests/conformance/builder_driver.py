"""Build a bundle from run folders with the official `runs create` + `submissions create` code; print JSON.

Runs INSIDE the official checker's virtual environment (.venv-official): it imports only the standard
library and endpoints-submission-cli, never this repository's code. Each run folder goes through
``parse_run_folder`` (what `runs create` validates) and ``build_archive`` (what it uploads); the
archives go through ``build_submission_folder`` (what `submissions create` assembles) into OUT.
No network: the API calls of both commands are not made.

usage: python builder_driver.py RUNS_DIR OUT [RUNS_DIR OUT ...]
prints one line per pair: {"runs_create": {run: null | error}, "build": null | error, "root": path | null}

usage: python builder_driver.py --system-desc TREE
rewrites, in place, every system_desc.json under TREE into what ``submissions create`` writes for it
(``_load_system_desc``: the schema round trip with the command line's division, availability and target
date, here the copy's own; then ``_write_point_system_desc``, keeping the copy's tps_utilization);
prints {"rewritten": [rel, ...], "errors": {rel: error}}
"""
from __future__ import annotations

import json
import sys
import tempfile
import warnings
from pathlib import Path


def build(runs_dir: str, out: str) -> dict:
    """One run set through `runs create` and `submissions create` (no API calls)."""
    from endpoints_submission_cli.runs.parser import build_archive, parse_run_folder
    from endpoints_submission_cli.submissions.builder import build_submission_folder

    created, refused = [], {}
    tmp = Path(tempfile.mkdtemp(prefix="builder-driver-"))
    for run in sorted(p for p in Path(runs_dir).iterdir() if p.is_dir()):
        try:
            parse_run_folder(run)
        except BaseException as exc:  # noqa: BLE001 - a RunFolderError, or the TypeError of a null duration
            refused[run.name] = f"{type(exc).__name__}: {str(exc)[:200]}"
            continue
        refused[run.name] = None
        created.append((run.name, build_archive(run, tmp / f"{run.name}.tar.gz")))
    result = {"runs_create": refused, "build": None, "root": None}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            org = build_submission_folder(created, "standardized", "available", Path(out))
        result["root"] = str(org / "pending-submission-id")
    except BaseException as exc:  # noqa: BLE001 - SubmissionBuildError, or a crash the CLI would show
        result["build"] = f"{type(exc).__name__}: {str(exc)[:300]}"
    return result


def rewrite_system_descs(tree: str) -> dict:
    """Each system_desc.json under TREE, as the builder writes it into a point directory."""
    from endpoints_submission_cli.submissions.builder import _load_system_desc, _write_point_system_desc

    done, errors = [], {}
    for path in sorted(Path(tree).rglob("system_desc.json")):
        rel = str(path.relative_to(tree))
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            # the CLI's --division / --availability choices are lower case; the schema capitalises them
            info = _load_system_desc(path.parent, rel, str(raw.get("division")).lower(),
                                     str(raw.get("system_availability_status")).lower(),
                                     raw.get("target_availability_date") or None)
            _write_point_system_desc(path.parent, {"system_info": info}, None)
        except BaseException as exc:  # noqa: BLE001 - a SubmissionBuildError, reported to the test
            errors[rel] = f"{type(exc).__name__}: {str(exc)[:300]}"
            continue
        done.append(rel)
    return {"rewritten": done, "errors": errors}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--system-desc"]:
        print(json.dumps(rewrite_system_descs(argv[1]), sort_keys=True), flush=True)
        return 0
    for runs_dir, out in zip(argv[0::2], argv[1::2]):
        print(json.dumps(build(runs_dir, out), sort_keys=True), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
