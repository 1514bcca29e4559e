"""Apply a variant's patches to a copied package: a small, self-contained patch vocabulary.

A variant's files are hard links to its base's (building 280 copies is then cheap), so every
write here goes through ``put``, which writes a new file and renames it over the old name.

Kept apart from tests/casefixtures.py on purpose (test helpers move; this suite must not break when
they do). Every op is one ``{kind: arg}`` mapping; ``file`` arguments may hold placeholders
({system}, {curve}, {model}, {point}) and shell globs (``{curve}/*/point.yaml`` patches every
point; a glob that matches nothing is an error, so a variant can never silently patch nothing).

  set:     {file, path: [k, 0, ...], value}      # path [] replaces the whole document; if_parent: true
                                                 # skips the files without the path's parent
  delete:  {file, path}
  merge:   {file, path, value}                   # dict.update at path
  write:   {file, text | json | yaml | bytes_hex}
  append:  {file, text}
  sub:     {file, pattern, repl, count}          # regex on the raw text (multiline)
  remove:  PATH                                  # file or directory
  copy / move: {from, to}
  set_entries: {file, list: [k, ...], where: {k: v}, set: {k: v}}   # every matching list entry
  drop_entries: {file, list: [k, ...], where: {k: v}}                # remove every matching entry
  symlink: {link, target}                        # target as written (absolute or relative)
  call:    {fn, args}                            # a named function of DERIVED below (cf_spell.py adds the
                                                 # loose spellings: set_plain, respell)
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
from typing import Any, Callable

import yaml


def placeholders(root: str) -> dict[str, str]:
    """{system}, {curve} and {model} of the package's first system and its first curve."""
    results = os.path.join(root, "results")
    systems = sorted(d for d in os.listdir(results) if os.path.isdir(os.path.join(results, d)))
    system = systems[0]
    models = sorted(d for d in os.listdir(os.path.join(results, system))
                    if os.path.isdir(os.path.join(results, system, d)))
    return {"{system}": f"results/{system}", "{curve}": f"results/{system}/{models[0]}",
            "{system_name}": system, "{model}": models[0]}


def expand(text: str, names: dict[str, str]) -> str:
    """Replace the placeholders in a patch argument."""
    for key, value in names.items():
        text = text.replace(key, value)
    return text


def targets(root: str, pattern: str | list, names: dict[str, str]) -> list[str]:
    """The files a ``file`` argument names (a list, globs expanded, sorted); an empty match is an error."""
    if isinstance(pattern, list):
        return [hit for one in pattern for hit in targets(root, one, names)]
    full = os.path.join(root, expand(pattern, names))
    if any(ch in full for ch in "*?["):
        hits = sorted(glob.glob(full))
        if not hits:
            raise ValueError(f"patch glob {pattern!r} matches nothing")
        return hits
    return [full]


def load(path: str) -> Any:
    """A JSON or YAML document (by extension) of our own trusted fixture data."""
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return json.loads(text) if path.endswith(".json") else yaml.safe_load(text)


def put(path: str, data: str | bytes, append: bool = False) -> None:
    """Write a file as a new inode, never in place: a variant's files are hard links to its base's."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    if append and os.path.exists(path):
        with open(path, "rb") as fh:
            payload = fh.read() + payload
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".cf-new"
    with open(tmp, "wb") as fh:
        fh.write(payload)
    os.replace(tmp, path)


def save(path: str, data: Any) -> None:
    """Serialise data back as JSON (indent 2) or YAML (block style, key order kept), via put."""
    if path.endswith(".json"):
        put(path, json.dumps(data, indent=2) + "\n")
    else:
        put(path, yaml.safe_dump(data, sort_keys=False, width=110, allow_unicode=True))


def _parent(data: Any, path: list) -> Any:
    """The container holding path[-1]; every step before it must exist (a mistyped path is an error)."""
    cur = data
    for key in path[:-1]:
        try:
            cur = cur[key]
        except (KeyError, IndexError, TypeError) as exc:
            raise ValueError(f"patch path {path}: no {key!r} in the document") from exc
    return cur


def set_in(data: Any, path: list, value: Any) -> Any:
    """Set (or append, at index len) the value at path; path [] replaces the document."""
    if not path:
        return value
    parent = _parent(data, path)
    if isinstance(parent, list) and path[-1] == len(parent):
        parent.append(value)
    else:
        parent[path[-1]] = value
    return data


def has(data: Any, path: list) -> bool:
    try:
        get_in(data, path)
    except (KeyError, IndexError, TypeError):
        return False
    return True


def get_in(data: Any, path: list) -> Any:
    """The value at path (KeyError/IndexError when absent)."""
    for key in path:
        data = data[key]
    return data


def _per_point(root: str, names: dict[str, str], fn: Callable[[str], None], points: str = "*") -> None:
    """Call fn on each point directory of the first curve matching the glob ``points``."""
    for pdir in targets(root, "{curve}/" + points, names):
        if os.path.isdir(pdir):
            fn(pdir)


def _store_metric(root: str, names: dict[str, str], key: str, factor: float = 1.0, points: str = "*") -> None:
    """Write a stored metric into result_summary.json from the file's own numbers (times factor)."""
    power_kw = _power_kw(root, names)

    def one(pdir: str) -> None:
        path = os.path.join(pdir, "result_summary.json")
        rs = load(path)
        system_tps = rs["output_sequence_lengths"]["total"] / (rs["duration_ns"] / 1e9)
        pct = rs.get("tpot", {}).get("percentiles", {})
        p90 = pct.get("90.0", pct.get("90"))
        value = {"system_tps": system_tps, "tps": system_tps,
                 "tps_per_user": (1000.0 / (p90 / 1e6)) if p90 else None,
                 "system_tps_per_kw": system_tps / power_kw if power_kw else None}[key]
        if value is not None:
            rs[key] = round(value * factor, 4)
            save(path, rs)

    _per_point(root, names, one, points)


def _power_kw(root: str, names: dict[str, str]) -> float | None:
    """E.5 total of the conformance base descriptor (component_sum sets, air/liquid overhead)."""
    path = os.path.join(root, names["{system}"], "system_power.json")
    if not os.path.exists(path):
        return None
    doc = load(path)
    overhead = 0.30 if doc.get("cooling") == "liquid" else 0.50
    major = 0.0
    for node_set in doc.get("node_sets", []):
        comp = node_set.get("components") or {}
        per_node = 0.0
        for part in ("cpu", "accelerator"):
            tdp = (comp.get(part) or {}).get("tdp_per_unit") or {}
            per_node += comp.get(part, {}).get("count_per_node", 0) * tdp.get("value_w", 0.0)
        major += node_set["nodes_provisioned"] * per_node
    return major * (1 + overhead) / 1000.0


def _retext(root: str, names: dict[str, str], file: str, key: str, spell: str) -> None:
    """Rewrite one JSON number as another spelling of the same value (e.g. 1.3457e12, 66840.0)."""
    for path in targets(root, file, names):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        value = get_in(json.loads(text), [int(k) if k.isdigit() else k for k in key.split(".")])
        if spell == "float":
            new = f"{float(value)!r}"
        elif spell == "exponent":
            digits = str(int(value))
            new = f"{digits[0]}.{digits[1:].rstrip('0') or '0'}e{len(digits) - 1}"
            assert float(new) == value, (new, value)
        else:
            raise ValueError(spell)
        leaf = key.split(".")[-1]
        text, n = re.subn(rf'("{re.escape(leaf)}":\s*){int(value)}\b', rf"\g<1>{new}", text, count=1)
        if n != 1:
            raise ValueError(f"{leaf} = {value} not found in {path}")
        put(path, text)


def _bom(root: str, names: dict[str, str], file: str) -> None:
    """Prefix each file with a UTF-8 byte-order mark."""
    for path in targets(root, file, names):
        with open(path, "rb") as fh:
            raw = fh.read()
        put(path, b"\xef\xbb\xbf" + raw)


def _crlf(root: str, names: dict[str, str], file: str) -> None:
    """Give each file CRLF line endings."""
    for path in targets(root, file, names):
        with open(path, "rb") as fh:
            raw = fh.read()
        put(path, raw.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n"))


def _restyle(root: str, names: dict[str, str], file: str, style: str) -> None:
    """Re-serialise a file in another legal style: YAML flow/JSON-syntax, minified or sorted JSON."""
    for path in targets(root, file, names):
        data = load(path)
        text = {
            "json-syntax-yaml": lambda: json.dumps(data, indent=1) + "\n",
            "flow-yaml": lambda: yaml.safe_dump(data, default_flow_style=True, width=4096),
            "minified-json": lambda: json.dumps(data, separators=(",", ":")),
            "sorted-json": lambda: json.dumps(data, indent=4, sort_keys=True) + "\n",
            "commented-yaml": lambda: "# point disclosure (R§8.3)\n---\n" + yaml.safe_dump(data, sort_keys=True, width=80),
        }[style]()
        put(path, text)


def _nest_in_org(root: str, names: dict[str, str], submission: str) -> None:
    """Move the package one level down: ``root`` becomes an organisation directory holding it."""
    tmp = root + ".nest"
    os.rename(root, tmp)
    os.makedirs(root)
    os.rename(tmp, os.path.join(root, submission))


def _fix_utilization(root: str, names: dict[str, str]) -> None:
    """Recompute every point's tps_utilization (R§8.2) after a variant changed a throughput."""
    tps = {}
    for pdir in targets(root, "{curve}/*/result_summary.json", names):
        rs = load(pdir)
        tps[os.path.dirname(pdir)] = rs["output_sequence_lengths"]["total"] / (rs["duration_ns"] / 1e9)
    best = max(tps.values())
    for pdir, value in tps.items():
        path = os.path.join(pdir, "system_desc.json")
        doc = load(path)
        doc["tps_utilization"] = round(value / best, 4)
        save(path, doc)


def _shorten_run(root: str, names: dict[str, str], file: str, seconds: float) -> None:
    """Make a run last ``seconds``: counters scale with the duration, so every rate stays the same."""
    for path in targets(root, file, names):
        rs = load(path)
        f = seconds * 1e9 / rs["duration_ns"]
        rs["duration_ns"] = int(seconds * 1e9)
        for key in ("n_samples_issued", "n_samples_completed"):
            rs[key] = int(round(rs[key] * f))
        for block in ("output_sequence_lengths", "input_sequence_lengths"):
            rs[block]["total"] = int(round(rs[block]["total"] * f))
        for key in ("output_tokens_per_turn_total", "e2e_turn_time_seconds_total"):
            if key in rs:
                rs[key] = round(rs[key] * f, 3)
        save(path, rs)
    _fix_utilization(root, names)


def _hostile(root: str, names: dict[str, str], file: str, kind: str) -> None:
    """Inputs too big to spell in YAML: a 5,000-digit concurrency, a 50,000-deep JSON list."""
    for path in targets(root, file, names):
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        if kind == "huge-int":
            text, n = re.subn(r"^concurrency: \d+$", "concurrency: " + "9" * 5000, text, count=1, flags=re.M)
            assert n == 1
        elif kind == "deep-json":
            text = '{"n_samples_completed": 1, "duration_ns": 1, "x": ' + "[" * 50000 + "]" * 50000 + "}"
        else:
            raise ValueError(kind)
        put(path, text)


DERIVED: dict[str, Callable[..., None]] = {
    "hostile": _hostile,
    "fix_utilization": _fix_utilization,
    "shorten_run": _shorten_run,
    "store_metric": _store_metric,
    "retext": _retext,
    "bom": _bom,
    "crlf": _crlf,
    "restyle": _restyle,
    "nest_in_org": _nest_in_org,
}


def apply(root: str, op: dict) -> None:
    """Apply one patch op to the package at ``root``."""
    (kind, arg), = op.items()
    names = placeholders(root) if os.path.isdir(os.path.join(root, "results")) else {}
    if kind in ("set", "delete", "merge"):
        done = 0
        for path in targets(root, arg["file"], names):
            data = load(path)
            if arg.get("if_parent") and (not has(data, arg["path"][:-1])
                                         or (kind == "delete" and not has(data, arg["path"]))):
                continue  # a file without the parent (e.g. no steady_state at the Offline point) is left alone
            done += 1
            if kind == "set":
                data = set_in(data, arg["path"], arg["value"])
            elif kind == "merge":
                get_in(data, arg["path"]).update(arg["value"])
            else:
                del _parent(data, arg["path"])[arg["path"][-1]]
            save(path, data)
        if not done:
            raise ValueError(f"{kind}: no file holds {arg['path'][:-1]}")
    elif kind in ("set_entries", "drop_entries"):
        hits = 0
        for path in targets(root, arg["file"], names):
            data = load(path)
            entries = get_in(data, arg["list"])
            for entry in list(entries):
                if all(entry.get(k) == v for k, v in arg["where"].items()):
                    if kind == "set_entries":
                        entry.update(arg["set"])
                    else:
                        entries.remove(entry)
                    hits += 1
            save(path, data)
        if not hits:
            raise ValueError(f"set_entries: no entry matches {arg['where']}")
    elif kind in ("write", "append"):
        for path in targets(root, arg["file"], names):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if "bytes_hex" in arg:
                payload = bytes.fromhex(arg["bytes_hex"])
            elif "json" in arg:
                payload = (json.dumps(arg["json"], indent=2) + "\n").encode()
            elif "yaml" in arg:
                payload = yaml.safe_dump(arg["yaml"], sort_keys=False).encode()
            else:
                payload = arg["text"].encode("utf-8")
            if os.path.islink(path):
                os.unlink(path)
            put(path, payload, append=kind == "append")
    elif kind == "sub":
        for path in targets(root, arg["file"], names):
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            new, n = re.subn(arg["pattern"], arg.get("repl", ""), text, count=int(arg.get("count", 0)), flags=re.M)
            if n == 0:
                raise ValueError(f"sub pattern {arg['pattern']!r} matches nothing in {path}")
            put(path, new)
    elif kind == "remove":
        for path in targets(root, arg, names):
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path)
            elif os.path.lexists(path):
                os.unlink(path)
            else:
                raise ValueError(f"remove: {arg!r} does not exist")
    elif kind in ("copy", "move"):
        src = os.path.join(root, expand(arg["from"], names))
        dst = os.path.join(root, expand(arg["to"], names))
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if kind == "move":
            shutil.move(src, dst)
        elif os.path.isdir(src):
            shutil.copytree(src, dst)
        else:
            if os.path.lexists(dst):
                os.unlink(dst)  # a hard link to the base: replace it, never write through it
            shutil.copy2(src, dst)
    elif kind == "symlink":
        link = os.path.join(root, expand(arg["link"], names))
        os.symlink(arg["target"], link)
    elif kind == "call":
        DERIVED[arg["fn"]](root, names, **(arg.get("args") or {}))
    else:
        raise ValueError(f"unknown patch op {kind!r}")
