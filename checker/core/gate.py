"""The ``--fail-on`` gate, defined once: its values, how several combine, and what each trips on.

Every front end (the CLI, the library API, the GitHub Action, pre-commit, the MCP and language servers, the
config file) imports these instead of writing the values out. A gate is one or more values, comma-separated
or repeated: ``reject``, ``flag`` and ``warn`` trip on a FAIL of that severity or worse, ``week0`` trips
exactly when the Week-0 automated check would reject, ``never`` never trips. Several trip when any of them
does, so ``flag,week0`` fails on a flag or on a Week-0 reject.
"""
from __future__ import annotations

import difflib
from typing import Iterable

#: the severity thresholds: the lowest severity rank that trips (Severity.rank: reject 4 ... warn 1)
FAIL_ON_RANK = {"reject": 3, "flag": 2, "warn": 1, "never": 99}
#: every value --fail-on accepts, in the order a combined gate is written
FAIL_ON_VALUES = ("reject", "flag", "warn", "never", "week0")
DEFAULT_FAIL_ON = "flag"
#: the value that trips on the Week-0 automated check's verdict
WEEK0 = "week0"
#: what each value means, in a line (help texts, the Action's and MCP's descriptions)
FAIL_ON_HELP = ("reject = errors, flag = flags and errors, warn = any problem, week0 = the Week-0 automated check "
                "would reject, never = never; several comma-separated or repeated trip when any does")


class FailOnError(ValueError):
    """A --fail-on value that is none of FAIL_ON_VALUES (the sentence names them)."""


def parse_fail_on(values: "str | Iterable[str]") -> str:
    """The gate as its one canonical text (``flag``, ``week0``, ``warn,week0``, ``never``) from values given
    comma-separated and/or repeated. Of several severities the lowest counts (it trips whenever a higher
    one would); ``never`` beside another value adds nothing. Raises FailOnError on an unknown value."""
    if isinstance(values, str):
        values = (values,)
    tokens = [t.strip() for v in values for t in str(v).split(",") if t.strip()]
    if not tokens:
        raise FailOnError(f"no value: give one or more of {_choices()}.")
    unknown = [t for t in tokens if t not in FAIL_ON_VALUES]
    if unknown:
        near = difflib.get_close_matches(unknown[0], FAIL_ON_VALUES, n=1)
        hint = f" Did you mean: {near[0]}?" if near else ""
        raise FailOnError(f"{unknown[0]!r} is not one of {_choices()}.{hint}")
    severities = [t for t in tokens if t in FAIL_ON_RANK and t != "never"]
    parts = [min(severities, key=FAIL_ON_RANK.__getitem__)] if severities else []
    if WEEK0 in tokens:
        parts.append(WEEK0)
    return ",".join(parts) or "never"


def _choices() -> str:
    return ", ".join(repr(v) for v in FAIL_ON_VALUES)


def severity_rank(fail_on: str) -> int:
    """The lowest Severity.rank the gate trips on (99: no severity trips it)."""
    ranks = [FAIL_ON_RANK[t] for t in fail_on.split(",") if t in FAIL_ON_RANK]
    return min(ranks) if ranks else FAIL_ON_RANK["never"]


def gates_week0(fail_on: str) -> bool:
    """Does this gate trip on the Week-0 automated check's reject?"""
    return WEEK0 in fail_on.split(",")


def fail_on_pattern() -> str:
    """A regular expression matching every canonical gate text (the report schema's ``fail_on``)."""
    sev = "|".join(k for k in FAIL_ON_RANK if k != "never")
    return rf"^(never|(({sev})(,{WEEK0})?)|{WEEK0})$"
