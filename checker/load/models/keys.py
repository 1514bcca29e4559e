"""Unknown keys of the typed files and the known key each one most likely meant.

The file models tolerate unknown keys (the official checker does too), so a misspelling such as
``seedset: A`` used to vanish: the value was never read and every rule that needed ``seed_set``
reported it missing. ``unknown_keys`` lists every key the model of its object does not define,
with the closest known key of that object (a did-you-mean); ``near_miss`` lets a rule that finds a
key missing point at the misspelt key instead of telling the user to add what they did write.
Objects that may legitimately carry other keys (``runtime_settings`` holds client settings) report
only keys that look like a misspelling of a known one.
"""
from __future__ import annotations

import importlib
import typing
from typing import Any

import msgspec

from pydantic import BaseModel

from checker.core.models import keys_of
from checker.core.spellings import FILE_KEY_CUTOFF, near
from checker.core.values import value_at

from checker.load.file_kinds import FILE_KINDS

from checker.load.models.lenient import dotted
from checker.load.models.system_desc import TOLERATED_KEYS

#: per file kind, object paths whose unknown keys are reported only when they look misspelt
OPEN_OBJECTS = {"point_yaml": {("runtime_settings",)}}
#: keys older templates carry that the model no longer reads (RULES.md §0.2: model_name and
#: link_config left system_desc.json at the 10-02 rules), and the other fields the official schema
#: still declares there (``checker.load.models.system_desc.TOLERATED_KEYS``); not reported
LEGACY_KEYS = {"system_desc": {(): TOLERATED_KEYS}}
#: the kinds this module reports on (hand-written files with a typed model)
KINDS = ("point_yaml", "system_desc")
MAX_SUGGESTED = 200


class UnknownKey(msgspec.Struct, frozen=True):
    path: tuple  # the key's own path (parent path + key)
    key: str
    suggestion: str | None  # the closest known key of the same object
    #: every known key of the object it is near (same letters, else difflib's close matches)
    candidates: tuple = ()
    same_letters: bool = False  # the suggestion differs from the key only in case, "_" and "-"
    in_open_object: bool = False  # its object may carry other settings (runtime_settings)

    @property
    def parent(self) -> tuple:
        return self.path[:-1]

    def describe(self, lf=None) -> str:
        where = ""
        if lf is not None:
            line, _ = lf.position(self.path)
            where = f" (line {line})" if line else ""
        mean = f": did you mean `{self.suggestion}`?" if self.suggestion else ""
        return f"`{dotted(self.path)}`{where} is not a known key{mean}"


def _norm(s: str) -> str:
    return "".join(ch for ch in s.lower() if ch.isalnum())


def closest(key: str, known) -> str | None:
    """The known key ``key`` most likely meant (same letters ignoring case and _-, else difflib), or None."""
    near, _same = near_matches(key, known)
    return near[0] if near else None


def near_matches(key: str, known) -> tuple[tuple, bool]:
    """(the known keys ``key`` is near, best first; whether they have its letters ignoring case and _-)."""
    known = [k for k in known if isinstance(k, str)]
    n = _norm(key)
    same = tuple(k for k in known if _norm(k) == n)
    if same:
        return same, True
    lowered = {k.lower(): k for k in known}
    hit = near(key.lower(), lowered, n=3, cutoff=FILE_KEY_CUTOFF)
    return tuple(lowered[h] for h in hit), False


def _submodel(annotation) -> tuple[type | None, bool]:
    """(model class, is a list of it) behind an Optional[...] / list[Optional[...]] annotation.

    Asked once per value of every file walked, for a few dozen distinct annotations: memoised."""
    hit = _SUBMODEL.get(id(annotation))
    if hit is None or hit[0] is not annotation:  # keyed by identity (typing's __hash__ is slow); the
        hit = _SUBMODEL[id(annotation)] = (annotation, _submodel_of(annotation))  # entry keeps it alive
    return hit[1]


_SUBMODEL: dict = {}


def _submodel_of(annotation) -> tuple[type | None, bool]:
    args = [annotation]
    is_list = False
    for _ in range(4):
        nxt = []
        for a in args:
            origin = typing.get_origin(a)
            if origin in (list, tuple):
                is_list = True
            if origin is not None:
                nxt += [x for x in typing.get_args(a) if x is not type(None)]
            elif isinstance(a, type) and issubclass(a, BaseModel):
                return a, is_list
        args = nxt
    return None, False


def _walk(cls, data: Any, path: tuple, open_paths: set, legacy: dict, out: list) -> None:
    if not isinstance(data, dict):
        return
    fields = keys_of(cls)
    for key, value in data.items():
        if type(key) is not str:  # a key that is not text: the model's invalid_key or text-characters names it
            continue
        name = key
        if name not in fields and name in legacy.get(path, ()):
            continue
        if name not in fields:
            # a suggestion for the first MAX_SUGGESTED only: difflib on thousands of keys is slow
            near, same = near_matches(name, fields) if len(out) < MAX_SUGGESTED else ((), False)
            guess = near[0] if near else None
            if path in open_paths and (guess is None or len(out) >= MAX_SUGGESTED):
                continue
            out.append(UnknownKey(path + (key,), name, guess, near, same, path in open_paths))
            continue
        sub, is_list = _submodel(fields[name].annotation)
        if sub is None:
            continue
        if is_list and isinstance(value, list):
            for i, item in enumerate(value):
                _walk(sub, item, path + (key, i), open_paths, legacy, out)
        elif isinstance(value, dict):
            _walk(sub, value, path + (key,), open_paths, legacy, out)


def unknown_keys(lf) -> list[UnknownKey]:
    """Every key of a loaded point.yaml / system_desc.json that its model does not define, in file order."""
    if lf is None or lf.kind not in KINDS or not lf.ok or not isinstance(lf.data, dict):
        return []
    mod, name = FILE_KINDS[lf.kind].model
    cls = getattr(importlib.import_module(mod), name)
    out: list[UnknownKey] = []
    _walk(cls, lf.data, (), OPEN_OBJECTS.get(lf.kind, set()), LEGACY_KEYS.get(lf.kind, {}), out)
    return out


def near_miss(lf, parent: tuple, key: str) -> UnknownKey | None:
    """The unknown key of object ``parent`` that looks like a misspelling of the missing ``key``."""
    for u in unknown_keys(lf):
        if u.parent == tuple(parent) and u.suggestion == key:
            return u
    return None


def missing_hint(lf, parent: tuple, key: str) -> tuple[str, tuple | None]:
    """(" (`seedset` (line 17) is not a known key: did you mean `seed_set`?)", its path) when a
    misspelling of the missing ``key`` is present, else ("", None): the missing-field finding then
    names and points at what the user wrote."""
    u = near_miss(lf, parent, key)
    if u is None:
        return "", None
    return f" ({u.describe(lf)})", u.path


def rename_edits(lf, found: list[UnknownKey]) -> list:
    """The renames that are certain, as Edits (``checker.core.fixes``): the key is near exactly one known key
    of its object (in an object that may hold other settings, only one differing in case, ``_`` and ``-``),
    no key of that object has that name already or is near it too, and its value is valid under that name
    (so the rename adds no finding)."""
    from checker.core.fixes import Edit, fixable_file

    if not fixable_file(lf) or not isinstance(lf.data, dict):
        return []
    wanted: dict = {}
    for u in found:
        if len(u.candidates) == 1 and (u.same_letters or not u.in_open_object) and isinstance(u.key, str):
            wanted.setdefault((u.parent, u.candidates[0]), []).append(u)
    out = []
    for (parent, target), us in wanted.items():
        if len(us) != 1:
            continue  # two keys that both mean one field: which to keep is not certain
        obj = value_at(lf.data, parent)
        if not isinstance(obj, dict) or target in obj:
            continue
        if _valid_renamed(lf, us[0].path, target):
            out.append(Edit(lf, us[0].path, "key", target, old=us[0].key, value=target))
    return sorted(out, key=lambda e: str(e.path))


def _valid_renamed(lf, path: tuple, target: str) -> bool:
    """The file validates with the key renamed exactly as well as now, plus nothing new under the new name."""
    import copy

    from checker.load.models.lenient import validate_lenient

    fk = FILE_KINDS.get(lf.kind)
    spec = fk.model if fk is not None else None
    if spec is None:
        return False
    cls = getattr(importlib.import_module(spec[0]), spec[1])
    data = copy.deepcopy(lf.data)
    obj = value_at(data, path[:-1])
    items = list(obj.items())
    obj.clear()
    for k, v in items:
        obj[target if k == path[-1] else k] = v
    _model, problems = validate_lenient(cls, data)
    new_path = path[:-1] + (target,)
    return not any(tuple(p.path[:len(new_path)]) == new_path for p in problems)


def rename_for_missing(lf, parent: tuple, key: str) -> tuple:
    """The certain rename (an Edit) of the misspelt key that stands for the missing ``key``, or ()."""
    u = near_miss(lf, parent, key)
    if u is None:
        return ()
    return tuple(e for e in rename_edits(lf, unknown_keys(lf)) if e.path == u.path)
