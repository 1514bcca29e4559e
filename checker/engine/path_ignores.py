"""Per-path ignores (``--per-path-ignores GLOB:RULES``, the file's ``per-path-ignores`` table): the
findings of these rules at files matching GLOB are deselected, as ``--ignore`` deselects a rule everywhere.

GLOB matches a file's name or the end of its path, as ``--exclude`` does (``r8/point.yaml``,
``*/H200*/*/system_desc.json``); RULES are ids, families or id prefixes. A matching PASS or FAIL becomes a
SKIP with reason ``deselected`` (counted as "not selected"); a SKIP stays as it is.
"""
from __future__ import annotations

from types import SimpleNamespace

import msgspec

from checker.core.findings import Finding, Status
from checker.core.option_values import UsageProblem, split

OPTION = "--per-path-ignores"


def parse(items, rules=None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """``GLOB:RULES`` values (repeated) as (glob, selectors) pairs; a malformed one, or (with ``rules``, the
    catalogue) a selector naming no rule, is a UsageProblem."""
    out = []
    for item in items or ():
        glob, sep, tokens = str(item).rpartition(":")
        selectors = split(tokens)
        if not sep or not glob.strip() or not selectors:
            raise UsageProblem(f"{OPTION} {item!r}: write GLOB:RULES (e.g. 'r8/point.yaml:seeds,power')")
        if rules is not None:
            from checker.core.option_values import check_selectors

            check_selectors(OPTION, list(selectors), rules)
        out.append((glob.strip(), selectors))
    return tuple(out)


def apply(findings: list[Finding], pairs) -> list[Finding]:
    """The findings with every PASS or FAIL of a rule ignored at its file deselected."""
    if not pairs:
        return findings
    from checker.engine.catalogue import select_matches
    from checker.load.layout import excluded

    out = []
    for f in findings:
        if f.status is not Status.SKIP and f.location is not None and f.location.file:
            rule = SimpleNamespace(id=f.rule_id, family=f.family)
            for glob, selectors in pairs:
                if select_matches(rule, selectors) and excluded(f.location.file, (glob,)):
                    f = msgspec.structs.replace(f, status=Status.SKIP, fix=None, edits=(), reason="deselected",
                                                message=f"deselected by {OPTION} {glob}: {f.message}")
                    break
        out.append(f)
    return out
