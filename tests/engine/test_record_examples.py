"""checker.core.record by example: aliases, kept unknown keys, record checks, recursion, errors, dates.

The generated comparison with pydantic strict mode is in test_record.py.
"""
from __future__ import annotations

import datetime
from typing import Optional

import pytest

from checker.core.record import Problem, Record, RecordError, as_dict, check_record, extras_of, field, model_check
from checker.core.record_schema import record_schema


def problems(cls, data) -> list:
    return [(p.loc, p.type) for p in check_record(cls, data)[1]]


class Limits(Record, extra="forbid", by_name=True):
    max_len: int = field(alias="max-len", ge=1, description="the longest")
    ratio: float = 1


class Strict(Record, extra="forbid"):
    max_len: int = field(alias="max-len")


def test_alias_is_the_key_and_by_name_also_accepts_the_fields_own_name():
    assert Limits.parse({"max-len": 3}).max_len == 3
    assert Limits.parse({"max_len": 3}).max_len == 3
    assert problems(Limits, {"max_len": "3"}) == [(("max_len",), "int_type")]  # located at the key as written
    assert problems(Limits, {}) == [(("max-len",), "missing")]
    # both spellings: the alias is read, the name is one key too many (pydantic does the same)
    assert problems(Limits, {"max-len": 3, "max_len": 4}) == [(("max_len",), "extra_forbidden")]
    assert problems(Strict, {"max_len": 3}) == [(("max-len",), "missing"), (("max_len",), "extra_forbidden")]


class Inner(Record):
    n: int


class Open(Record, extra="allow"):
    inner: Inner
    tags: list[str] = field(default_factory=list)


class Closed(Record, extra="ignore"):
    a: int = 0


def test_extras_of_and_as_dict_keep_unknown_keys_as_written():
    obj = Open.parse({"inner": {"n": 1, "note": "kept"}, "zeta": [1]})
    assert extras_of(obj) == {"zeta": [1]} and extras_of(obj.inner) == {"note": "kept"}
    assert as_dict(obj) == {"inner": {"n": 1, "note": "kept"}, "tags": [], "zeta": [1]}
    ignored = Closed.parse({"b": 2})
    assert extras_of(ignored) == {} and as_dict(ignored) == {"a": 0}
    assert Open.parse({"inner": Inner(n=2)}).inner == Inner(n=2)  # an instance is taken as it is


class Range(Record):
    lo: int
    hi: int

    @model_check
    def _ordered(self):
        if self.lo > self.hi:
            raise ValueError("lo must not exceed hi")


class Holder(Record):
    range: Range


def test_a_model_check_speaks_at_the_records_location_once_its_fields_are_valid():
    assert check_record(Holder, {"range": {"lo": 2, "hi": 1}})[1] == [Problem(("range",), "value_error",
                                                                               "lo must not exceed hi")]
    assert problems(Holder, {"range": {"lo": "2", "hi": 1}}) == [(("range", "lo"), "int_type")]  # no check run
    with pytest.raises(RecordError) as err:
        Range.parse({"lo": 2, "hi": 1})
    assert str(err.value) == "1 problem(s) validating Range\n  (top level): lo must not exceed hi [value_error]"


class Tree(Record):
    name: str
    child: Optional[Tree] = None


def test_a_record_holding_itself_validates_and_has_a_schema():
    t = Tree.parse({"name": "a", "child": {"name": "b", "child": {"name": "c"}}})
    assert t.child.child == Tree(name="c") and t.child.child.child is None
    assert check_record(Tree, {"name": "a", "child": {"child": {"name": 1}}})[1] == [
        Problem(("child", "name"), "missing", "Field required"),
        Problem(("child", "child", "name"), "string_type", "Input should be a valid string")]
    doc = record_schema(Tree)
    ref = {"anyOf": [{"$ref": "#/$defs/Tree"}, {"type": "null"}], "default": None}
    assert doc["properties"]["child"] == ref and doc["$defs"]["Tree"]["properties"]["child"] == ref


def test_record_error_lists_every_problem():
    with pytest.raises(RecordError) as err:
        Limits.parse({"max-len": 0, "ratio": "x", "other": 1})
    assert str(err.value) == ("3 problem(s) validating Limits\n"
                              "  max-len: Input should be greater than or equal to 1 [greater_than_equal]\n"
                              "  ratio: Input should be a valid number [float_type]\n"
                              "  other: Extra inputs are not permitted [extra_forbidden]")
    assert [p.loc for p in err.value.problems] == [("max-len",), ("ratio",), ("other",)]
    assert isinstance(err.value, ValueError)


def test_construction_by_keywords_validates_like_parse():
    limits = Limits(**{"max-len": 2}, ratio=3)
    assert limits.max_len == 2 and limits.ratio == 3.0 and type(limits.ratio) is float
    assert limits == Limits.parse({"max-len": 2, "ratio": 3.0})
    with pytest.raises(RecordError, match=r"max-len: Input should be a valid integer \[int_type\]"):
        Limits(**{"max-len": True})
    assert repr(Limits(max_len=5)) == "Limits(max_len=5, ratio=1)"  # a default is kept as written


def test_equality_is_by_class_and_values():
    assert Range(lo=1, hi=2) == Range(lo=1, hi=2)
    assert Range(lo=1, hi=2) != Range(lo=1, hi=3)
    assert Inner(n=1) != Closed(a=1) and Range(lo=1, hi=1) != {"lo": 1, "hi": 1}
    assert Open.parse({"inner": {"n": 1}, "x": 1}) != Open.parse({"inner": {"n": 1}, "x": 2})  # extras count
    with pytest.raises(TypeError):
        hash(Range(lo=1, hi=2))


class Dated(Record):
    day: datetime.date


def test_a_date_is_a_date_or_its_iso_spelling():
    """Not pydantic strict mode, which takes date objects only: a waiver's ``expires`` is read from text too."""
    assert Dated.parse({"day": "2026-11-01"}).day == datetime.date(2026, 11, 1)
    assert Dated.parse({"day": datetime.date(2026, 1, 2)}).day == datetime.date(2026, 1, 2)
    for bad in ("2026-1-1", "2026-13-01", datetime.datetime(2026, 1, 1), 20261101):
        assert problems(Dated, {"day": bad}) == [(("day",), "date_type")]
