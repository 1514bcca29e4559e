"""Submission cohorts (S§4.6): ids ``YYYY-MM-C0`` / ``YYYY-MM-C1``, their order, arithmetic and dates.

Two cohorts per month: C0 opens on the first Wednesday, C1 on the third (08:00 PT). A cohort is
stored as its ordinal ``(year*12 + month-1)*2 + half`` so ordering, adding and subtracting are
integer arithmetic; ``parse`` turns anything that is not exactly a cohort id into a ``CohortError``
whose message says what is wrong (``2026-13-C0``: month 13; ``2026-10-c0``: lowercase).
"""
from __future__ import annotations

import datetime as _dt
import re
from typing import Any

import msgspec

from checker.core.values import is_int

MIN_YEAR = 1
MAX_YEAR = 9999
# ASCII digits only (re.ASCII): a full-width "２０２６" is not the year 2026
_EXACT = re.compile(r"^(\d{4})-(\d{2})-C([01])$", re.ASCII)
_LOOSE = re.compile(r"^\s*(\d{1,4})\s*-\s*(\d{1,2})\s*-\s*([Cc])(\d+)\s*$", re.ASCII)
EXAMPLE = "2026-11-C0"


class CohortError(ValueError):
    """A value that is not a cohort id; the message says why and what a valid one looks like."""


class Cohort(msgspec.Struct, frozen=True, order=True):
    """One submission cohort, ordered by time."""

    ordinal: int

    def __post_init__(self) -> None:
        if not isinstance(self.ordinal, int) or isinstance(self.ordinal, bool):
            raise TypeError("a cohort ordinal is an int")
        year = self.ordinal // 24
        if not MIN_YEAR <= year <= MAX_YEAR:
            raise CohortError(f"cohort out of range: year {year} is not in {MIN_YEAR}..{MAX_YEAR}")

    @classmethod
    def of(cls, year: int, month: int, half: int) -> "Cohort":
        if not 1 <= month <= 12:
            raise CohortError(f"month {month} is not 1..12")
        if half not in (0, 1):
            raise CohortError(f"half C{half} is not C0 or C1")
        return cls((year * 12 + month - 1) * 2 + half)

    @property
    def year(self) -> int:
        return self.ordinal // 24

    @property
    def month(self) -> int:
        return (self.ordinal // 2) % 12 + 1

    @property
    def half(self) -> int:
        return self.ordinal % 2

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}-C{self.half}"

    def __repr__(self) -> str:
        return f"Cohort({str(self)!r})"

    def __add__(self, n: int) -> "Cohort":
        if not isinstance(n, int) or isinstance(n, bool):
            return NotImplemented
        return Cohort(self.ordinal + n)

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        """``cohort - n`` is an earlier cohort; ``cohort - cohort`` is the number of cohorts between."""
        if isinstance(other, Cohort):
            return self.ordinal - other.ordinal
        if is_int(other):
            return Cohort(self.ordinal - other)
        return NotImplemented

    def date(self) -> _dt.date:
        """Opening day: the first (C0) or third (C1) Wednesday of the month."""
        first = _dt.date(self.year, self.month, 1)
        first_wed = 1 + (2 - first.weekday()) % 7  # Monday=0, Wednesday=2
        return _dt.date(self.year, self.month, first_wed + 14 * self.half)

    def label(self) -> str:
        """``2026-11-C0 (Wed 2026-11-04)``: the id with its opening date, for messages."""
        return f"{self} (Wed {self.date().isoformat()})"


def parse(value: Any) -> Cohort:
    """Parse a cohort id; raise CohortError with a specific reason for anything else."""
    if isinstance(value, Cohort):
        return value
    if not isinstance(value, str):
        what = {bool: "true/false", int: "a number", float: "a number", list: "a list",
                dict: "a mapping", type(None): "nothing"}.get(type(value), type(value).__name__)
        raise CohortError(f"a cohort id is a string like {EXAMPLE}, not {what}")
    text = value
    m = _EXACT.match(text)
    if m:
        year, month, half = int(m.group(1)), int(m.group(2)), int(m.group(3))
        if year < MIN_YEAR:
            raise CohortError(f"{text!r}: year {m.group(1)} is out of range")
        if not 1 <= month <= 12:
            raise CohortError(f"{text!r}: month {m.group(2)} is not 01..12")
        return Cohort.of(year, month, half)
    shown = text if len(text) <= 40 else text[:40] + "..."
    loose = _LOOSE.match(text)
    if loose:
        y, mo, c, h = loose.groups()
        hints = []
        if text != text.strip() or any(ch.isspace() for ch in text):
            hints.append("remove the spaces")
        if len(y) != 4:
            hints.append("write the year with 4 digits")
        if not 1 <= int(mo) <= 12:
            hints.append(f"month {mo} is not 01..12")
        elif len(mo) != 2:
            hints.append("write the month with 2 digits")
        if c == "c":
            hints.append("write the half in capitals (C0/C1)")
        if h not in ("0", "1"):
            hints.append(f"the half must be C0 or C1, not C{h}")
        if hints:
            raise CohortError(f"{shown!r} is not a cohort id: " + "; ".join(hints) + f" (e.g. {EXAMPLE})")
    raise CohortError(f"{shown!r} is not a cohort id of the form YYYY-MM-C0 or YYYY-MM-C1 (e.g. {EXAMPLE})")


def try_parse(value: Any) -> tuple[Cohort | None, str | None]:
    """``(cohort, None)`` or ``(None, reason)``: never raises."""
    try:
        return parse(value), None
    except CohortError as exc:
        return None, str(exc)


def window(start: Cohort, length: int) -> list[Cohort]:
    """``start`` and the ``length - 1`` cohorts after it."""
    return [start + i for i in range(max(0, length))]


def span(cohorts: list[Cohort]) -> str:
    """``2026-10-C1 .. 2026-12-C0 (2026-10-C1, 2026-11-C0, 2026-11-C1, 2026-12-C0)`` for messages."""
    if not cohorts:
        return "(no cohorts)"
    cs = sorted(cohorts)
    listed = ", ".join(str(c) for c in cs)
    contiguous = all(b - a == 1 for a, b in zip(cs, cs[1:]))
    if contiguous and len(cs) > 1:
        return f"{cs[0]} .. {cs[-1]} ({listed})"
    return listed
