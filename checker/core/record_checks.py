"""One checker per annotation of a record field: (value, loc, problems) -> the value, or BAD.

``checker.core.record`` declares records and walks their fields; this module turns each annotation
(``Optional[int]``, ``list[Literal[1, 100]]``, ``Annotated[str, field(min_length=1)]``, a nested record)
into a small function, compiled once and shared by every field with that annotation. Problems carry
the type codes pydantic's strict mode used, so messages and the lenient retry stay as they were.
"""
from __future__ import annotations

import typing
from typing import Any, Callable

import msgspec

BAD: Any = object()  # a value that did not validate (its problem is already recorded)


class Problem(msgspec.Struct, frozen=True):
    """One validation problem: where (``loc``), what kind (``type``) and a sentence (``msg``)."""

    loc: tuple
    type: str
    msg: str



def is_union(tp: Any) -> bool:
    """``Union[...]``, ``Optional[...]`` or ``X | Y``."""
    origin = typing.get_origin(tp)
    return origin is typing.Union or (origin is not None and origin.__name__ == "UnionType")


def strip_annotated(tp: Any) -> tuple[Any, dict]:
    """(the type, its constraints) of ``Annotated[X, field(...)]`` (any depth); (tp, {}) otherwise."""
    meta: dict = {}
    while typing.get_origin(tp) is typing.Annotated:
        args = typing.get_args(tp)
        tp = args[0]
        for m in args[1:]:
            if hasattr(m, "constraints"):  # a FieldSpec (checker.core.record.field)
                meta.update(m.constraints())
    return tp, meta


_SCALARS = {
    int: ("int_type", "Input should be a valid integer"),
    float: ("float_type", "Input should be a valid number"),
    str: ("string_type", "Input should be a valid string"),
    bool: ("bool_type", "Input should be a valid boolean"),
}


_CHECKERS: dict = {}


def compile_checker(tp: Any, constraints: dict) -> Callable:
    """The checker of one annotation: (value, loc, problems) -> the value (floats as float) or BAD;
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
        if v is BAD or v is None:
            return v
        for test, kind, msg in bounds:
            if not test(v):
                problems.append(Problem(loc, kind if not isinstance(v, str) or kind != "too_short" else
                                        "string_too_short", msg(v)))
                return BAD
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
            return BAD
        return none
    if tp in _SCALARS:
        return _scalar(tp)
    from checker.core.record import Record, validate_into  # compiling runs once both modules are loaded

    if isinstance(tp, type) and issubclass(tp, Record):
        return lambda v, loc, problems: validate_into(tp, v, loc, problems)
    import datetime

    if tp is datetime.date:
        return _date
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if is_union(tp):
        return _union(args)
    if origin is typing.Literal:
        return _literal(args)
    if origin is list:
        return _list(compile_checker(*strip_annotated(args[0])) if args else _compile_type(Any))
    if origin is dict:
        k, vt = args if args else (Any, Any)
        return _dict(compile_checker(*strip_annotated(k)), compile_checker(*strip_annotated(vt)))
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
            return BAD
        return check_float
    if tp is str:
        def check_str(v, loc, problems):
            if isinstance(v, str):
                return v
            problems.append(Problem(loc, kind, msg))
            return BAD
        return check_str

    def check_exact(v, loc, problems):  # int and bool: exactly that type (True is not 1)
        if type(v) is tp:
            return v
        problems.append(Problem(loc, kind, msg))
        return BAD
    return check_exact


def _union(args: tuple) -> Callable:
    nullable = type(None) in args
    kinds = [a for a in args if a is not type(None)]
    order = list(range(len(kinds)))
    if int in kinds and float in kinds:  # an integer stays an integer where the union also takes one
        order.remove(kinds.index(float))
        order.append(kinds.index(float))
    members = [(i, compile_checker(*strip_annotated(kinds[i]))) for i in order]
    if len(members) == 1:  # Optional[X], most fields of the file models: no trial lists
        only = members[0][1]

        def check_optional(v, loc, problems):
            if v is None and nullable:
                return None
            return only(v, loc, problems)
        return check_optional

    def check_union(v, loc, problems):
        if v is None and nullable:
            return None
        first: list = []
        for i, m in members:
            trial: list = []
            out = m(v, loc, trial)
            if out is not BAD:
                return out
            if i == 0:
                first = trial
        problems.extend(first)  # the first declared member's problems speak for the union (float tried last)
        return BAD
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
        return BAD
    return check_literal


def _list(item: Callable) -> Callable:
    def check_list(v, loc, problems):
        if type(v) is not list:
            problems.append(Problem(loc, "list_type", "Input should be a valid list"))
            return BAD
        out, bad = [], False
        for i, x in enumerate(v):
            y = item(x, loc + (i,), problems)
            bad = bad or y is BAD
            out.append(y)
        return BAD if bad else out
    return check_list


def _dict(key: Callable, value: Callable) -> Callable:
    def check_dict(v, loc, problems):
        if type(v) is not dict:
            problems.append(Problem(loc, "dict_type", "Input should be a valid dictionary"))
            return BAD
        out, bad = {}, False
        for k, x in v.items():
            kk = key(k, loc + (k, "[key]"), problems)
            y = value(x, loc + (k,), problems)
            bad = bad or kk is BAD or y is BAD
            if not bad:
                out[kk] = y
        return BAD if bad else out
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
    return BAD
