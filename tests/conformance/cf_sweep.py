"""The field sweep: for every field the Week-0 check's schemas declare (rules/policy/v1.0/week0_schemas.yaml),
a variant with a value of the wrong type, one at a boundary and one loosely spelled.

Generated from the schema table itself, so a field added to the table is swept without touching this
file. Each variant patches the field in every copy of its file in the conformance base (point.yaml,
system_desc.json and result_summary.json at every point, the system's system_power.json); a field whose
parent the base lacks is set inside a small valid sample of that parent (SAMPLES), or not swept where
the base has no place for it (named in UNREACHED, which a test keeps honest). ``expect`` is
``either``: what the rules say about a spelling the official's schema refuses is each variant's entry
in disagreements.yaml where our verdict differs from the official's.
"""
from __future__ import annotations

import json
import os

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCHEMAS = os.path.join(REPO, "rules", "policy", "v1.0", "week0_schemas.yaml")
BASE_POINT = os.path.join(REPO, "fixtures", "valid", "results", "H200-SXM-141GBx8_TRT", "llama3_1-8b", "r1")

#: file kind -> (patch target, the base document's file)
FILES = {"point_yaml": ("{curve}/*/point.yaml", "point.yaml"),
         "result_summary": ("{curve}/*/result_summary.json", "result_summary.json"),
         "system_desc": ("{curve}/*/system_desc.json", "system_desc.json"),
         "power": ("{system}/system_power.json", None)}
#: valid samples of parents the base does not hold, so their fields can be swept
SAMPLES = {
    ("point_yaml", "dp_shortfall"): {"dp_actual": 8, "dp_formula": 8, "reason": "memory bound at this batch"},
    ("point_yaml", "runtime_settings", "warmup"): {"salt": False},
    ("system_desc", "config_summary"): {"data_parallel": 8, "tensor_parallel": 1},
    ("system_desc", "measured_accuracy_score"): {"cnn_dailymail": {"scores": {"rouge1": 38.91}}},
    ("power", "computed"): {"major_components_w": 6300.0},
    ("power", "node_sets", 0, "components", "accelerator", "below_rated_tdp"): {"reason": "power capped"},
}
#: models the conformance base has no place for (a present scale-out fabric, a published power figure)
UNREACHED = {"Nics", "Switch", "DatasetAccuracyScores:scores", "AccuracyResult"}


def _table() -> dict:
    with open(SCHEMAS, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _base_docs() -> dict:
    import cf_bases

    docs = {}
    for kind, (_target, name) in FILES.items():
        if name is None:
            docs[kind] = cf_bases.base_power("H200-SXM-141GBx8_TRT")
            continue
        with open(os.path.join(BASE_POINT, name), encoding="utf-8") as fh:
            docs[kind] = json.load(fh) if name.endswith(".json") else yaml.safe_load(fh)
    docs["system_desc"]["config_summary"] = cf_bases.CONFIG_SUMMARY
    return docs


def _spec(raw) -> dict:
    return {"type": raw} if isinstance(raw, str) else dict(raw)


def _atoms(type_text: str) -> list[str]:
    """The alternatives of a type string, without null: 'int?' -> ['int'], 'A | str' -> ['A', 'str']."""
    text = type_text.rstrip("?")
    return [a.strip() for a in _split_union(text) if a.strip() not in ("null", "")]


def _split_union(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch == "["
        depth -= ch == "]"
        if ch == "|" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += ch
    return out + [cur]


def fields(table: dict, docs: dict):
    """(kind, model, field, data path, spec, base value or MISSING) of every field reachable in the base."""
    models = table["models"]

    def walk(kind, model, path, doc):
        for name, raw in models[model]["fields"].items():
            spec = _spec(raw)
            here = path + (name,)
            value = doc.get(name, _MISSING) if isinstance(doc, dict) else _MISSING
            yield kind, model, name, here, spec, value
            for atom in _atoms(spec["type"]):
                inner, step = atom, ()
                if atom.startswith("list[") and atom[5:-1] in models:
                    inner, step = atom[5:-1], (0,)
                if inner not in models or "fields" not in models[inner]:
                    continue
                child = value
                if step:
                    child = value[0] if isinstance(value, list) and value else _MISSING
                sample = SAMPLES.get((kind,) + here + step)
                if child is _MISSING and sample is not None:
                    child = sample
                if isinstance(child, dict):
                    yield from walk(kind, inner, here + step, child)

    for kind, root in (("point_yaml", "PointConfig"), ("result_summary", "PointSummary"),
                       ("system_desc", "SystemDescription"), ("power", "SystemPower")):
        yield from walk(kind, root, (), docs[kind])


class _Missing:
    def __repr__(self):
        return "MISSING"


_MISSING = _Missing()

_WRONG = {"str": 2, "int": "many", "float": "fast", "bool": "maybe", "strict_float": "1.5", "any": None}


def _first(spec: dict) -> str:
    atoms = _atoms(spec["type"])
    return atoms[0] if atoms else "any"


def wrong_value(spec: dict, table: dict):
    """A value of a type the field does not take (None: no such value, e.g. an `any` field)."""
    atoms = _atoms(spec["type"])
    if any(a in ("any", "str") for a in atoms) and any(a != "str" for a in atoms if a != "any"):
        return 2 if "str" not in atoms else ["a", "list"]
    a = _first(spec)
    if a.startswith("literal["):
        return 7
    if a.startswith(("list[", "dict[")) or a in table["models"]:
        return "text"
    if a in table.get("types", {}):
        return 2
    return _WRONG.get(a)


def boundary_value(spec: dict, value):
    """(value, label) just past a constraint, else the field left out (required) or null (optional)."""
    if "ge" in spec:
        return (spec["ge"] - 1 if _first(spec) == "int" else spec["ge"] - 0.5), f"below-{spec['ge']}"
    if "gt" in spec:
        return spec["gt"], f"at-{spec['gt']}"
    if "le" in spec:
        return spec["le"] + 1, f"above-{spec['le']}"
    if "min_length" in spec:
        n = spec["min_length"]
        return ([] if _first(spec).startswith("list[") else "x" * (n - 1)), f"shorter-than-{n}"
    required = not spec["type"].endswith("?") and "default" not in spec and "null" not in spec["type"]
    return (_MISSING, "absent") if required else (None, "null")


def loose_value(spec: dict, kind: str):
    """(how, label, default) of a loose spelling that keeps each file's own value (cf_patch respell), or None."""
    a = _first(spec)
    if a in ("int", "float"):
        return "quote", "quoted", 1 if a == "int" else 1.5
    if a == "bool":
        return ("yaml11", "yaml11-yes-no", True) if kind == "point_yaml" else ("one", "one-zero", True)
    if a.startswith("literal["):
        return "case", "case", a[8:-1].split(",")[0].strip()
    if a == "str" and kind == "point_yaml":
        return "plain-on", "yaml11-on", None
    return None


def _patch(kind: str, path: tuple, value, loose: tuple | None = None, parent_sample=None) -> list[dict]:
    target = FILES[kind][0]
    ops = []
    if parent_sample is not None:
        ops.append({"set": {"file": target, "path": list(parent_sample[0]), "value": parent_sample[1]}})
    if loose is not None and loose[0] == "plain-on":
        ops.append({"call": {"fn": "set_plain", "args": {"file": target, "path": list(path), "text": "on"}}})
    elif loose is not None:
        ops.append({"call": {"fn": "respell", "args": {"file": target, "path": list(path), "how": loose[0],
                                                        "default": loose[2]}}})
    elif value is _MISSING:
        ops.append({"delete": {"file": target, "path": list(path), "if_parent": True}})
    else:
        ops.append({"set": {"file": target, "path": list(path), "value": value, "if_parent": True}})
    return ops


def _sample_for(kind: str, path: tuple, docs: dict):
    """The (parent path, sample) a field needs set first, when its parent is not in the base document."""
    for key, sample in SAMPLES.items():
        if key[0] == kind and path[:len(key) - 1] == key[1:]:
            cur = docs[kind]
            for step in key[1:]:
                cur = cur[step] if isinstance(cur, dict) and step in cur else _MISSING
                if cur is _MISSING:
                    return key[1:], sample
    return None


def sweep_family() -> list[dict]:
    """Three variants per field: wrong type, boundary, loose spelling (where the field type has one)."""
    table, docs = _table(), _base_docs()
    out = []
    for kind, model, name, path, spec, value in fields(table, docs):
        label = "-".join(str(p) for p in path).replace("_", "-")
        stem = f"sweep-{kind.replace('_', '-')}-{label}"
        parent = _sample_for(kind, path, docs)
        wrong = wrong_value(spec, table)
        if wrong is not None:
            out.append(_variant(f"{stem}-wrong-type", f"{model}.{name} ({spec['type']}) written {wrong!r}",
                                _patch(kind, path, wrong, parent_sample=parent)))
        bval, blabel = boundary_value(spec, value)
        if not (bval is _MISSING and value is _MISSING):
            out.append(_variant(f"{stem}-{blabel}", f"{model}.{name} ({spec['type']}) {blabel}",
                                _patch(kind, path, bval, parent_sample=parent)))
        loose = loose_value(spec, kind)
        if loose is not None:
            out.append(_variant(f"{stem}-{loose[1]}", f"{model}.{name} ({spec['type']}) spelled loosely ({loose[0]})",
                                _patch(kind, path, None, loose, parent)))
    return out


def _variant(name: str, why: str, patch: list) -> dict:
    return {"name": name, "base": "valid", "expect": "either", "why": f"sweep: {why}", "patch": patch}
