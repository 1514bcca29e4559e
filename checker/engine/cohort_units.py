"""Cohort mode: many submissions and run folders checked as independent units, then compared.

A *unit* is one submission root or run folder found under the PATHs (``discover`` in shallow mode
loads nothing). Each unit is loaded and checked on its own (``check_unit``, in a worker process
or in-process), and returns its findings plus a small picklable *digest* (seed sets, target
cohorts, hardware descriptions, with file positions) that the cross-submission rules
(``rules/cohort``) read from ``ctx.cohort_units``.

Subject labels: in cohort mode a submission's label is ``<org>/<submission_id>`` (the org is the
directory above the submission root), so two organisations may use the same id without their
findings colliding; a label still repeated (the same tree given twice) falls back to the display
path, then to a ``#N`` suffix. A single submission keeps its plain ``<submission_id>`` label.
"""
from __future__ import annotations

import os
from typing import Any

import msgspec

from checker.core.findings import Finding
from checker.core.json_text import findings_block
from checker.load.cohort_digest import Unit, base_digest, digest_submission, failed_unit_digest  # noqa: F401
from checker.engine.evaluate import unit_rules
from checker.load.mirror import needs_mirror, origin

#: worker-side cache of (rules, policy) per settings key; pre-filled by the parent before forking
_WORKER_STATE: dict[tuple, tuple] = {}


class UnitSettings(msgspec.Struct, frozen=True):
    policy_dir: str | None
    policy_overrides: tuple
    select: tuple
    ignore: tuple
    options: tuple  # sorted (name, value) pairs
    max_bytes: int
    keep_node: bool
    prerender: bool = False  # encode the unit's findings' JSON in the worker (the JSON report splices it in)
    exclude: tuple = ()  # --exclude globs (discovery)
    official: Any = None  # checker.engine.official.Spec: the official checker each unit's Week-0 verdict comes from
    #: the check's overlay (``checker.load.reader.Reads``) as sorted (real path, bytes) pairs: a --fix/--diff round
    overlay: tuple = ()

    @property
    def key(self) -> tuple:
        return (self.policy_dir, self.policy_overrides)


class UnitResult(msgspec.Struct):
    findings: list[Finding]
    digest: dict
    node: Any = None  # the loaded Submission/RunFolder (only when the report needs the package)
    #: settings.prerender: the JSON text of the unit's own findings (those of rules not of package scope, in
    #: order) as they sit in the report's findings list, and how many findings it holds
    block: str | None = None
    block_size: int = 0
    bytes_read: int = 0  # bytes of events logs audited (client progress)


def plan_units(plan) -> list[Unit]:
    """Units of a shallow-discovered Package, with unique subject labels (stub names updated)."""
    units: list[Unit] = []
    subs = []
    for stub in plan.submissions:
        org = stub.org or os.path.basename(os.path.dirname(os.path.normpath(stub.abspath)))
        subs.append((stub, org, f"{org}/{stub.name}" if org else stub.name))
    labels = _unique([lab for _s, _o, lab in subs], [s.rel for s, _o, _l in subs])
    for (stub, org, _lab), label in zip(subs, labels):
        units.append(Unit("submission", origin(stub.abspath), stub.rel, org, stub.name, label))
        stub.name = label
    rf_labels = _unique([rf.name for rf in plan.run_folders], [rf.rel for rf in plan.run_folders])
    for rf, label in zip(plan.run_folders, rf_labels):
        units.append(Unit("run-folder", origin(rf.abspath), rf.rel, "", rf.name, label))
        rf.name = label
    return units


def _unique(labels: list[str], fallbacks: list[str]) -> list[str]:
    out = [lab if labels.count(lab) == 1 else fb for lab, fb in zip(labels, fallbacks)]
    seen: dict[str, int] = {}
    final = []
    for lab in out:
        seen[lab] = seen.get(lab, 0) + 1
        final.append(lab if seen[lab] == 1 else f"{lab}#{seen[lab]}")
    return final


def _state(settings: UnitSettings):
    if settings.key not in _WORKER_STATE:
        from checker.engine.policy import load_policy
        from checker.engine.catalogue import all_rules

        rules = all_rules()
        _WORKER_STATE[settings.key] = (rules, load_policy(settings.policy_dir, dict(settings.policy_overrides)))
    return _WORKER_STATE[settings.key]


def share_state(settings: UnitSettings, rules, policy) -> None:
    """The parent's rules and loaded policy for the units of ``settings``: set before the workers fork, so each
    inherits them instead of loading its own."""
    _WORKER_STATE[settings.key] = (rules, policy)


def install_state(shared: tuple) -> None:
    """Worker setup for a remote executor: the client's loaded policy, so every worker checks with it."""
    key, policy = shared
    if key not in _WORKER_STATE:
        from checker.engine.catalogue import all_rules

        _WORKER_STATE[key] = (all_rules(), policy)


def check_unit(job: tuple) -> UnitResult:
    """Load and check one unit (runs in a worker process)."""
    from checker.load.layout import Options
    from checker.load.reader import DISK, Reads

    unit, settings = job
    rules, policy = _state(settings)
    reads = Reads(dict(settings.overlay)) if settings.overlay else DISK
    opts = Options(max_bytes=settings.max_bytes, exclude=settings.exclude, reads=reads)
    if not needs_mirror(unit.path):
        return _check_loaded(unit, settings, rules, policy, opts, unit.path)
    from checker.load import mirror, mirror_build

    local = mirror_build.build(unit.path, settings.max_bytes, events=dict(settings.options).get("events", True))
    try:  # a URL or an archive: its mirror lives as long as the unit's check
        return _check_loaded(unit, settings, rules, policy, opts, local)
    finally:
        mirror.release(local)


def _check_loaded(unit: Unit, settings: UnitSettings, rules, policy, opts, path: str) -> UnitResult:
    from checker.load.package_tree import Package
    from checker.engine import week0

    pkg = Package(paths=[unit.rel], missing_paths=[], unusable_paths=[], submissions=[],
                                  run_folders=[], junk=[])
    pending = week0.Pending(settings.official if unit.kind == "submission" else None, [path],
                            dict(settings.policy_overrides))  # the official checks it while we do
    try:
        return _check_unit_with(unit, settings, rules, policy, opts, path, pkg, pending)
    finally:
        pending.abandon()  # nothing left after a normal run; the child is freed after an interruption


def _check_unit_with(unit: Unit, settings: UnitSettings, rules, policy, opts, path: str, pkg, pending) -> UnitResult:
    from checker.load.run_folder_files import load_run_folder
    from checker.load.submission import load_submission
    from checker.engine.evaluate import Context, run_rules
    from checker.engine import week0

    if unit.kind == "submission":
        node = load_submission(path, unit.rel, opts, org=unit.org, name=unit.label)
        pkg.submissions.append(node)
        digest = digest_submission(node, unit)
    else:
        node = load_run_folder(path, unit.rel, opts)
        node.name = unit.label
        pkg.run_folders.append(node)
        digest = base_digest(unit)
    if opts.leftovers:  # temporary files of an interrupted --fix: the parent names them (checker.cli)
        digest["leftovers"] = list(opts.leftovers)
    ctx = Context(package=pkg, policy=policy, options=dict(settings.options))
    if pkg.run_folders:  # the events audit runs in this worker: no nested pool, no second progress bar
        from checker.engine.run_folders import prepare_run_folders

        prepare_run_folders(pkg, ctx.options, settings.max_bytes, jobs=1, progress=False, reads=opts.reads)
    select, ignore = list(settings.select) or None, list(settings.ignore) or None
    findings = run_rules(unit_rules(rules), pkg, ctx, select=select, ignore=ignore)
    # before the worker pre-renders the findings' JSON
    predictions, fed = week0.attach(pkg, ctx, findings, rules, select, ignore, pending)
    if fed:
        findings = sorted(findings + fed, key=Finding.sort_key)
    from checker.engine.causes import link

    findings = link(findings, rules)  # before the JSON is encoded here (the parent links again: same objects)
    if unit.kind == "submission" and node.name in predictions:
        digest["week0"] = predictions[node.name].as_dict()
    block, size = None, 0
    if settings.prerender:
        package_scope = {r.id for r in rules if r.scope == "package"}
        own = [f for f in findings if f.rule_id not in package_scope]
        block, size = _block(own), len(own)
    audited = sum(rf.events_audit.bytes_read for rf in pkg.run_folders if rf.events_audit is not None)
    return UnitResult(findings=findings, digest=digest, node=node if settings.keep_node else None, block=block,
                      block_size=size, bytes_read=audited)


def _block(findings: list[Finding]) -> str | None:
    """``findings_block`` of the unit's own findings, or None for none, or when they cannot be encoded here:
    the report's own writer then encodes them (and reports what it cannot), so a unit is never lost for one
    finding's content."""
    if not findings:
        return None
    try:
        return findings_block(findings)
    except Exception:  # noqa: BLE001
        return None


def unit_summary(unit: Unit, digest: dict, verdicts, count_waived: bool) -> dict:
    """One row of the cohort summary: who and what (from the unit and its digest), and the unit's verdicts and
    counts as the engine's tally holds them (``checker.engine.tally.Verdicts``)."""
    counts = verdicts.counts.as_dict(with_waived=count_waived)
    return {
        "label": unit.label, "kind": unit.kind, "org": unit.org, "submission_id": unit.sid, "path": unit.rel,
        "systems": digest.get("systems", []), "models": digest.get("models", []),
        "divisions": digest.get("divisions", []),
        "verdict": verdicts.gate,
        "week0_reject": verdicts.week0_reject,
        "rules_verdict": verdicts.rules,
        "checked": verdicts.checked,
        "week0": verdicts.week0,
        "counts": counts,
    }
