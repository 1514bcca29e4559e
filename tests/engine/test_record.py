"""checker.core.record: pydantic strict mode is the test oracle (generated shapes and data), plus examples.

The records replaced pydantic models declared ``ConfigDict(strict=True, extra=...)``; for the types the
project uses they must accept and refuse the same data, keep the same values (an int in a float field
becomes a float), report the same locations with the same type codes, and write the same JSON Schema.
pydantic is a test dependency only: the ``pydantic_oracle`` fixture (tests/conftest.py) skips the oracle tests
loudly without it and fails them in CI, as the conformance suite does without the official checker.
"""
from __future__ import annotations

import datetime
import types
from typing import Annotated, Any, Literal, Optional, Union

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from checker.cli.schemagen import dump
from checker.core.record import (Problem, Record, RecordError, as_dict, check_record, extras_of, field,
                                 fields_of, model_check)
from checker.core.record_schema import record_schema

# --- generated shapes: a node is (kind, sub, constraints); sub is a node, a Shape or None --------------

FIXED = {"int": int, "float": float, "str": str, "bool": bool, "any": Any, "str|int": Union[str, int],
         "bool|int": Union[bool, int], "int|float": Union[int, float], "float|int": Union[float, int],
         "lit1": Literal[1, 100], "lita": Literal["a", "b"]}
NO = object()  # no default: a required field


class Shape:
    """A record's shape: fields [(name, node, default or NO, alias, hoist constraints to field(), description)]."""

    def __init__(self, fields, extra, by_name, doc):
        self.fields, self.extra, self.by_name, self.doc = fields, extra, by_name, doc

    def __repr__(self):
        return f"Shape({self.fields!r}, {self.extra!r}, by_name={self.by_name}, doc={self.doc!r})"


BOUNDS = st.fixed_dictionaries({}, optional={"ge": st.integers(-2, 5), "le": st.integers(50, 150)})
LENGTHS = st.fixed_dictionaries({}, optional={"min_length": st.integers(0, 2)})
LEAVES = st.one_of(st.sampled_from(sorted(FIXED)).map(lambda k: (k, None, {})),
                   st.tuples(st.sampled_from(["int", "float"]), st.none(), BOUNDS),
                   st.tuples(st.just("str"), st.none(), LENGTHS))


def nodes(depth: int):
    if depth == 0:
        return LEAVES
    sub = nodes(depth - 1)
    return st.one_of(LEAVES, sub.map(lambda n: ("opt", n, {})), st.tuples(st.just("list"), sub, LENGTHS),
                     sub.map(lambda n: ("dict", n, {})), shapes(depth - 1).map(lambda s: ("rec", s, {})),
                     shapes(depth - 1).map(lambda s: ("rec|int", s, {})))


def _has_rec(node) -> bool:
    return node[0].startswith("rec") or (isinstance(node[1], tuple) and _has_rec(node[1]))


@st.composite
def shapes(draw, depth: int = 2):
    fields = []
    for i in range(draw(st.integers(1, 4))):
        name = f"f_{i}" if i % 2 else f"f{i}"
        node = draw(nodes(depth))
        default = NO
        if draw(st.booleans()):
            default = None if node[0] == "opt" and draw(st.booleans()) else \
                NO if _has_rec(node) else draw(valid(node, keys=["k1", "k2"]))
        alias = draw(st.sampled_from([None, None, f"{name}-key"]))
        fields.append((name, node, default, alias, draw(st.booleans()), draw(st.sampled_from([None, "said"]))))
    return Shape(fields, draw(st.sampled_from(["allow", "forbid", "ignore"])), draw(st.booleans()),
                 draw(st.sampled_from([None, "A record.\n\n    Its second paragraph."])))


def _hoist(node):
    """The node's constraints taken out, to be declared by field(...) rather than Annotated."""
    kind, sub, c = node
    if kind == "opt" and sub[2]:
        return ("opt", (sub[0], sub[1], {}), {}), sub[2]
    return (kind, sub, {}), c


def _ann(node, pd, names: list):
    """(record annotation, pydantic annotation) of a node."""
    kind, sub, c = node
    if kind in FIXED:
        r = p = FIXED[kind]
    elif kind in ("rec", "rec|int"):
        r, p = build(sub, pd, names)
        if kind == "rec|int":
            r, p = Union[r, int], Union[p, int]
    else:
        wrap = {"opt": Optional, "list": list}.get(kind)
        r, p = _ann(sub, pd, names)
        r, p = (wrap[r], wrap[p]) if wrap else (dict[str, r], dict[str, p])
    if c:
        r, p = Annotated[r, field(**c)], Annotated[p, pd.Field(**c)]
    return r, p


def build(shape: Shape, pd, names: list):
    """The record class and the pydantic model of a shape (class names R0, R1, ... unique per example)."""
    name = f"R{len(names)}"
    names.append(name)
    ns: dict = {"__annotations__": {}, "__doc__": shape.doc}
    model_fields = {}
    for fname, node, default, alias, hoist, desc in shape.fields:
        node, kw = _hoist(node) if hoist else (node, {})
        kw.update({k: v for k, v in (("alias", alias), ("description", desc)) if v is not None})
        ns["__annotations__"][fname], ann = _ann(node, pd, names)
        ns[fname] = field(**kw) if default is NO else field(default, **kw)
        model_fields[fname] = (ann, pd.Field(**kw) if default is NO else pd.Field(default, **kw))
    rec = types.new_class(name, (Record,), {"extra": shape.extra, "by_name": shape.by_name}, lambda n: n.update(ns))
    config = pd.ConfigDict(strict=True, extra=shape.extra, populate_by_name=shape.by_name)
    return rec, pd.create_model(name, __config__=config, __doc__=shape.doc, **model_fields)


# --- generated data: values of the node's type, and of every other kind ----------------------------

#: a value of every kind (10**400 is beyond the largest float)
OTHERS = [None, True, False, 0, 7, -1, 10**400, 1.0, 2.5, "", "a", "7", [], [1, "a"], {}, {"k1": 1}]
JUNK = st.sampled_from(OTHERS)
INTS = st.one_of(st.integers(-3, 120), st.just(2**70))
FLOATS = st.floats(-1e3, 1e3, allow_nan=False)


def valid(node, keys=("k1", "k2", 1)):
    """Values of the node's type (mostly), mappings keyed by ``keys`` (strings only for a default: JSON)."""
    kind, sub, c = node
    simple = {"int": INTS, "float": FLOATS | INTS, "str": st.text("ab", max_size=3), "bool": st.booleans(),
              "any": JUNK, "str|int": st.text("ab", max_size=2) | INTS, "bool|int": st.booleans() | INTS,
              "int|float": INTS | FLOATS, "float|int": FLOATS | INTS, "lit1": st.sampled_from([1, 100, 2]),
              "lita": st.sampled_from(["a", "b", "c"])}
    if kind in simple:
        return simple[kind]
    if kind == "opt":
        return st.none() | data_for(sub, keys)
    if kind == "list":
        return st.lists(data_for(sub, keys), max_size=3)
    if kind == "dict":
        return st.dictionaries(st.sampled_from(keys), data_for(sub, keys), max_size=2)
    return record_data(sub) if kind == "rec" else record_data(sub) | INTS


def data_for(node, keys=("k1", "k2", 1)):
    v = valid(node, keys)
    return st.one_of(v, v, v, JUNK)  # a value of another kind one time in four, at every level


@st.composite
def record_data(draw, shape: Shape):
    out = {}
    for fname, node, _default, alias, _hoist_, _desc in shape.fields:
        key = alias or fname
        keys = draw(st.sampled_from([[key], [key], [key], [], [fname], [key, fname]]))
        for k in dict.fromkeys(keys):
            out[k] = draw(data_for(node))
    out.update(draw(st.dictionaries(st.sampled_from(["x", "k1"]), JUNK, max_size=2)))
    return out


def _literal_lookalike(node, v) -> bool:
    """Where Literal[1, 100] is given a bool or float equal to a member (True, 1.0, 100.0), or an int
    outside int64. Deliberate differences: pydantic's literal validator accepts the first even in strict
    mode (storing the member), and refuses the second as ``int_parsing_size`` (its lookup is by int64); a
    record's Literal compares type and value, as its int does (``true`` is not ``1``), and says
    ``literal_error`` for every other value."""
    kind, sub, _c = node
    if kind == "lit1":
        return (type(v) in (bool, float) and v in (1, 100)) or (type(v) is int and not -2**63 <= v < 2**63)
    if kind in ("opt", "list", "dict"):
        items = [v] if kind == "opt" else v if isinstance(v, list) and kind == "list" else \
            list(v.values()) if isinstance(v, dict) and kind == "dict" else []
        return any(_literal_lookalike(sub, x) for x in items)
    if kind in ("rec", "rec|int") and isinstance(v, dict):
        return _record_lookalike(sub, v)
    return False


def _record_lookalike(shape: Shape, data: dict) -> bool:
    for fname, node, _default, alias, _hoist_, _desc in shape.fields:
        key = alias or fname
        key = key if key in data else fname if shape.by_name and fname in data else None
        if key is not None and _literal_lookalike(node, data[key]):
            return True
    return False


# --- comparison ------------------------------------------------------------------------------------

#: pydantic's union tags in locations (checker.load.models stripped them before the switch)
TAGS = {"int", "float", "str", "bool", "list", "dict", "none", "nullable", "lax-or-strict", "json-or-python",
        "tagged-union"}


def _tag(part, names) -> bool:
    return isinstance(part, str) and (part.startswith(("function-", "union[", "literal[")) or part in TAGS
                                      or part in names)


def _pyd_errors(exc, names) -> dict:
    """pydantic's errors as {location without tags: first type}. Deliberate difference: a failed union is
    reported by a record with its first declared member's problems alone, where pydantic lists every
    member's (which differ in location when a member is a record: Union[R, int] given {} is missing
    keys inside R and not an int). So an error tagged with a later member than the first tag pydantic
    reports under the same location (its members come in declared order) is left out."""
    out: dict = {}
    first_tag: dict = {}
    for err in exc.errors():
        loc = err["loc"]
        if any(_tag(p, names) and first_tag.setdefault(loc[:i], p) != p for i, p in enumerate(loc)
               if not isinstance(p, str) or not p.startswith("function-")):
            continue
        out.setdefault(tuple(p for p in loc if not _tag(p, names)), err["type"])
    return out


def _canon(v, pd) -> Any:
    """A value with its type at every level, records and models alike (class name, fields, extras)."""
    if isinstance(v, Record):
        return (type(v).__name__, {n: _canon(getattr(v, n), pd) for n in fields_of(type(v))}, _canon(extras_of(v), pd))
    if isinstance(v, pd.BaseModel):
        return (type(v).__name__, {n: _canon(getattr(v, n), pd) for n in type(v).model_fields},
                _canon(v.model_extra or {}, pd))
    if isinstance(v, list):
        return [_canon(x, pd) for x in v]
    if isinstance(v, dict):
        return {(type(k).__name__, k): _canon(x, pd) for k, x in v.items()}
    return (type(v).__name__, v)


def _compare(pd, rec, model, names: list, raw: dict) -> tuple[str, str | None]:
    """Validate ``raw`` both ways: ("accepted" or "refused", None) when they agree, else a mismatch."""
    obj, problems = check_record(rec, raw)
    try:
        expected, errors = model.model_validate(raw), {}
    except pd.ValidationError as exc:
        expected, errors = None, _pyd_errors(exc, set(names))
    got: dict = {}
    for p in problems:
        got.setdefault(p.loc, p.type)
    if expected is not None:
        if obj is None:
            return "accepted", f"{raw!r}: pydantic accepts, the record says {got}"
        if _canon(obj, pd) != _canon(expected, pd):
            return "accepted", f"{raw!r}: record {_canon(obj, pd)} != pydantic {_canon(expected, pd)}"
        return "accepted", None
    if obj is not None or got != errors:
        return "refused", f"{raw!r}: pydantic refuses with {errors}, the record says {got or obj}"
    return "refused", None


ORACLE = settings(max_examples=300, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@ORACLE
@given(shape=shapes(), data=st.data())
def test_records_validate_as_pydantic_strict_mode_does(pydantic_oracle, shape, data):
    pd = pydantic_oracle
    names: list = []
    rec, model = build(shape, pd, names)
    raw = data.draw(record_data(shape), label="data")
    assume(not _record_lookalike(shape, raw))
    verdict, mismatch = _compare(pd, rec, model, names, raw)
    event(verdict)
    assert mismatch is None, mismatch


SAMPLES = OTHERS + [100, 150, 2**70, -0.0, float("inf"), "b", "ab", [1, 100], {"k1": "a"}]


def test_every_leaf_kind_against_every_sample_value(pydantic_oracle):
    """Exhaustive where the generated shapes only sample: each leaf kind (constrained too), bare and
    inside Optional, list and dict, given each sample value."""
    pd = pydantic_oracle
    leaves = [(k, None, {}) for k in sorted(FIXED)] + [
        ("int", None, {"ge": 1, "le": 99}), ("float", None, {"gt": 0, "lt": 100}), ("str", None, {"min_length": 1})]
    mismatches = []
    for leaf in leaves:
        for node in (leaf, ("opt", leaf, {}), ("list", leaf, {"min_length": 1}), ("dict", leaf, {})):
            shape, names = Shape([("f0", node, NO, None, False, None)], "forbid", False, None), []
            rec, model = build(shape, pd, names)
            for v in SAMPLES:
                raw = {"f0": [v] if node[0] == "list" else {"k1": v} if node[0] == "dict" else v}
                if not _record_lookalike(shape, raw):
                    mismatches.append(_compare(pd, rec, model, names, raw)[1])
    assert not [m for m in mismatches if m], "\n".join(m for m in mismatches if m)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=shapes())
def test_record_schema_is_pydantics_json_schema(pydantic_oracle, shape):
    pd = pydantic_oracle
    rec, model = build(shape, pd, [])
    assert dump(record_schema(rec)) == dump(model.model_json_schema())


# --- examples --------------------------------------------------------------------------------------

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
