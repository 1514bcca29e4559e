"""One check per request for the long-running modes (an editor's language server, an agent's MCP server):
the entry that never raises.

A server must survive every request: ``check_request`` turns whatever a request holds (a PATH that is
not text, a FIFO, a hostile package, an unreadable baseline, a bug that raises, even MemoryError) into a
Report, whose ``exit_code()`` says 0/1/2 as the command line's would, and whose JSON encoding
(``checker.render.json_report.render``) cannot fail on its content. Each request costs what the same
``check`` costs (every bound of docs/robustness.md holds per request) and leaves nothing behind but
the bounded caches of compiled record checkers and imported rule families, so a server's memory stays
flat over requests (``tests/engine/test_request.py``). Only KeyboardInterrupt and SystemExit pass: they
are the server's own shutdown.
"""
from __future__ import annotations

from typing import Any

from checker.core.findings import Finding, Severity, Status, Subject
from checker.engine.config import RunConfig
from checker.engine.report import Report


def check_request(paths: Any, config: RunConfig | None = None) -> Report:
    """``check`` of ``paths`` that never raises: a request that cannot be checked is a Report with exit code 2
    and one FAIL saying why (a usage problem, or an internal error to report to the maintainers)."""
    config = config if config is not None else RunConfig()
    try:
        if isinstance(paths, str) or not isinstance(paths, (list, tuple)) \
                or not all(isinstance(p, str) and p and "\0" not in p for p in paths) or not paths:
            raise _Refused("paths must be a non-empty list of file names (text without NUL characters)")
        from checker.engine.pipeline import check

        return check(list(paths), config)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001  (the promise of this entry)
        shown = [p if isinstance(p, str) else repr(p)[:200] for p in paths] if isinstance(paths, (list, tuple)) \
            else [repr(paths)[:200]]
        return crashed_report(shown, config.fail_on, exc, usage=_is_usage(exc))


class _Refused(ValueError):
    """A request this entry refuses before checking (its arguments are not what a check takes)."""


def _is_usage(exc: BaseException) -> bool:
    """A problem with what was asked (a bad waiver or baseline file, an executor that cannot start), not a bug."""
    from checker.engine.baseline import BaselineError
    from checker.engine.executors import ExecutorUnavailable
    from checker.engine.official import OfficialUnavailable
    from checker.engine.waivers import WaiverError

    return isinstance(exc, (_Refused, BaselineError, WaiverError, ExecutorUnavailable, OfficialUnavailable))


def crashed_report(paths: list, fail_on: str, exc: BaseException, usage: bool = False) -> Report:
    """The report of a check that could not run: one submission-checked FAIL naming why, exit code 2."""
    from checker.engine.catalogue import all_rules
    from checker.core.gate import DEFAULT_FAIL_ON, FailOnError, parse_fail_on

    text = str(exc).splitlines()[0][:200] if str(exc) else ""
    if usage:
        message = f"the request could not be checked: {text or type(exc).__name__}"
        reason, fix = "usage-error", "Correct the request as the message says."
    else:
        why = f"internal error: {type(exc).__name__}" + (f": {text}" if text else "")
        message = f"the check did not complete ({why}); the report holds no other findings"
        reason, fix = "rule-error", "Report this to the endpoints-checker maintainers."
    finding = Finding(rule_id="submission-checked", status=Status.FAIL, severity=Severity.REJECT, subject=Subject(),
                      message=message, family="cohort", title="Every submission was checked", clause="R§9.1",
                      reason=reason, fix=fix)
    try:
        rules = all_rules()
    except Exception:  # noqa: BLE001  (the catalogue itself failed: the finding still says why)
        rules = []
    return Report(findings=[finding], rules=rules, paths=list(paths), policy_edition="unknown",
                  policy_version="unknown", fail_on=_gate_or_default(fail_on, parse_fail_on, FailOnError, DEFAULT_FAIL_ON),
                  input_error=True)


def _gate_or_default(fail_on, parse, error, default: str) -> str:
    """The canonical gate of what was asked, or the default where it is no gate (the report must hold one)."""
    try:
        return parse(fail_on) if isinstance(fail_on, str) else default
    except error:
        return default
