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

from checker.core.record_checks import BAD, Problem, compile_checker, strip_annotated

_MISSING: Any = object()


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
    check: Callable = None  # (value, loc, problems) -> value or BAD

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
            tp, meta = strip_annotated(tp)
            constraints = {**meta, **fs.constraints()}
            f = Field(name=name, key=fs.alias or name, annotation=tp, default=fs.default, factory=fs.factory,
                      constraints=constraints, description=fs.description)
            f.check = compile_checker(tp, constraints)
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


def check_record(cls: type, data: Any, loc: tuple = ()) -> tuple[Any, list[Problem]]:
    """Validate ``data`` into ``cls``: (instance, []) or (None, every problem)."""
    problems: list[Problem] = []
    obj = validate_into(cls, data, loc, problems)
    return (None if obj is BAD else obj), problems


def validate_into(cls: type, data: Any, loc: tuple, problems: list) -> Any:
    """``data`` validated into ``cls`` at ``loc``, its problems appended; BAD when there are any."""
    if isinstance(data, cls):  # an instance already validated (code building a record from records)
        return data
    if not isinstance(data, dict):
        problems.append(Problem(loc, "model_type", f"Input should be a mapping of {cls.__name__} fields"))
        return BAD
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
        if v is not BAD:
            values[f.name] = v
    if spec.extra != "ignore":
        # a field's own name beside its alias was not read: one key too many, as in pydantic
        unknown = [k for k in data if k not in spec.keys and k not in read_by_name]
        if unknown and any(type(k) is not str for k in unknown):  # YAML `5:` or `.inf:`, as pydantic says
            problems.extend(Problem(loc + (k,), "invalid_key", "Keys should be strings") for k in unknown
                            if type(k) is not str)
            unknown = [k for k in unknown if type(k) is str]
        if unknown and spec.extra == "forbid":
            problems.extend(Problem(loc + (k,), "extra_forbidden", "Extra inputs are not permitted") for k in unknown)
        elif unknown:
            values["__extras__"] = {k: data[k] for k in unknown}
    if len(problems) > start:
        return BAD
    obj = cls.__new__(cls)
    obj.__dict__.update(values)
    for check in spec.checks:
        try:
            check(obj)
        except (ValueError, AssertionError) as exc:
            problems.append(Problem(loc, "value_error", str(exc)))
            return BAD
    return obj
