"""Reviewed waivers (``--waivers waivers.yaml``): a matching FAIL becomes a SKIP, counted apart.

File format (schemas/waivers.schema.json, generated from ``WaiverFile``)::

    version: 1
    waivers:
      - rule: tps-utilization           # a rule id, or a glob over ids (power-*)
        subject: "acme/*/H200*"         # glob over the finding's subject label (default "*")
        reason: vendor spec sheet lists the lower figure
        approver: J. Doe (MLCommons review)
        expires: 2026-12-31             # last day the waiver applies

A waived finding keeps its message and severity; its status becomes SKIP with reason
``waived: <reason> (<approver>)`` and ``extra.waiver`` carries the waiver (its number, reason, approver
and expiry: the SARIF renderer turns it into an accepted suppression). Waivers never apply to
loading/parsing failures or to the checker's own bookkeeping rules. Expired waivers do not apply
(``waiver-expired``); one expiring within ``--waiver-expiry-warning`` days is ``waiver-expiring``; a waiver
that matched nothing is ``waiver-unused``, which says why when it can (``diagnose``: a rule id that does
not exist, with a did-you-mean, or rules that can never be waived).
"""
from __future__ import annotations

import datetime as _dt
import fnmatch
import os
from typing import Annotated, Any, Optional

import msgspec

from pydantic import BeforeValidator, Field

from checker.core.models import StrictModel, validate

from checker.core.findings import Finding, Status
from checker.engine.config import WAIVER_EXPIRY_WARNING_DAYS as EXPIRY_WARNING_DAYS

#: rules a waiver never touches: loader refusals, parse failures, crashes and the waiver rules themselves
NEVER_WAIVED_FAMILIES = {"loading", "parsing", "waivers"}
NEVER_WAIVED_RULES = {"submission-checked", "path-exists", "policy-registry"}
TODAY_ENV = "ENDPOINTS_CHECKER_TODAY"


def _iso_day(v: Any) -> Any:
    """A ``YYYY-MM-DD`` string (quoted in YAML, or from JSON) is that day; anything else is checked strictly."""
    if isinstance(v, str) and len(v) == 10:
        try:
            return _dt.date.fromisoformat(v)
        except ValueError:
            pass
    return v


class Waiver(StrictModel):
    """One accepted finding: which rule and subject, why, who approved it and until when."""

    rule: str = Field(min_length=1, description="Rule id, or a glob over rule ids (fnmatch).")
    subject: str = Field("*", min_length=1, description="Glob over the finding's subject label, e.g. 'acme/*/H200*'.")
    reason: str = Field(min_length=1, description="Why the finding is acceptable.")
    approver: str = Field(min_length=1, description="Who approved the waiver.")
    expires: Annotated[_dt.date, BeforeValidator(_iso_day)] = Field(
        description="Last day (YYYY-MM-DD) the waiver applies.")


class WaiverFile(StrictModel):
    """``--waivers FILE``: findings accepted for a while, each with a reason, an approver and an expiry."""

    version: int = Field(1, ge=1, le=1, description="The waivers file format: 1.")
    waivers: list[Waiver] = Field([], description="The waivers, each matched against every FAIL finding.")


class WaiverError(ValueError):
    """The waivers file cannot be read or does not fit the schema (a usage error: exit 2)."""


class WaiverSet(msgspec.Struct):
    waivers: list[Waiver]
    file: Any  # LoadedFile (positions) or a display string
    rel: str
    matched: list[int] = msgspec.field(default_factory=list)  # per waiver: findings waived
    today: _dt.date = msgspec.field(default_factory=_dt.date.today)
    #: a waiver this many days or fewer from its expiry is reported by waiver-expiring
    warn_days: int = EXPIRY_WARNING_DAYS
    #: per waiver that matched nothing, why it could not (``diagnose``): None, ("unknown-rule", did-you-mean
    #: text) or ("never-waived", the rule ids it names)
    problems: list = msgspec.field(default_factory=list)

    def expired(self, i: int) -> bool:
        return self.waivers[i].expires < self.today

    def days_left(self, i: int) -> int:
        """Days from today to the waiver's last day (0: it ends today; negative: expired)."""
        return (self.waivers[i].expires - self.today).days

    def expiring(self, i: int) -> bool:
        return 0 <= self.days_left(i) <= self.warn_days


def resolve_today(today: str | _dt.date | None = None) -> _dt.date:
    """--today, else $ENDPOINTS_CHECKER_TODAY, else the real date (tests pin it)."""
    value = today if today is not None else os.environ.get(TODAY_ENV)
    if value is None or value == "":
        return _dt.date.today()
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(str(value))
    except ValueError as exc:
        raise WaiverError(f"invalid date for today: {value!r} (use YYYY-MM-DD)") from exc


def load_waivers(source: str | dict, today: str | _dt.date | None = None,
                 warn_days: int = EXPIRY_WARNING_DAYS) -> WaiverSet:
    """Read and validate a waivers file (a path), or an already-parsed document (a dict)."""
    lf = None
    if isinstance(source, dict):
        data, rel = source, "<waivers>"
    else:
        from checker.load.reader import read_file

        path = os.path.abspath(source)
        lf = read_file("waivers", source, path, "/", 1 << 22)  # the user's own file: any symlink is fine
        if not lf.exists:
            raise WaiverError(f"waivers file not found: {source}")
        if lf.error is not None:
            raise WaiverError(f"waivers file {source}: {lf.error.message}")
        data, rel = lf.data, source
    model, problems = validate(WaiverFile, data if data is not None else {})
    if model is None:
        err = problems[0]
        where = ".".join(str(p) for p in err.path)
        line = f":{lf.position(tuple(err.path))[0]}" if lf is not None else ""
        raise WaiverError(f"waivers file {rel}{line}: {where}: {err.message}")
    return WaiverSet(waivers=list(model.waivers), file=lf if lf is not None else rel, rel=rel,
                     matched=[0] * len(model.waivers), today=resolve_today(today), warn_days=warn_days,
                     problems=[None] * len(model.waivers))


def waivable_rule(rule_id: str, family: str) -> bool:
    """Can a waiver ever apply to this rule? Not to loading and parsing failures, a file's schema check
    (``*-valid``) or the checker's bookkeeping."""
    return family not in NEVER_WAIVED_FAMILIES and rule_id not in NEVER_WAIVED_RULES and not rule_id.endswith("-valid")


def waivable(f: Finding) -> bool:
    return f.status is Status.FAIL and waivable_rule(f.rule_id, f.family)


def diagnose(ws: Optional[WaiverSet], rules) -> None:
    """For each current waiver that matched nothing, why it could not (``WaiverSet.problems``): its rule pattern
    names no rule of the catalogue (with a did-you-mean), or only rules no waiver ever applies to."""
    if ws is None:
        return
    from checker.core.option_values import did_you_mean

    ids = {r.id: r.family for r in rules}
    for i, w in enumerate(ws.waivers):
        if ws.matched[i] or ws.expired(i):
            continue
        named = [rid for rid in ids if fnmatch.fnmatchcase(rid, w.rule)]
        if not named:
            ws.problems[i] = ("unknown-rule", did_you_mean(w.rule, ids).strip())
        elif not any(waivable_rule(rid, ids[rid]) for rid in named):
            ws.problems[i] = ("never-waived", sorted(named))


def apply_waivers(findings: list[Finding], ws: Optional[WaiverSet]) -> list[Finding]:
    """Return the findings with every matching, unexpired waiver applied (first matching waiver wins)."""
    if ws is None or not ws.waivers:
        return findings
    live = [(i, w) for i, w in enumerate(ws.waivers) if not ws.expired(i)]
    out = []
    for f in findings:
        if waivable(f):
            label = f.subject.label()
            for i, w in live:
                if fnmatch.fnmatchcase(f.rule_id, w.rule) and fnmatch.fnmatchcase(label, w.subject):
                    ws.matched[i] += 1
                    f = msgspec.structs.replace(
                        f, status=Status.SKIP, fix=None, reason=f"waived: {w.reason} ({w.approver})",
                        extra={**f.extra, "waiver": {"index": i, "reason": w.reason, "approver": w.approver,
                                                     "expires": w.expires.isoformat()}})
                    break
        out.append(f)
    return out
