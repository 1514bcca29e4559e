"""Typed records: classes declared by annotations, validated strictly, every problem collected.

The file models (``checker.load.models``) and the policy models (``rules/<family>/policy.py``) are
records. A record class costs nothing to define (its annotations are read the first time it
validates), so a check does not pay for a validation library at start-up (docs/performance.md).

Types are strict: a string is never a number, ``true`` is never an integer, an integer is accepted
(and stored as a float) where a float is asked. Supported annotations: ``int``, ``float``, ``str``,
``bool``, ``Any``, ``None``, ``Optional``/``Union``, ``Literal``, ``list[X]``, ``dict[K, V]``,
``datetime.date``, nested records, and ``Annotated[X, field(...)]`` for constraints. Each problem is
a ``Problem`` with a location (keys and list indexes), a type code and a message.
"""
from __future__ import annotations

import sys
import typing
from typing import Any, Callable

import msgspec

_MISSING: Any = object()
_BAD: Any = object()  # a value that did not validate (its problem is already recorded)


class Problem(msgspec.Struct, frozen=True):
    """One validation problem: where (``loc``), what kind (``type``) and a sentence (``msg``)."""

    loc: tuple
    type: str
    msg: str


class RecordError(ValueError):
    """``Record.parse`` of data that does not fit: ``problems`` lists each one."""

    def __init__(self, cls: type, problems: list[Problem]):
        self.problems = problems
        lines = [f"{len(problems)} problem(s) validating {cls.__name__}"]
        lines += [f"  {'.'.join(map(str, p.loc)) or '(top level)'}: {p.msg} [{p.type}]" for p in problems]
        super().__init__("\n".join(lines))


class FieldSpec:
    """What ``field(...)`` declares: a default, a key spelled differently (``alias``), constraints, a description."""

    __slots__ = ("default", "factory", "alias", "description", "ge", "le", "gt", "lt", "min_length")

    def __init__(self, default=_MISSING, *, default_factory=None, alias=None, description=None, ge=None, le=None,
                 gt=None, lt=None, min_length=None):
        self.default, self.factory, self.alias, self.description = default, default_factory, alias, description
        self.ge, self.le, self.gt, self.lt, self.min_length = ge, le, gt, lt, min_length

    def constraints(self) -> dict:
        return {k: getattr(self, k) for k in ("ge", "le", "gt", "lt", "min_length") if getattr(self, k) is not None}


def field(default: Any = _MISSING, **kw: Any) -> Any:
    """A field's default and constraints (``ge``, ``le``, ``gt``, ``lt``, ``min_length``), its ``alias`` (the
    key as written in the file) and ``description``; also the metadata of ``Annotated[X, field(ge=0)]``."""
    return FieldSpec(default, **kw)


def model_check(fn: Callable) -> Callable:
    """Mark a method that checks a whole record once its fields are valid: raise ValueError to reject it."""
    fn.__record_check__ = True
    return fn


class Field(msgspec.Struct):
    """A resolved field of a record class."""

    name: str
    key: str  # the key in the data: the alias when there is one
    annotation: Any  # the type, constraints taken out of Annotated
    default: Any
    factory: Any
    constraints: dict
    description: str | None
    check: Callable = None  # (value, loc, problems) -> value or _BAD

    @property
    def required(self) -> bool:
        return self.default is _MISSING and self.factory is None

    def default_value(self) -> Any:
        if self.factory is not None:
            return self.factory()
        d = self.default
        if isinstance(d, (list, dict, set)):
            import copy

            return copy.deepcopy(d)
        return d


class _Spec:
    __slots__ = ("fields", "keys", "extra", "by_name", "checks")


class Record:
    """The base of every record class. ``class M(Record, extra="forbid")`` sets how unknown keys are
    treated (``allow``: kept in ``extras_of``; ``ignore``; ``forbid``: a problem each), inherited by
    subclasses; ``by_name=True`` also accepts a field's own name where it has an alias."""

    __record_extra__ = "allow"
    __record_by_name__ = False

    def __init_subclass__(cls, extra: str | None = None, by_name: bool | None = None, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        if extra is not None:
            if extra not in ("allow", "ignore", "forbid"):
                raise TypeError(f"extra must be allow, ignore or forbid, not {extra!r}")
            cls.__record_extra__ = extra
        if by_name is not None:
            cls.__record_by_name__ = by_name

    def __init__(self, **data: Any) -> None:
        obj, problems = check_record(type(self), data)
        if obj is None:
            raise RecordError(type(self), problems)
        self.__dict__.update(obj.__dict__)

    @classmethod
    def parse(cls, data: Any):
        """Validate ``data`` (a mapping) into an instance; raise RecordError listing every problem."""
        obj, problems = check_record(cls, data)
        if obj is None:
            raise RecordError(cls, problems)
        return obj

    def __eq__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # mutable, compared by value

    def __repr__(self) -> str:
        inner = ", ".join(f"{f}={getattr(self, f, None)!r}" for f in fields_of(type(self)))
        return f"{type(self).__name__}({inner})"


_SPECS: dict = {}


def fields_of(cls: type) -> dict[str, Field]:
    """The fields of a record class by name, in declaration order (base classes first)."""
    return _spec(cls).fields


def extras_of(obj: Record) -> dict:
    """The unknown keys an ``extra="allow"`` record kept, as written (empty for the others)."""
    return obj.__dict__.get("__extras__") or {}


def as_dict(obj: Any) -> Any:
    """A record as plain data (nested records, lists and dicts too), kept unknown keys included."""
    if isinstance(obj, Record):
        out = {name: as_dict(getattr(obj, name)) for name in fields_of(type(obj))}
        out.update((k, as_dict(v)) for k, v in extras_of(obj).items())
        return out
    if isinstance(obj, list):
        return [as_dict(v) for v in obj]
    if isinstance(obj, dict):
        return {k: as_dict(v) for k, v in obj.items()}
    return obj


def _spec(cls: type) -> _Spec:
    spec = _SPECS.get(cls)
    if spec is None:
        spec = _SPECS[cls] = _build_spec(cls)
    return spec


def _build_spec(cls: type) -> _Spec:
    """Read the annotations of ``cls`` and its record bases once, compiling one checker per field."""
    spec = _Spec()
    spec.extra, spec.by_name = cls.__record_extra__, cls.__record_by_name__
    spec.fields, spec.checks = {}, []
    for klass in reversed(cls.__mro__):
        if not (isinstance(klass, type) and issubclass(klass, Record)) or klass is Record:
            continue
        module = sys.modules.get(klass.__module__)
        globalns = vars(module) if module else {}
        localns = vars(klass)
        for name, raw in klass.__dict__.get("__annotations__", {}).items():
            if name.startswith("_"):
                continue
            tp = _resolve(raw, globalns, localns) if isinstance(raw, str) else raw
            if typing.get_origin(tp) is typing.ClassVar:
                continue
            declared = klass.__dict__.get(name, _MISSING)
            fs = declared if isinstance(declared, FieldSpec) else FieldSpec(declared)
            tp, meta = _strip_annotated(tp)
            constraints = {**meta, **fs.constraints()}
            f = Field(name=name, key=fs.alias or name, annotation=tp, default=fs.default, factory=fs.factory,
                      constraints=constraints, description=fs.description)
            f.check = _compile(tp, constraints)
            spec.fields.pop(name, None)
            spec.fields[name] = f
        spec.checks += [v for v in klass.__dict__.values() if getattr(v, "__record_check__", False)]
    spec.keys = {f.key: f for f in spec.fields.values()}
    return spec


_CODE: dict = {}


def _resolve(text: str, globalns: dict, localns) -> Any:
    """The type an annotation string names, in the namespace of its class (each text compiled once)."""
    code = _CODE.get(text)
    if code is None:
        code = _CODE[text] = compile(text, "<annotation>", "eval")
    return eval(code, globalns, localns)  # noqa: S307  (annotations of our own record classes)


def _strip_annotated(tp: Any) -> tuple[Any, dict]:
    meta: dict = {}
    while typing.get_origin(tp) is typing.Annotated:
        args = typing.get_args(tp)
        tp = args[0]
        for m in args[1:]:
            if isinstance(m, FieldSpec):
                meta.update(m.constraints())
    return tp, meta


def check_record(cls: type, data: Any, loc: tuple = ()) -> tuple[Any, list[Problem]]:
    """Validate ``data`` into ``cls``: (instance, []) or (None, every problem)."""
    problems: list[Problem] = []
    obj = _validate(cls, data, loc, problems)
    return (None if obj is _BAD else obj), problems


def _validate(cls: type, data: Any, loc: tuple, problems: list) -> Any:
    if isinstance(data, cls):  # an instance already validated (code building a record from records)
        return data
    if not isinstance(data, dict):
        problems.append(Problem(loc, "model_type", f"Input should be a mapping of {cls.__name__} fields"))
        return _BAD
    spec = _spec(cls)
    start = len(problems)
    values: dict = {}
    read_by_name: set = set()  # the fields read by their own name (by_name=True, the alias absent)
    for f in spec.fields.values():
        if f.key in data:
            key = f.key
        elif spec.by_name and f.name in data:
            key = f.name
            read_by_name.add(key)
        elif f.required:
            problems.append(Problem(loc + (f.key,), "missing", "Field required"))
            continue
        else:
            values[f.name] = f.default_value()
            continue
        v = f.check(data[key], loc + (key,), problems)  # a problem is located at the key as written
        if v is not _BAD:
            values[f.name] = v
    if spec.extra != "ignore":
        # a field's own name beside its alias was not read: one key too many, as in pydantic
        unknown = [k for k in data if k not in spec.keys and k not in read_by_name]
        if unknown and spec.extra == "forbid":
            problems.extend(Problem(loc + (k,), "extra_forbidden", "Extra inputs are not permitted") for k in unknown)
        elif unknown:
            values["__extras__"] = {k: data[k] for k in unknown}
    if len(problems) > start:
        return _BAD
    obj = cls.__new__(cls)
    obj.__dict__.update(values)
    for check in spec.checks:
        try:
            check(obj)
        except (ValueError, AssertionError) as exc:
            problems.append(Problem(loc, "value_error", str(exc)))
            return _BAD
    return obj


# --- one checker per annotation -------------------------------------------------------------------

_SCALARS = {
    int: ("int_type", "Input should be a valid integer"),
    float: ("float_type", "Input should be a valid number"),
    str: ("string_type", "Input should be a valid string"),
    bool: ("bool_type", "Input should be a valid boolean"),
}


_CHECKERS: dict = {}


def _compile(tp: Any, constraints: dict) -> Callable:
    """The checker of one annotation: (value, loc, problems) -> the value (floats as float) or _BAD;
    one per distinct annotation and constraints (``Optional[int]`` is shared by hundreds of fields)."""
    try:
        # typing compares unions regardless of order (Union[int, float] == Union[float, int]); the
        # order matters here (which member's problem is reported), so the text is part of the key
        key = (tp, repr(tp), tuple(sorted(constraints.items())))
        hit = _CHECKERS.get(key)
    except TypeError:  # an unhashable annotation: compiled each time
        return _compile_new(tp, constraints)
    if hit is None:
        hit = _CHECKERS[key] = _compile_new(tp, constraints)
    return hit


def _compile_new(tp: Any, constraints: dict) -> Callable:
    base = _compile_type(tp)
    if not constraints:
        return base
    bounds = _bounds(constraints)

    def bounded(v, loc, problems):
        v = base(v, loc, problems)
        if v is _BAD or v is None:
            return v
        for test, kind, msg in bounds:
            if not test(v):
                problems.append(Problem(loc, kind if not isinstance(v, str) or kind != "too_short" else
                                        "string_too_short", msg(v)))
                return _BAD
        return v

    return bounded


def _bounds(c: dict) -> list:
    out = []
    if "ge" in c:
        out.append((lambda v, b=c["ge"]: v >= b, "greater_than_equal",
                    lambda v, b=c["ge"]: f"Input should be greater than or equal to {b}"))
    if "gt" in c:
        out.append((lambda v, b=c["gt"]: v > b, "greater_than", lambda v, b=c["gt"]: f"Input should be greater than {b}"))
    if "le" in c:
        out.append((lambda v, b=c["le"]: v <= b, "less_than_equal",
                    lambda v, b=c["le"]: f"Input should be less than or equal to {b}"))
    if "lt" in c:
        out.append((lambda v, b=c["lt"]: v < b, "less_than", lambda v, b=c["lt"]: f"Input should be less than {b}"))
    if "min_length" in c:
        n = c["min_length"]
        out.append((lambda v: len(v) >= n, "too_short",
                    lambda v: (f"String should have at least {n} character{'s' if n != 1 else ''}" if isinstance(v, str)
                               else f"List should have at least {n} item{'s' if n != 1 else ''} after validation, "
                                    f"not {len(v)}")))
    return out


def _compile_type(tp: Any) -> Callable:
    if tp is Any or tp is object:
        return lambda v, loc, problems: v
    if tp is None or tp is type(None):
        def none(v, loc, problems):
            if v is None:
                return v
            problems.append(Problem(loc, "none_required", "Input should be None"))
            return _BAD
        return none
    if tp in _SCALARS:
        return _scalar(tp)
    if isinstance(tp, type) and issubclass(tp, Record):
        return lambda v, loc, problems: _validate(tp, v, loc, problems)
    import datetime

    if tp is datetime.date:
        return _date
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Union or (origin is not None and origin.__name__ == "UnionType"):
        return _union(args)
    if origin is typing.Literal:
        return _literal(args)
    if origin is list:
        return _list(_compile(*_strip_annotated(args[0])) if args else _compile_type(Any))
    if origin is dict:
        k, vt = args if args else (Any, Any)
        return _dict(_compile(*_strip_annotated(k)), _compile(*_strip_annotated(vt)))
    raise TypeError(f"unsupported record field type: {tp!r}")


def _scalar(tp: type) -> Callable:
    kind, msg = _SCALARS[tp]
    if tp is float:
        def check_float(v, loc, problems):
            t = type(v)
            if t is float:
                return v
            if t is int:
                try:
                    return float(v)
                except OverflowError:  # an integer beyond the largest float is not a number either
                    pass
            problems.append(Problem(loc, kind, msg))
            return _BAD
        return check_float
    if tp is str:
        def check_str(v, loc, problems):
            if isinstance(v, str):
                return v
            problems.append(Problem(loc, kind, msg))
            return _BAD
        return check_str

    def check_exact(v, loc, problems):  # int and bool: exactly that type (True is not 1)
        if type(v) is tp:
            return v
        problems.append(Problem(loc, kind, msg))
        return _BAD
    return check_exact


def _union(args: tuple) -> Callable:
    nullable = type(None) in args
    kinds = [a for a in args if a is not type(None)]
    order = list(range(len(kinds)))
    if int in kinds and float in kinds:  # an integer stays an integer where the union also takes one
        order.remove(kinds.index(float))
        order.append(kinds.index(float))
    members = [(i, _compile(*_strip_annotated(kinds[i]))) for i in order]

    def check_union(v, loc, problems):
        if v is None and nullable:
            return None
        first: list = []
        for i, m in members:
            trial: list = []
            out = m(v, loc, trial)
            if out is not _BAD:
                return out
            if i == 0:
                first = trial
        problems.extend(first)  # the first declared member's problems speak for the union (float tried last)
        return _BAD
    return check_union


def _literal(choices: tuple) -> Callable:
    allowed = {(type(c), c) for c in choices}
    shown = " or ".join(repr(c) for c in choices) if len(choices) <= 2 else \
        ", ".join(repr(c) for c in choices[:-1]) + f" or {choices[-1]!r}"

    def check_literal(v, loc, problems):
        try:
            if (type(v), v) in allowed:
                return v
        except TypeError:  # an unhashable value is not one of them
            pass
        problems.append(Problem(loc, "literal_error", f"Input should be {shown}"))
        return _BAD
    return check_literal


def _list(item: Callable) -> Callable:
    def check_list(v, loc, problems):
        if type(v) is not list:
            problems.append(Problem(loc, "list_type", "Input should be a valid list"))
            return _BAD
        out, bad = [], False
        for i, x in enumerate(v):
            y = item(x, loc + (i,), problems)
            bad = bad or y is _BAD
            out.append(y)
        return _BAD if bad else out
    return check_list


def _dict(key: Callable, value: Callable) -> Callable:
    def check_dict(v, loc, problems):
        if type(v) is not dict:
            problems.append(Problem(loc, "dict_type", "Input should be a valid dictionary"))
            return _BAD
        out, bad = {}, False
        for k, x in v.items():
            kk = key(k, loc + (k, "[key]"), problems)
            y = value(x, loc + (k,), problems)
            bad = bad or kk is _BAD or y is _BAD
            if not bad:
                out[kk] = y
        return _BAD if bad else out
    return check_dict


def _date(v, loc, problems):
    import datetime

    if type(v) is datetime.date:
        return v
    if isinstance(v, str) and len(v) == 10:
        try:
            return datetime.date.fromisoformat(v)
        except ValueError:
            pass
    problems.append(Problem(loc, "date_type", "Input should be a valid date (YYYY-MM-DD)"))
    return _BAD
