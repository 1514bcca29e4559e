"""How a run folder's run ended, and which client wrote it: the facts every run-folder rule words the same way.

An interrupted run is reported once, as what it is (RUN-FOLDER.md §7, client-drift README): the newer
client marks it (`state: interrupted`, `complete: false`, a `session.interrupted` event, a report.txt
warning); the client at `main` up to ea33275 does not, and a ^C to its process group kills the event
logger, so the folder holds config.yaml, an events.jsonl that stops mid-run and the final snapshot,
and nothing else. The rules that compare the client's files with each other (counters, percentiles,
warmup accounting) then say what could not be audited instead of reading the gaps as edits.
"""
from __future__ import annotations

from typing import Optional

import msgspec

from checker.load.layout import RUN_FOLDER_FILES
from rules.run_folder.context import config, summary

#: the files the client writes for every finished run (RUN-FOLDER.md §7.1), in the order a message lists them
CORE_FILES = ("performance/result_summary.json", "report.txt", "sample_idx_map.json", "events.jsonl",
              "metrics/final_snapshot.json")
ACCURACY = "accuracy/accuracy_results.json"


class Ending(msgspec.Struct):
    """How the run ended, as the folder shows it."""

    interrupted: bool = False
    evidence: list = msgspec.field(default_factory=list)  # what shows it, in words
    stop_line: Optional[int] = None  # where events.jsonl stops (a log cut short)
    not_written: list = msgspec.field(default_factory=list)  # the client's files the folder lacks
    unaudited: list = msgspec.field(default_factory=list)  # what could not be audited because of that

    def describe(self) -> str:
        """``interrupted (...): the client did not write ...; not audited: ...``."""
        text = f"the run was interrupted ({'; '.join(self.evidence)})"
        if self.not_written:
            text += f"; the client did not write {', '.join(self.not_written)}"
        if self.unaudited:
            text += f"; not audited: {', '.join(self.unaudited)}"
        return text


def entry_state(rf, name: str) -> str:
    """ok, empty, missing or bad:<why it cannot be read>, as the loader found the entry (a loaded file: ok or missing)."""
    if name in rf.entry_states:
        return rf.entry_states[name]
    kind = RUN_FOLDER_FILES.get(name)
    lf = rf.files.get(kind) if kind else None
    return "ok" if lf is not None and lf.exists else "missing"


def scored_datasets(rf, external) -> list[str]:
    """Accuracy datasets config.yaml configures that the client scores itself (RUN-FOLDER.md §1)."""
    c = config(rf)
    ds = c.get("datasets") if c is not None else None
    out = []
    for i, d in enumerate(ds if isinstance(ds, list) else []):
        if isinstance(d, dict) and d.get("type") == "accuracy":
            acc = d.get("accuracy_config")
            method = acc.get("eval_method") if isinstance(acc, dict) else d.get("eval_method")
            if method not in external:
                out.append(str(d.get("name") or f"datasets[{i}]"))
    return out


def client_version(rf) -> str:
    """``inference-endpoint 0.1.0 (git 1a2b3c4)`` as result_summary.json records it, else what the folder lacks."""
    s = summary(rf)
    version = s.get("version") if s is not None else None
    if not isinstance(version, str) or not version:
        return "a client version the folder does not record (no result_summary.json version)"
    sha = s.get("git_sha")
    return f"inference-endpoint {version}" + (f" (git {sha})" if isinstance(sha, str) and sha else "")


def ending(rf, external=()) -> Ending:
    """What the folder shows of how its run ended (``Ending``): interrupted or not, and what that left out."""
    e = Ending()
    s = summary(rf)
    if s is not None and s.get("state") == "interrupted":
        done = s.get("complete")
        e.evidence.append("result_summary.json state interrupted, complete "
                          + (str(done).lower() if isinstance(done, bool) else repr(done)))
    snap = rf.files.get("final_snapshot")
    if snap is not None and snap.ok and snap.get("state") == "interrupted" and s is None:
        e.evidence.append("metrics/final_snapshot.json state interrupted")
    a = rf.events_audit
    audit = a if a is not None and a.error is None else None
    if audit is not None and audit.interrupted_line is not None:
        e.evidence.append(f"events.jsonl session.interrupted at line {audit.interrupted_line}")
    if audit is not None and audit.lines and s is None and (audit.cut_in_tracking or not audit.session_ended):
        e.stop_line = audit.lines
        what = "with performance tracking on" if audit.cut_in_tracking else "before session.ended"
        e.evidence.append(f"events.jsonl stops at line {audit.lines} {what}, and there is no "
                          "performance/result_summary.json: the client was stopped")
    e.interrupted = bool(e.evidence)
    if not e.interrupted:
        return e
    e.not_written = [f for f in CORE_FILES if entry_state(rf, f) == "missing"]
    scored = scored_datasets(rf, external)
    acc = rf.files.get("accuracy")
    if scored and (acc is None or not acc.exists):
        e.not_written.append(f"{ACCURACY} (configured: {', '.join(scored)})")
    if "performance/result_summary.json" in e.not_written:
        e.unaudited.append("the run's metrics (no result_summary.json to compare the log and the snapshot with)")
    elif s is not None and s.get("state") == "interrupted":
        e.unaudited.append("the metrics against events.jsonl (an interrupted run's summary holds the client's "
                           "best-effort partial values)")
    if e.stop_line is not None:
        e.unaudited.append(f"whatever happened after events.jsonl line {e.stop_line}")
    if scored and (acc is None or not acc.exists):
        e.unaudited.append("the accuracy phase")
    return e
