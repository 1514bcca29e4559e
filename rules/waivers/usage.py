"""Waiver bookkeeping (family ``waivers``): expired, expiring and unused entries of ``--waivers``.

Evaluated once, after every other rule and after the waivers were applied (``checker.engine.pipeline``),
from the waiver set in ``ctx.waivers``; SKIP when no waivers file was given.
"""
from __future__ import annotations

from checker.core.findings import Subject
from checker.core.rule import Fail, Pass, Skip, rule


def _entry(i: int, w) -> Subject:
    return Subject(entry=f"waiver {i + 1}: {w.rule} @ {w.subject}")


@rule(id="waiver-expired", title="Waivers are current", clause="R§9.1", severity="flag",
      scope="package", after_waivers=True)
def waiver_expired(pkg, ctx):
    """A waiver in `--waivers` is past its expiry date.

    What it checks: each waiver's `expires` date against today (`--today` / ENDPOINTS_CHECKER_TODAY
    when set); a waiver is valid through its expiry day. An expired waiver no longer applies: the
    findings it covered are FAILs again.
    Why: waivers are reviewed decisions with a deadline, not permanent exemptions.
    How to fix: Renew the waiver with a new approval and date, or fix the finding and delete it.
    """
    return _per_waiver(ctx, _expired, "none expired")


def _per_waiver(ctx, outcome, none: str):
    """SKIP without --waivers; else the FAIL ``outcome(ws, i, waiver)`` gives for each waiver (None: nothing to
    report), or a PASS saying ``none``."""
    ws = ctx.waivers
    if ws is None:
        return Skip("no --waivers file given", reason="not-applicable")
    outs = [o for i, w in enumerate(ws.waivers) if (o := outcome(ws, i, w)) is not None]
    return outs or Pass(f"{len(ws.waivers)} waiver(s), {none}")


def _expired(ws, i: int, w):
    if not ws.expired(i):
        return None
    return Fail(f"waiver for {w.rule} on {w.subject!r} expired on {w.expires.isoformat()}", file=ws.file,
                path=("waivers", i, "expires"), subject=_entry(i, w), observed=w.expires.isoformat(),
                expected=f"on or after {ws.today.isoformat()}")


@rule(id="waiver-expiring", title="Waivers are renewed before they expire", clause="R§9.1", severity="warn",
      scope="package", after_waivers=True)
def waiver_expiring(pkg, ctx):
    """A waiver in `--waivers` expires within the warning window (`--waiver-expiry-warning`, 14 days by default).

    What it checks: each current waiver's `expires` date against today (`--today` /
    ENDPOINTS_CHECKER_TODAY when set): one that ends within the window is reported with the days left,
    so it is renewed or its finding fixed before the gate starts failing on it.
    Why: an expired waiver stops applying overnight; the findings it covered then FAIL a gate that
    passed the day before.
    How to fix: Renew the waiver (a new approval and date), or fix the finding and delete the waiver.
    """
    warn_days = ctx.waivers.warn_days if ctx.waivers is not None else 0
    return _per_waiver(ctx, _expiring, f"none expiring within {warn_days} days")


def _expiring(ws, i: int, w):
    if not ws.expiring(i):
        return None
    left = ws.days_left(i)
    when = "today is its last day" if left == 0 else f"{left} day{'s' if left != 1 else ''} left"
    return Fail(f"waiver for {w.rule} on {w.subject!r} expires on {w.expires.isoformat()} ({when}; warned "
                f"{ws.warn_days} days ahead)", file=ws.file, path=("waivers", i, "expires"), subject=_entry(i, w),
                observed=w.expires.isoformat(), expected=f"more than {ws.warn_days} days after {ws.today.isoformat()}")


@rule(id="waiver-unused", title="Waivers match something", clause="R§9.1", severity="warn",
      scope="package", after_waivers=True)
def waiver_unused(pkg, ctx):
    """A current waiver in `--waivers` matched no FAIL finding; it says why when it can.

    What it checks: every unexpired waiver waived at least one FAIL of this run (rule id pattern and
    subject pattern both match). A waiver whose `rule` names no rule of the catalogue is reported as
    an unknown rule with the closest ids; one that names only rules no waiver applies to (loading and
    parsing failures, a file's schema check `*-valid`, the checker's bookkeeping) as one that can
    never be waived.
    Why: a waiver that matches nothing is stale (the problem was fixed) or mistyped (it waives
    nothing while the reviewer thinks it does).
    How to fix: Delete the stale waiver, or correct its `rule` / `subject` pattern; fix a finding that
    can never be waived.
    """
    return _per_waiver(ctx, _unused, "each matched a finding or expired")


def _unused(ws, i: int, w):
    """The FAIL of a waiver that waived nothing, in the words of its cause (``checker.engine.waivers.diagnose``)."""
    if ws.expired(i) or ws.matched[i]:
        return None
    where = dict(file=ws.file, subject=_entry(i, w))
    problem = ws.problems[i] if i < len(ws.problems) else None
    if problem is not None and problem[0] == "unknown-rule":
        hint = f" {problem[1]}" if problem[1] else ""
        return Fail(f"waiver {i + 1} names rule {w.rule!r}, which is no rule of endpoints-checker: it waives "
                    f"nothing.{hint}", path=("waivers", i, "rule"), observed=w.rule, expected="a rule id or a glob "
                    "over rule ids", fix="Correct the rule id (`endpoints-checker rules` lists them).", **where)
    if problem is not None and problem[0] == "never-waived":
        named = ", ".join(problem[1][:5]) + (f" and {len(problem[1]) - 5} more" if len(problem[1]) > 5 else "")
        return Fail(f"waiver {i + 1} names {named}, which can never be waived (loading and parsing failures, a "
                    "file's schema check and the checker's bookkeeping always count): it waives nothing",
                    path=("waivers", i, "rule"), observed=w.rule, expected="a rule a waiver can apply to",
                    fix="Delete the waiver and fix the finding in the package.", **where)
    return Fail(f"waiver for {w.rule} on {w.subject!r} matched no FAIL finding", path=("waivers", i), observed=0,
                expected="at least one waived finding", **where)
