"""Cohort ids: parsing with clear errors, order, arithmetic and opening dates (S§4.6, RULES.md §6.1)."""
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from checker.domain.cohort_ids import Cohort, CohortError, parse, span, try_parse, window

# ordinals of years 1900..2200 keep dates inside datetime's range with room for arithmetic
ORDINALS = st.integers(min_value=1900 * 24, max_value=2200 * 24 - 1)
cohort_st = ORDINALS.map(Cohort)


@pytest.mark.parametrize("text,date", [
    ("2026-10-C1", dt.date(2026, 10, 21)),
    ("2026-11-C0", dt.date(2026, 11, 4)),
    ("2026-11-C1", dt.date(2026, 11, 18)),
    ("2026-12-C0", dt.date(2026, 12, 2)),
    ("2026-12-C1", dt.date(2026, 12, 16)),
    ("2027-01-C0", dt.date(2027, 1, 6)),
    ("2027-01-C1", dt.date(2027, 1, 20)),
])
def test_published_example_dates(text, date):
    assert parse(text).date() == date


@pytest.mark.parametrize("bad,why", [
    ("2026-13-C0", "month 13"),
    ("2026-00-C0", "month 00"),
    ("2026-10-C2", "C0 or C1"),
    ("2026-10-c0", "capitals"),
    ("2026-1-C0", "2 digits"),
    ("26-10-C0", "4 digits"),
    (" 2026-10-C0", "spaces"),
    ("2026-10-C0 ", "spaces"),
    ("2026-11-04", "YYYY-MM-C0"),
    ("", "YYYY-MM-C0"),
    ("C0", "YYYY-MM-C0"),
    ("0000-01-C0", "out of range"),
    (None, "not nothing"),
    (202611, "not a number"),
    (2026.5, "not a number"),
    (True, "true/false"),
    (["2026-11-C0"], "a list"),
    ({"c": 1}, "a mapping"),
    ("x" * 10000, "YYYY-MM-C0"),
])
def test_parse_errors_are_specific(bad, why):
    with pytest.raises(CohortError) as exc:
        parse(bad)
    assert why in str(exc.value)
    assert len(str(exc.value)) < 200  # a huge input is not echoed in full
    c, reason = try_parse(bad)
    assert c is None and why in reason


def test_order_and_arithmetic_examples():
    a = parse("2026-10-C1")
    assert a + 1 == parse("2026-11-C0")
    assert a + 3 == parse("2026-12-C0")
    assert a - 1 == parse("2026-10-C0")
    assert parse("2027-01-C0") - a == 5
    assert parse("2026-12-C1") > a + 3
    assert str(parse("2026-12-C1") + 1) == "2027-01-C0"
    assert [str(c) for c in window(a, 4)] == ["2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0"]
    assert span(window(a, 4)) == "2026-10-C1 .. 2026-12-C0 (2026-10-C1, 2026-11-C0, 2026-11-C1, 2026-12-C0)"
    assert span([a + 2, a]) == "2026-10-C1, 2026-11-C1"
    assert a.label() == "2026-10-C1 (Wed 2026-10-21)"


def test_out_of_range_arithmetic_raises_cohort_error():
    with pytest.raises(CohortError):
        parse("9999-12-C1") + 1
    with pytest.raises(CohortError):
        parse("0001-01-C0") - 1


@given(cohort_st)
def test_roundtrip(c):
    assert parse(str(c)) == c
    assert len(str(c)) == 10


@given(cohort_st, st.integers(min_value=-2000, max_value=2000))
def test_add_subtract_inverse(c, n):
    assert (c + n) - c == n
    assert (c + n) - n == c
    assert c + n == n + c


@given(cohort_st, cohort_st)
def test_order_matches_ordinal_and_dates(a, b):
    assert (a < b) == (a.ordinal < b.ordinal) == (a.date() < b.date())
    assert (a - b) == -(b - a)


@given(cohort_st)
def test_dates_are_first_and_third_wednesdays(c):
    d = c.date()
    assert d.weekday() == 2
    assert (d.year, d.month) == (c.year, c.month)
    assert (1 <= d.day <= 7) if c.half == 0 else (15 <= d.day <= 21)
    nxt = (c + 1).date()
    assert (nxt - d).days == 14 if c.half == 0 else 14 <= (nxt - d).days <= 21


@given(cohort_st)
def test_two_cohorts_per_month(c):
    assert (c + 2).month == c.month % 12 + 1
    assert (c + 24).year == c.year + 1 and (c + 24).month == c.month and (c + 24).half == c.half
