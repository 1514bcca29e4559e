"""Waiver bookkeeping (family ``waivers``): expired and unused entries of ``--waivers``.

Evaluated once, after every other rule and after the waivers were applied (``checker.engine.pipeline``),
from the waiver set in ``ctx.options["waivers"]``; SKIP when no waivers file was given.
"""
from __future__ import annotations

from checker.core.findings import Subject
from checker.core.rule import Fail, Pass, Skip, rule


def _entry(i: int, w) -> Subject:
    return Subject(entry=f"waiver {i + 1}: {w.rule} @ {w.subject}")


@rule(id="waiver-expired", title="Waivers are current", clause="R§9.1", severity="flag",
      scope="package")
def waiver_expired(pkg, ctx):
    """A waiver in `--waivers` is past its expiry date.

    What it checks: each waiver's `expires` date against today (`--today` / ENDPOINTS_CHECKER_TODAY
    when set); a waiver is valid through its expiry day. An expired waiver no longer applies: the
    findings it covered are FAILs again.
    Why: waivers are reviewed decisions with a deadline, not permanent exemptions.
    How to fix: Renew the waiver with a new approval and date, or fix the finding and delete it.
    """
    ws = ctx.opt("waivers")
    if ws is None:
        return Skip("no --waivers file given", reason="not-applicable")
    outs = []
    for i, w in enumerate(ws.waivers):
        if ws.expired(i):
            outs.append(Fail(f"waiver for {w.rule} on {w.subject!r} expired on {w.expires.isoformat()}",
                             file=ws.file, path=("waivers", i, "expires"), subject=_entry(i, w),
                             observed=w.expires.isoformat(), expected=f"on or after {ws.today.isoformat()}"))
    return outs or Pass(f"{len(ws.waivers)} waiver(s), none expired")


@rule(id="waiver-unused", title="Waivers match something", clause="R§9.1", severity="warn",
      scope="package")
def waiver_unused(pkg, ctx):
    """A current waiver in `--waivers` matched no FAIL finding.

    What it checks: every unexpired waiver waived at least one FAIL of this run (rule id pattern and
    subject pattern both match).
    Why: a waiver that matches nothing is stale (the problem was fixed) or mistyped (it waives
    nothing while the reviewer thinks it does).
    How to fix: Delete the stale waiver, or correct its `rule` / `subject` pattern.
    """
    ws = ctx.opt("waivers")
    if ws is None:
        return Skip("no --waivers file given", reason="not-applicable")
    outs = []
    for i, w in enumerate(ws.waivers):
        if not ws.expired(i) and ws.matched[i] == 0:
            outs.append(Fail(f"waiver for {w.rule} on {w.subject!r} matched no FAIL finding", file=ws.file,
                             path=("waivers", i), subject=_entry(i, w), observed=0,
                             expected="at least one waived finding"))
    return outs or Pass(f"{len(ws.waivers)} waiver(s), each matched a finding or expired")
