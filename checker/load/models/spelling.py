"""Unambiguous non-plain spellings of a value, read as the value they spell (and noted).

A count written ``66840.0``, a ``duration_ns`` written ``1.3e12`` or a YAML 1.1 boolean (``yes``,
``no``, ``on``, ``off``: the tool that gates submission reads YAML with PyYAML, YAML 1.1) mean one
value only; rejecting them would reject packages the official tool accepts. ``normalise`` walks a
loaded file against its typed model and rewrites, in place, each value whose field takes an
integer (a float with an integral value, exactly representable: at most 2^53) or a boolean (a
YAML 1.1 boolean word written unquoted, in YAML files only; a quoted 'yes' is a string in YAML 1.1
too, and JSON booleans are explicit). Each rewrite is recorded
in ``lf.spellings`` (path, what was written, the value read) for the ``value-spelling`` warning,
which suggests the plain form. Anything else stays as written and is reported as a type error.
"""
from __future__ import annotations

import importlib
import math
import re
import typing
from typing import Any

import msgspec
from pydantic import BaseModel

from checker.core.models import keys_of
from checker.core.spellings import BOOL_WORDS as YAML11_BOOLS  # the one table (checker.core.spellings)
from checker.core.spellings import bool_words

MAX_EXACT_INT = 2 ** 53

#: nested blocks validated by their own model
NESTED = {"point_yaml": {("model_equivalence",): ("checker.load.models.model_equivalence", "ModelEquivalence")}}


class Spelling(msgspec.Struct, frozen=True):
    path: tuple
    written: Any  # the value as written (a float, a string), or None for a file-level note
    value: Any  # the value read
    why: str  # "integral float", "YAML 1.1 boolean", "UTF-8 byte-order mark"


def _kinds(annotation) -> frozenset[str]:
    """The scalar kinds an annotation accepts; asked once per value of every file walked: memoised."""
    hit = _KINDS.get(id(annotation))
    if hit is None or hit[0] is not annotation:  # keyed by identity (typing's __hash__ is slow); the
        hit = _KINDS[id(annotation)] = (annotation, frozenset(_kinds_of(annotation)))  # entry keeps it alive
    return hit[1]


_KINDS: dict = {}


def _kinds_of(annotation) -> set[str]:
    out: set[str] = set()
    stack = [annotation]
    while stack:
        a = stack.pop()
        origin = typing.get_origin(a)
        if origin is typing.Union or (origin is not None and origin.__name__ == "UnionType"):
            stack.extend(typing.get_args(a))
        elif origin is typing.Annotated:
            stack.append(typing.get_args(a)[0])
        elif a is bool:
            out.add("bool")
        elif a is int:
            out.add("int")
        elif a in (float, str):
            out.add(a.__name__)
        elif a is Any:
            out.add("any")
        elif origin is not None or (isinstance(a, type) and issubclass(a, BaseModel)):
            out.add("container")
    return out


def _submodel(annotation):
    global _submodel
    from checker.load.models.keys import _submodel  # memoised there; imported here on first use

    return _submodel(annotation)


def plain_value(kinds: set[str], v: Any, yaml: bool, fractional: bool = False) -> tuple[Any, str | None]:
    """(value read, why) for a non-plain but unambiguous spelling of a field of ``kinds``; (v, None) otherwise.

    ``fractional``: the field is an integer here but a float in the official schema (``duration_ns``), so
    a finite non-integral float is read as its nearest integer instead of being a type error."""
    if "any" in kinds:
        return v, None
    if type(v) is float and "int" in kinds and "float" not in kinds and math.isfinite(v) and abs(v) <= MAX_EXACT_INT:
        if v.is_integer():
            return int(v), "integral float"
        if fractional:
            return round(v), FRACTIONAL
    if yaml and isinstance(v, str) and "bool" in kinds and "str" not in kinds and v in YAML11_BOOLS:
        return YAML11_BOOLS[v], "YAML 1.1 boolean"
    if isinstance(v, str) and "str" not in kinds:
        for kind, expected in (("int", "int_type"), ("float", "float_type"), ("bool", "bool_type")):
            if kind in kinds:
                got = quoted_value(v, expected)
                if got is not None:
                    return got[0], QUOTED
    return v, None


#: why a value was read from a string (a quoted number or boolean, or one under the non-specific tag ``!``)
QUOTED = "quoted number"
TAGGED = "non-specific tag `!` (a string)"
#: why a non-integral float was read as its nearest integer (fractional nanoseconds; see ``plain_value``)
FRACTIONAL = "fractional nanoseconds"


def _walk(cls, data: Any, path: tuple, lf, out: list) -> None:
    if not isinstance(data, dict):
        return
    plan = _plan(cls)
    yaml = not lf.is_json
    fractional = getattr(cls, "__fractional_ints__", ())
    for key in list(data):
        step = plan.get(str(key))
        if step is None:
            continue
        kinds, respell, sub, is_list = step
        v = data[key]
        if respell and type(v) in (float, str):
            new, why = plain_value(kinds, v, yaml, fractional=str(key) in fractional)
            if why == "YAML 1.1 boolean" and (path + (key,)) in lf.quoted:
                why = None  # quoted: a string in YAML 1.1 as well
            elif why == QUOTED and yaml and _tagged(lf, path + (key,)):
                why = TAGGED
            if why is not None:
                data[key] = new
                out.append(Spelling(path + (key,), v, new, why))
                continue
        if sub is None:
            continue
        if is_list and isinstance(v, list):
            for i, item in enumerate(v):
                _walk(sub, item, path + (key, i), lf, out)
        elif isinstance(v, dict):
            _walk(sub, v, path + (key,), lf, out)


_PLANS: dict = {}


def _plan(cls) -> dict:
    """Per key of a record class: (kinds, whether a value may need reading as another spelling, nested
    record, is a list of it); built once per class, since the walk asks it for every value. A class
    naming ``__respelled__`` is walked at those keys only (config.yaml: the keys read loosely since
    before the file was validated)."""
    plan = _PLANS.get(cls)
    if plan is None:
        plan = {}
        only = getattr(cls, "__respelled__", None)
        for key, f in keys_of(cls).items():
            if only is not None and key not in only:
                continue
            kinds = _kinds(f.annotation)
            respell = "any" not in kinds and (("int" in kinds and "float" not in kinds)
                                              or ("bool" in kinds and "str" not in kinds)
                                              or ("float" in kinds and "str" not in kinds))
            plan[key] = (kinds, respell, *_submodel(f.annotation))
        _PLANS[cls] = plan
    return plan


def _tagged(lf, path: tuple) -> bool:
    """True when the YAML value at ``path`` is written under the non-specific tag ``!`` (``concurrency: ! 8``)."""
    if lf is None or lf.text is None:
        return False
    line, col = lf.position(path)
    lines = lf.text.splitlines()
    if not line or not col or line > len(lines) or col > len(lines[line - 1]):
        return False
    return lines[line - 1][col - 1] == "!"


def _model(spec):
    mod, name = spec
    return getattr(importlib.import_module(mod), name)


_ACCURACY_COUNTS: list = []  # the entry model's integer fields, found once


def _accuracy(lf) -> None:
    """Accuracy entries (either shape, ``checker.load.models.accuracy``): a count written ``13368.0`` is
    13368, a score or a metric written as a quoted number (``"45.12"``) is that number. The entries sit
    in a list or under dataset keys, which the model-driven walk does not follow, so they are found here
    and each value is read with ``plain_value`` against its field's kinds in the entry model."""
    from checker.load.models.accuracy import TOP_LEVEL_META, AccuracyScore, score_items

    data = lf.data
    if "accuracy_scores" in data:
        entries = [(("accuracy_scores", k), e) for k, e in score_items(data["accuracy_scores"])]
    else:
        entries = [((k,), e) for k, e in data.items() if k not in TOP_LEVEL_META]
    counts = _ACCURACY_COUNTS or _ACCURACY_COUNTS.extend(
        k for k, (kinds, respell, _s, _l) in _plan(AccuracyScore).items() if respell and kinds == {"int"}) or _ACCURACY_COUNTS
    for path, e in entries:
        if not isinstance(e, dict):
            continue
        for key in counts:
            if key in e:
                new, why = plain_value({"int"}, e[key], False)
                if why is not None:
                    lf.spellings.append(Spelling(path + (key,), e[key], new, why))
                    e[key] = new
        score = e.get("score")
        values = [(("score",), score, e, "score")] if isinstance(score, str) else \
            [(("score", k), v, score, k) for k, v in score.items()] if isinstance(score, dict) else []
        for sub, v, holder, key in values:
            new, why = plain_value({"float"}, v, False)
            if why is not None:
                lf.spellings.append(Spelling(path + sub, v, new, why))
                holder[key] = new


def normalise(lf, model_cls=None) -> None:
    """Rewrite ``lf.data`` in place against ``model_cls`` and note each rewrite (accuracy entries are found
    by shape; without a model nothing else is read)."""
    if not lf.ok or not isinstance(lf.data, dict):
        return
    if lf.kind in ("accuracy", "accuracy_legacy"):
        _accuracy(lf)
        return
    if model_cls is None:
        return
    _walk(model_cls, lf.data, (), lf, lf.spellings)
    for prefix, spec in NESTED.get(lf.kind, {}).items():
        block = lf.get(*prefix)
        if isinstance(block, dict):
            _walk(_model(spec), block, prefix, lf, lf.spellings)


def written_text(lf, s: Spelling) -> str:
    """The value as the file spells it (``1.3e12``, not ``1300000000000.0``), from the retained text."""
    fallback = repr(s.written) if isinstance(s.written, float) else str(s.written)
    if lf is None or lf.text is None:
        return fallback
    line, col = lf.position(s.path)
    lines = lf.text.splitlines()
    if not line or not col or line > len(lines):
        return fallback
    token = []
    for ch in lines[line - 1][col - 1:col + 63]:
        if ch in ",}] \t#":
            break
        token.append(ch)
    text = "".join(token).strip("'\"")
    try:
        same = float(text) == s.written if isinstance(s.written, float) else text == s.written
    except ValueError:
        same = False
    return text if same else fallback


def plain_text(s: Spelling) -> str:
    """The plain form of the value a spelling was read as (``64``, ``true``)."""
    return "true" if s.value is True else "false" if s.value is False else str(s.value)


def spelt_text(s: Spelling, lf=None) -> str:
    """The value as written, with the quotes or tag that made it non-plain (``"64"``, ``64.0``, ``! 64``)."""
    return f'"{s.written}"' if s.why == QUOTED else f"! {s.written}" if s.why == TAGGED else written_text(lf, s)


def describe(s: Spelling, lf=None, editable: bool = True) -> str:
    """One spelling in words; ``editable`` False for a file the client wrote (advice never to edit it)."""
    from checker.load.models.lenient import dotted

    if s.why == "UTF-8 byte-order mark":
        return "a UTF-8 byte-order mark at the start of the file (read as if absent)"
    plain = plain_text(s)
    if s.why == FRACTIONAL:
        return (f"`{dotted(s.path)}: {written_text(lf, s)}` read as {plain} ({s.why}: the official PointSummary "
                "reads a float; nothing to change)")
    if not editable:
        return f"`{dotted(s.path)}: {spelt_text(s, lf)}` read as {plain} ({s.why}, as the client wrote it)"
    return f"`{dotted(s.path)}: {spelt_text(s, lf)}` read as {plain} ({s.why}; write `{plain}`)"


def spelling_edits(lf) -> list:
    """Each noted spelling of a hand-written file rewritten in its plain form, as Edits (``checker.core.fixes``):
    the value the check already reads, so the file then says exactly what was read. Empty for the files the
    client wrote (they are the record of what ran) and when any spelling has no plain form to write."""
    from checker.core.fixes import Edit, fixable_file, yaml_token

    if not fixable_file(lf) or not lf.spellings:
        return []
    out = []
    for s in lf.spellings:
        if s.written is None:
            out.append(Edit(lf, (), "bom"))
            continue
        if s.why in (FRACTIONAL, TAGGED):  # no certain plain token: the value read is not what is written,
            continue                       # or the tag's span is not the scalar's
        try:
            token = yaml_token(s.value)
        except TypeError:
            return []
        out.append(Edit(lf, s.path, "value", token, old=s.written, value=s.value))
    return out


#: a quoted scalar that can only mean a number or a boolean: what a field of that type then reads
_INT_TEXT = re.compile(r"^[-+]?(0|[1-9][0-9]*)$")
_FLOAT_TEXT = re.compile(r"^[-+]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$")
_BOOL_TEXT = bool_words("true", "false")  # a quoted "true" in a boolean field: YAML 1.2 / JSON words


def quoted_value(text: Any, expected: str) -> tuple[Any, str] | None:
    """(the value, its plain token) a string in a field of type ``expected`` (``int_type``, ``float_type``,
    ``bool_type``: the validation error's type) can only mean, or None."""
    if not isinstance(text, str) or text != text.strip() or len(text) > 64:
        return None
    if expected == "int_type" and _INT_TEXT.match(text):
        return int(text), str(int(text))
    if expected == "int_type" and _FLOAT_TEXT.match(text):
        v = float(text)
        if math.isfinite(v) and v.is_integer() and abs(v) <= MAX_EXACT_INT:
            return int(v), str(int(v))
    if expected == "float_type" and _FLOAT_TEXT.match(text):
        v = float(text)
        if math.isfinite(v):
            return v, repr(v)
    if expected == "bool_type" and text in _BOOL_TEXT:
        return _BOOL_TEXT[text], "true" if _BOOL_TEXT[text] else "false"
    return None


def quoted_edits(lf) -> list:
    """The type errors of a hand-written file that are a number or boolean written as a string (``"8"``,
    ``"true"``), as Edits writing the plain token; the field then holds the value the string spells."""
    from checker.core.fixes import Edit, fixable_file

    if not fixable_file(lf):
        return []
    out = []
    for p in lf.field_errors:
        got = quoted_value(p.observed, getattr(p, "type", ""))
        if got is not None and p.path:
            out.append(Edit(lf, tuple(p.path), "value", got[1], old=p.observed, value=got[0]))
    return out


def quoted_fix(edits, problems: int) -> str:
    """The fix text of quoted numbers and booleans written plain (what ``check --fix`` applies)."""
    from checker.load.models.lenient import dotted

    text = "Write " + ", ".join(f"`{dotted(e.path)}: {e.new}`" for e in edits) + " (unquoted)"
    return text + ("." if len(edits) == problems else "; correct the other fields as the message says.")
