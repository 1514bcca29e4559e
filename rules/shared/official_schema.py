"""The Week-0 check's file schemas as pydantic models built from week0_schemas.yaml, and what they say.

``problems(table, kind, data)`` validates one parsed file the way the official checker does (pydantic,
lax mode: the same library, so "8" and 8.0 pass for an int, 0/1 for a bool, and a number never for a
string) and returns each problem as (rule id, data path, what the file holds and what the check wants,
fix). Pure: the models are built once per table and kept.
"""
from __future__ import annotations

import re
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import (BaseModel, BeforeValidator, AfterValidator, ConfigDict, Field, StrictFloat, ValidationError,
                      create_model, model_validator)
from pydantic import RootModel

from rules.shared import official_checks
from rules.shared.official_checks import OfficialProblem, dotted, spell
from rules.shared.strict import StrictModel


class FileSchema(StrictModel):
    model: str = Field(description="the model the whole document is validated as")
    rule: str = Field(description="the official rule id of the file's schema problems")


class SchemaPolicy(StrictModel):
    """The Week-0 check's file schemas (rules/policy/<edition>/week0_schemas.yaml)."""

    schema_version: int = Field(description="version of this file's layout")
    tool: str = Field(description="the official tool and version whose schemas these are")
    files: dict[str, FileSchema] = Field(description="file kind -> its model and rule id")
    types: dict[str, dict[str, Any]] = Field(description="named constrained types")
    params: dict[str, Any] = Field(description="parameters of the named checks")
    models: dict[str, dict[str, Any]] = Field(description="model name -> extra, fields, before/after checks, root")


_SCALARS = {"int": int, "float": float, "bool": bool, "str": str, "any": Any, "strict_float": StrictFloat,
            "null": type(None)}
_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_.\-]*|\[|\]|\||\?|,)")
_WORDS = {"int": "a whole number", "float": "a number", "bool": "true or false", "str": "text (a quoted string)",
          "strict_float": "a number (not text)", "any": "any value", "null": "null"}


def tokens(spec: str) -> list[str]:
    out, pos = [], 0
    while pos < len(spec.rstrip()):
        m = _TOKEN.match(spec, pos)
        if not m:
            raise ValueError(f"bad type spec {spec!r} at {pos}")
        out.append(m.group(1))
        pos = m.end()
    return out


def parse(spec: str):
    """A type string -> a small tree: ('name', n) | ('list', t) | ('dict', t) | ('literal', words) | ('union', ts)."""
    toks = tokens(spec)

    def union(i):
        alts, i = atom(i)
        alts = [alts]
        while i < len(toks) and toks[i] == "|":
            t, i = atom(i + 1)
            alts.append(t)
        return (alts[0] if len(alts) == 1 else ("union", alts)), i

    def atom(i):
        name = toks[i]
        if name in ("list", "dict") and toks[i + 1] == "[":
            inner, j = union(i + 2)
            t = (name, inner)
            i = j + 1
        elif name == "literal" and toks[i + 1] == "[":
            words, j = [], i + 2
            while toks[j] != "]":
                if toks[j] != ",":
                    words.append(toks[j])
                j += 1
            t, i = ("literal", words), j + 1
        else:
            t, i = ("name", name), i + 1
        if i < len(toks) and toks[i] == "?":
            t, i = ("union", [t, ("name", "null")]), i + 1
        return t, i

    tree, end = union(0)
    if end != len(toks):
        raise ValueError(f"bad type spec {spec!r}")
    return tree


def optional(tree) -> bool:
    return tree[0] == "union" and ("name", "null") in tree[1]


def words(tree, table) -> str:
    """A type in plain words (what the check wants)."""
    kind = tree[0]
    if kind == "union":
        alts = [words(t, table) for t in tree[1] if t != ("name", "null")]
        return " or ".join(alts) + (" (or null)" if optional(tree) else "")
    if kind == "list":
        return "a list"
    if kind == "dict":
        return "a mapping"
    if kind == "literal":
        return "one of " + ", ".join(tree[1])
    name = tree[1]
    if name in _WORDS:
        return _WORDS[name]
    if name in table.types:
        t = table.types[name]
        return f"{_WORDS[t['type']]} of {t['min_length']} or more characters" if "min_length" in t else _WORDS[t["type"]]
    return "a mapping"


class Compiled:
    """The pydantic models of one schema table."""

    def __init__(self, table: SchemaPolicy):
        self.table = table
        self.models: dict[str, type] = {}
        for name in table.models:
            self.model(name)

    def check(self, name: str):
        fn = official_checks.CHECKS[name]
        params = self.table.params
        return lambda v: fn(v, params)

    def py(self, tree):
        kind = tree[0]
        if kind == "union":
            return Union[tuple(self.py(t) for t in tree[1])]
        if kind == "list":
            return list[self.py(tree[1])]
        if kind == "dict":
            return dict[str, self.py(tree[1])]
        if kind == "literal":
            return Literal[tuple(tree[1])]
        name = tree[1]
        if name in _SCALARS:
            return _SCALARS[name]
        if name in self.table.types:
            t = dict(self.table.types[name])
            return Annotated[_SCALARS[t.pop("type")], Field(**t)]
        return self.model(name)

    def field(self, spec):
        spec = {"type": spec} if isinstance(spec, str) else dict(spec)
        tree = parse(spec.pop("type"))
        typ = self.py(tree)
        extras = [BeforeValidator(self.check(c)) for c in reversed(spec.pop("before", []))]
        extras += [AfterValidator(self.check(c)) for c in spec.pop("after", [])]
        if "default" in spec:
            default = spec.pop("default")
        else:
            default = None if optional(tree) else ...
        if spec:  # constraints (ge, le, gt, min_length) on the value, not on its null
            inner = [t for t in tree[1] if t != ("name", "null")] if optional(tree) else [tree]
            base = Annotated[self.py(inner[0]) if len(inner) == 1 else Union[tuple(self.py(t) for t in inner)],
                             Field(**spec)]
            typ = Optional[base] if optional(tree) else base
        if extras:
            typ = Annotated[typ, *extras]
        if isinstance(default, (dict, list)):  # a mutable default: a fresh one each time, a model's validated
            model, value = self.models.get(tree[1]) if tree[0] == "name" else None, default
            return typ, Field(default_factory=(lambda: model.model_validate(value)) if model is not None
                              else (lambda: type(value)(value)))
        return typ, default

    def model(self, name: str) -> type:
        if name in self.models:
            return self.models[name]
        spec = self.table.models[name]
        validators = {}
        for i, c in enumerate(spec.get("before", [])):
            validators[f"before_{i}"] = model_validator(mode="before")(_model_check(self.check(c)))
        for i, c in enumerate(spec.get("after", [])):
            validators[f"after_{i}"] = model_validator(mode="after")(_after_check(self.check(c)))
        if "root" in spec:
            model = create_model(name, __base__=RootModel[self.py(parse(spec["root"]))], __validators__=validators)
        else:
            self.models[name] = None  # a model that names itself would recurse: none does
            fields = {f: self.field(s) for f, s in spec["fields"].items()}
            base = type(f"{name}Base", (BaseModel,), {"model_config": ConfigDict(extra=spec.get("extra", "allow"))})
            model = create_model(name, __base__=base, __validators__=validators, **fields)
        self.models[name] = model
        return model


def _model_check(fn):
    def run(cls, data):
        return fn(data)
    return classmethod(run)


def _after_check(fn):
    def run(self):
        return fn(self)
    return run


#: the models built from a table's content (its JSON), most recent last: a policy reloaded per request (the MCP
#: and language servers, check_request) reuses them instead of building new pydantic classes every time
_COMPILED: dict[str, Compiled] = {}
_KEEP = 4


def compiled(table: SchemaPolicy) -> Compiled:
    """The models of ``table``, built once per distinct content."""
    key = table.model_dump_json()
    hit = _COMPILED.pop(key, None)
    if hit is None:
        hit = Compiled(table)
        while len(_COMPILED) >= _KEEP:
            _COMPILED.pop(next(iter(_COMPILED)))
    _COMPILED[key] = hit
    return hit


def problems(table: SchemaPolicy, kind: str, data: Any) -> list[tuple[str, tuple, str, str]]:
    """(rule id, data path, why, fix) of each problem the official's schema finds in a ``kind`` document."""
    return validated(table, kind, data)[1]


def validated(table: SchemaPolicy, kind: str, data: Any) -> tuple[Any, list[tuple[str, tuple, str, str]]]:
    """(the model, []) or (None, each problem): one problem per data path (pydantic reports each member of
    a union; the most telling one is kept)."""
    file = table.files[kind]
    comp = compiled(table)
    try:
        return comp.models[file.model].model_validate(data), []
    except ValidationError as exc:
        best: dict[tuple, tuple[int, tuple]] = {}
        for e in exc.errors(include_url=False):
            found = _problem(comp, file, e)
            rank = _RANK.get(e["type"], 1)
            key = (found[0], found[1])
            if key not in best or rank > best[key][0]:
                best[key] = (rank, found)
        return None, [found for _rank, found in best.values()]


#: which of several errors at one path says most (a broken constraint over "not the other union member")
_RANK = {"value_error": 3, "string_too_short": 2, "too_short": 2, "greater_than_equal": 2, "less_than_equal": 2,
         "greater_than": 2, "missing": 2, "extra_forbidden": 2}


def _problem(comp: Compiled, file: FileSchema, e: dict) -> tuple[str, tuple, str, str]:
    loc = _data_path(comp, file.model, e["loc"])
    cause = (e.get("ctx") or {}).get("error")
    if isinstance(cause, OfficialProblem):
        return cause.rule or file.rule, loc + cause.at, cause.why, cause.fix
    where = dotted(loc)
    value = e.get("input")
    kind, ctx = e["type"], e.get("ctx") or {}
    if kind == "missing":
        return file.rule, loc, f"{where} is missing; the automated check requires it", f"add {where}"
    if kind == "extra_forbidden":
        return file.rule, loc, f"{where} is not a key the automated check allows here", f"remove {where}"
    if kind in ("string_too_short", "too_short") and isinstance(value, (str, list)):
        unit = "characters" if isinstance(value, str) else "items"
        least = ctx.get("min_length")
        return (file.rule, loc, f"{where} {spell(value)} has {len(value)} {unit}; the automated check wants "
                f"{least} or more", f"write {where} with at least {least} {unit}")
    bound = {"greater_than_equal": ("ge", ">="), "less_than_equal": ("le", "<="), "greater_than": ("gt", ">"),
             "less_than": ("lt", "<")}.get(kind)
    if bound:
        limit = ctx.get(bound[0])
        return (file.rule, loc, f"{where} is {spell(value)}; the automated check wants {bound[1]} {limit}",
                f"set {where} to a value {bound[1]} {limit}")
    want = _wanted(comp, file.model, e["loc"]) or e["msg"].lower()
    fix = f"write {where} as {want}"
    if want.startswith("text") and isinstance(value, (int, float)) and not isinstance(value, bool):
        fix = f"quote it: {loc[-1] if loc else where}: \"{value}\""
    return file.rule, loc, f"{where} is {spell(value)} ({_kind(value)}); the automated check wants {want}", fix


def _kind(value) -> str:
    return {bool: "a boolean", int: "a number", float: "a number", str: "text", dict: "a mapping",
            list: "a list", type(None): "null"}.get(type(value), type(value).__name__)


def _walk(comp: Compiled, model: str, loc: tuple):
    """Yield (data-path step or None for a pydantic union/validator tag, the field spec tree there)."""
    tree = ("name", model)
    for step in loc:
        spec_tree = tree
        while spec_tree[0] == "union":
            spec_tree = next((t for t in spec_tree[1] if t != ("name", "null")), spec_tree[1][0])
        if spec_tree[0] == "name" and spec_tree[1] in comp.table.models:
            mspec = comp.table.models[spec_tree[1]]
            if "root" in mspec:
                spec_tree = parse(mspec["root"])
            elif isinstance(step, str) and step in mspec["fields"]:
                f = mspec["fields"][step]
                tree = parse(f if isinstance(f, str) else f["type"])
                yield step, tree
                continue
            else:
                yield None, tree
                continue
        if spec_tree[0] in ("list", "dict") and (isinstance(step, int) or spec_tree[0] == "dict"):
            tree = spec_tree[1]
            yield step, tree
            continue
        yield None, tree


def _data_path(comp: Compiled, model: str, loc: tuple) -> tuple:
    return tuple(step for step, _t in _walk(comp, model, loc) if step is not None)


def _wanted(comp: Compiled, model: str, loc: tuple) -> str:
    tree = None
    for step, t in _walk(comp, model, loc):
        if step is not None:
            tree = t
    return words(tree, comp.table) if tree is not None else ""
