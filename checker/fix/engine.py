"""The fix engine: apply the findings' edits in memory round after round, then show them or write them.

A round groups the text edits of every FAIL finding by file (one copy of an edit two findings share,
overlapping changes dropped), applies them to the file's current text and checks the result reads
back as exactly the intended data. The package is then checked again with the fixed texts standing
in for the files (their overlay, ``checker.load.reader.Reads``: nothing is written yet), so a fix that only a
first one makes visible (a region once the concurrency reads as a number) is found too; at most
``MAX_ROUNDS`` rounds. ``--diff`` prints original -> final text; ``--fix`` writes each file through
``checker.fix.write`` (inside the roots, atomic, only if its bytes are still those the check read)
and the package is checked again from disk. The per-file results become the report's ``fix`` section.
"""
from __future__ import annotations

import os
from typing import Callable

import msgspec

from checker.core.findings import Status
from checker.fix.edits import apply_edits, merge, reads_as_intended, unified_diff
from checker.fix.write import FixRefused, _open_dir, digest, read_current, real_target, replace_file

MAX_ROUNDS = 4


class FilePlan(msgspec.Struct):
    abspath: str
    rel: str
    digest: str
    edits: list
    dropped: list
    findings: list  # (rule id, subject label) of each finding whose edits are all in ``edits``
    is_json: bool = False


class FileState(msgspec.Struct):
    """One file across the rounds: as read from disk, as fixed so far, and what fixed it."""

    real: str
    rel: str
    is_json: bool
    original: str
    digest: str  # of the bytes on disk when first read
    current: str
    edits: int = 0
    findings: int = 0
    rules: set = msgspec.field(default_factory=set)
    refused: str | None = None
    written: bool = False
    rounds: list = msgspec.field(default_factory=list)  # each round's edits, in order (original -> current)

    def result(self, mode: str) -> dict:
        status = "not-fixed" if self.refused else ("fixed" if mode == "fix" else "would-fix")
        d = {"file": self.rel, "status": status, "edits": self.edits, "findings": self.findings,
             "rules": sorted(self.rules)}
        if self.refused:
            d["reason"] = self.refused
        return d


def fixable(findings) -> list:
    """The FAIL findings that carry an automatic fix."""
    return [f for f in findings if f.status is Status.FAIL and f.edits]


def plan_fixes(findings) -> list[FilePlan]:
    """Every fixable finding's edits, grouped by file."""
    by_file: dict[str, list] = {}
    owners: dict[str, list] = {}
    for f in fixable(findings):
        for e in f.edits:
            by_file.setdefault(e.abspath, []).append(e)
        for path in {e.abspath for e in f.edits}:
            owners.setdefault(path, []).append(f)
    plans = []
    for path in sorted(by_file):
        edits = by_file[path]
        keep, dropped = merge(edits)
        if len({e.digest for e in edits}) > 1:  # two readings of one file that differ: nothing is certain
            keep, dropped = [], keep + dropped
        kept = {e.key() for e in keep}
        done = [(f.rule_id, f.subject.label()) for f in owners[path]
                if all(e.key() in kept for e in f.edits if e.abspath == path)]
        plans.append(FilePlan(abspath=path, rel=_display(edits[0]), digest=edits[0].digest, edits=keep,
                              dropped=dropped, findings=done, is_json=path.endswith(".json")))
    return plans


def _display(e) -> str:
    """The path a diff names: relative to the working directory, as ``patch -p1`` and ``git apply`` want."""
    rel = e.file if not os.path.isabs(e.file) else os.path.relpath(e.abspath)
    return rel.replace(os.sep, "/")


def _text_digest(text: str) -> str:
    return digest(text.encode("utf-8"))


def _read_state(plan: FilePlan, real: str) -> FileState:
    dfd = _open_dir(os.path.dirname(real))
    try:
        data, _st = read_current(real, dfd)
    finally:
        os.close(dfd)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FixRefused("it is no longer UTF-8 text") from None
    return FileState(real=real, rel=plan.rel, is_json=plan.is_json, original=text, digest=digest(data), current=text)


def fix_rounds(check: Callable, roots: list[str]) -> tuple:
    """(the first report, the report with every fix applied in memory, {real path: FileState}). ``check(reads)``
    runs the check reading through ``reads`` (``checker.load.reader.Reads``; None: the disk): each round's
    fixed texts are its overlay, so nothing is written until every round agrees."""
    from checker.load.reader import Reads

    states: dict[str, FileState] = {}
    first = last = check(None)
    overlay: dict[str, bytes] = {}
    for _ in range(MAX_ROUNDS):
        if not _round(plan_fixes(last.findings), states, roots, overlay):
            break
        last = check(Reads(dict(overlay)))
    return first, last, states


def _round(plans: list[FilePlan], states: dict, roots: list[str], overlay: dict) -> bool:
    """Apply one round's plans to the files' current texts; True when any text changed."""
    changed = False
    for p in plans:
        try:
            real = real_target(p.abspath, roots)
        except FixRefused as exc:
            states.setdefault(p.abspath, FileState(real=p.abspath, rel=p.rel, is_json=p.is_json, original="",
                                                   digest="", current="", refused=str(exc)))
            continue
        st = states.get(real)
        if st is None:
            try:
                st = states[real] = _read_state(p, real)
            except (FixRefused, OSError) as exc:
                why = str(exc) if isinstance(exc, FixRefused) else f"cannot read it: {exc.strerror or exc}"
                states[real] = FileState(real=real, rel=p.rel, is_json=p.is_json, original="", digest="", current="",
                                         refused=why)
                continue
        if st.refused or not p.edits:
            continue
        if _text_digest(st.current) != p.digest:
            st.refused = "it changed since the check read it"
            st.current, st.rounds = st.original, []
            overlay.pop(real, None)
            continue
        try:
            new = apply_edits(st.current, p.edits)
        except ValueError as exc:
            st.refused, st.current, st.rounds = f"its text is not what the check read ({exc})", st.original, []
            overlay.pop(real, None)
            continue
        if not reads_as_intended(st.current, new, p.edits, p.is_json):
            st.refused, st.current, st.rounds = ("the edited text would not read back as intended (please report "
                                                 "this)", st.original, [])
            overlay.pop(real, None)
            continue
        if new == st.current:
            continue
        st.current = new
        st.rounds.append(list(p.edits))
        st.edits += len(p.edits)
        st.findings += len(p.findings)
        st.rules.update(r for r, _ in p.findings)
        overlay[real] = new.encode("utf-8")
        changed = True
    return changed


def diff(states: dict) -> str:
    """A unified diff of every file the rounds changed (original on disk -> fixed)."""
    return "".join(unified_diff(st.rel, st.original, st.current) for _, st in sorted(states.items())
                   if not st.refused and st.current != st.original)


def write(states: dict, before_rename=None) -> None:
    """Write every changed file; a file that cannot be written safely is left exactly as it was."""
    for _, st in sorted(states.items()):
        if st.refused or st.current == st.original:
            continue
        try:
            replace_file(st.real, st.digest, st.current.encode("utf-8"), before_rename)
            st.written = True
        except FixRefused as exc:
            st.refused = str(exc)
        except OSError as exc:
            st.refused = f"cannot write it: {exc.strerror or exc}"


def roots_of(paths: list[str], extra: list[str] = ()) -> list[str]:
    """The real paths fixes may be written under: the checked paths (and files named by options)."""
    return sorted({os.path.realpath(p) for p in list(paths) + list(extra) if p})


def section(mode: str, states: dict, fixable_before: int) -> dict:
    """The report's ``fix`` section: what --fix wrote (or --diff would write), file by file."""
    files = [st.result(mode) for _, st in sorted(states.items()) if st.refused or st.current != st.original]
    return {
        "mode": mode,
        "fixable_before": fixable_before,
        "files": files,
        "findings": sum(f["findings"] for f in files if f["status"] != "not-fixed"),
        "not_fixed": sum(1 for f in files if f["status"] == "not-fixed"),
    }
