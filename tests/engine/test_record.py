"""checker.core.record: pydantic strict mode is the test oracle (generated shapes and data).

The examples of each feature are in test_record_examples.py.

The records replaced pydantic models declared ``ConfigDict(strict=True, extra=...)``; for the types the
project uses they must accept and refuse the same data, keep the same values (an int in a float field
becomes a float), report the same locations with the same type codes, and write the same JSON Schema.
pydantic is a test dependency only: the ``pydantic_oracle`` fixture (tests/conftest.py) skips the oracle tests
loudly without it and fails them in CI, as the conformance suite does without the official checker.
"""
from __future__ import annotations

import types
from typing import Annotated, Any, Literal, Optional, Union

from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from checker.cli.schemagen import dump
from checker.core.record import Record, check_record, extras_of, field, fields_of
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
    # other keys, text or not (a YAML key may be 5, 1.5, .inf, true or null: "Keys should be strings")
    out.update(draw(st.dictionaries(st.sampled_from(["x", "k1", "x", "k1", 5, 1.5, float("inf"), True, None]), JUNK,
                                    max_size=2)))
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


def _pyd_step(x):
    """A location step as pydantic writes it: a key that is not text (a record keeps it as read, so its
    position can be found) becomes its text, a bool an int; an int beyond int64 its text."""
    if isinstance(x, bool):
        return int(x)
    if type(x) is int:
        return x if -2**63 <= x < 2**63 else str(x)
    return x if isinstance(x, str) else str(x)


def _compare(pd, rec, model, names: list, raw: dict) -> tuple[str, str | None]:
    """Validate ``raw`` both ways: ("accepted" or "refused", None) when they agree, else a mismatch."""
    obj, problems = check_record(rec, raw)
    try:
        expected, errors = model.model_validate(raw), {}
    except pd.ValidationError as exc:
        expected, errors = None, _pyd_errors(exc, set(names))
    got: dict = {}
    for p in problems:
        got.setdefault(tuple(_pyd_step(x) for x in p.loc), p.type)
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
