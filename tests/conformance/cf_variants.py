"""The conformance variants: variants.yaml plus generated families, and how each is built on disk.

A variant is ``{name, base, expect, why, patch}``: ``expect`` is what the rules and the published
schema say about it (accept, reject, or either where they leave it to the tool). Families that are
clearer as code than as data (curves of N points, target cohorts, spellings of the same value, file
styles) are generated here. ``build_all`` writes each base once and each variant as hard links to
its base with its patches applied (patches never write through a link; the bases' digest is
checked), under a directory the caller owns (pytest's tmp_path_factory).
"""
from __future__ import annotations

import hashlib
import os
import shutil

import yaml

import cf_bases
import cf_offtests
import cf_patch
import cf_spell  # noqa: F401  (registers the loose-spelling patch functions)
import cf_sweep

HERE = os.path.dirname(os.path.abspath(__file__))
VARIANTS_FILE = os.path.join(HERE, "variants.yaml")
EXPECT = ("accept", "reject", "either")
KEYS = {"name", "base", "expect", "why", "patch"}


def _v(name: str, expect: str, why: str, patch: list | None = None, base: str = "valid") -> dict:
    """A generated variant (same shape as a variants.yaml entry)."""
    return {"name": name, "base": base, "expect": expect, "why": why, "patch": patch or []}


def points_family() -> list[dict]:
    """Curves of N points (R§5.3: 8 with a dedicated Offline run .. R§5.6: 32)."""
    out = [_v(f"points-{n}", "accept", f"R§5.3/R§5.6 a curve of {n} points (make_valid.spread_points)", base=f"points-{n}")
           for n in (9, 10, 12, 14, 16, 20, 24, 28, 30, 32)]
    elect = [{"remove": "{curve}/r%d" % 13368}, {"set": {"file": "{curve}/r1024/point.yaml", "path": ["offline"],
                                                          "value": "elected"}}]
    out.append(_v("points-12-elected", "accept", "R§5.7.2 12 points, C_max elected as Offline", elect, "points-12"))
    out.append(_v("points-32-elected", "accept", "R§5.7.2 32 points, C_max elected as Offline", elect, "points-32"))
    for model, size in (("gpt-oss-120b", 6396), ("deepseek-r1", 4388)):
        patch = [{"remove": "{curve}/r%d" % size},
                 {"set": {"file": "{curve}/r1024/point.yaml", "path": ["offline"], "value": "elected"}}]
        out.append(_v(f"model-{model}-elected", "accept", f"R§5.7.2 {model} with C_max elected as Offline", patch, model))
    return out


def cohort_family() -> list[dict]:
    """S§4.6: set A (published 2026-10-C1) is adoptable for 2026-10-C1 .. 2026-12-C0."""
    cohorts = [("2026-10-C1", "accept"), ("2026-11-C1", "accept"), ("2026-12-C0", "accept"),
               ("2026-10-C0", "reject"), ("2026-12-C1", "reject"), ("2027-01-C0", "reject")]
    return [_v(f"seeds-target-{c}", exp, f"S§4.6 adoption window of set A (2026-10-C1 + 3 cohorts): {c}",
               [{"set": {"file": "{curve}/*/point.yaml", "path": ["target_cohort"], "value": c}}])
            for c, exp in cohorts]


def spelling_family() -> list[dict]:
    """Unambiguous spellings of the same value (issue 15): exponent, float counts, BOM, YAML 1.1 booleans."""
    rs = "{curve}/*/result_summary.json"
    out = []
    for key, spell in (("duration_ns", "exponent"), ("n_samples_completed", "float"), ("n_samples_issued", "float"),
                       ("output_sequence_lengths.total", "float")):
        out.append(_v(f"spell-{key.replace('.', '-').replace('_', '-')}-{spell}", "accept",
                      f"result_summary.json {key} written as {spell} (same value)",
                      [{"call": {"fn": "retext", "args": {"file": rs, "key": key, "spell": spell}}}]))
    out.append(_v("spell-power-nodes-float", "accept", "system_power.json nodes_provisioned written as 1.0",
                  [{"call": {"fn": "retext", "args": {"file": "{system}/system_power.json",
                                                      "key": "node_sets.0.nodes_provisioned", "spell": "float"}}}]))
    out.append(_v("spell-concurrency-float", "accept", "point.yaml concurrency written as 8.0 (same count)",
                  [{"sub": {"file": "{curve}/*/point.yaml", "pattern": r"^concurrency: (\d+)$", "repl": r"concurrency: \1.0"}}]))
    for what, file in (("result-summary", rs), ("system-desc", "{curve}/*/system_desc.json"),
                       ("power", "{system}/system_power.json"), ("accuracy", "{curve}/*/accuracy_results.json"),
                       ("point-yaml", "{curve}/*/point.yaml")):
        out.append(_v(f"spell-bom-{what}", "accept", f"a UTF-8 byte-order mark at the start of every {what} file",
                      [{"call": {"fn": "bom", "args": {"file": file}}}]))
    for key, word in (("logs_retained", "yes"), ("logs_retained", "on"), ("stream_all_chunks", "yes"),
                      ("components_retained", "yes"), ("cross_query_reuse", "Yes")):
        out.append(_v(f"spell-yaml11-{key.replace('_', '-')}-{word.lower()}", "accept",
                      f"YAML 1.1 boolean '{word}' for {key} (the gating tool reads YAML 1.1)",
                      [{"sub": {"file": "{curve}/*/point.yaml", "pattern": rf"^(\s*{key}): true$", "repl": rf"\1: {word}"}}]))
    return out


def style_family() -> list[dict]:
    """The same documents in other legal file styles (YAML flow / JSON syntax, minified or sorted JSON, CRLF)."""
    files = {"point-yaml": ("{curve}/*/point.yaml", ("json-syntax-yaml", "flow-yaml", "commented-yaml")),
             "config-yaml": ("{curve}/*/config.yaml", ("flow-yaml",)),
             "result-summary": ("{curve}/*/result_summary.json", ("minified-json", "sorted-json")),
             "system-desc": ("{curve}/*/system_desc.json", ("minified-json", "sorted-json")),
             "power": ("{system}/system_power.json", ("minified-json", "sorted-json")),
             "accuracy": ("{curve}/*/accuracy_results.json", ("minified-json",))}
    out = []
    for what, (file, styles) in files.items():
        for style in styles:
            out.append(_v(f"style-{what}-{style}", "accept", f"every {what} file re-serialised as {style}",
                          [{"call": {"fn": "restyle", "args": {"file": file, "style": style}}}]))
        if what in ("point-yaml", "system-desc", "config-yaml"):
            out.append(_v(f"style-{what}-crlf", "accept", f"every {what} file with CRLF line endings",
                          [{"call": {"fn": "crlf", "args": {"file": file}}}]))
    return out


def load_yaml_variants(path: str = VARIANTS_FILE) -> list[dict]:
    """The named variants of variants.yaml, with their defaults (base valid, no patch)."""
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    out = []
    for raw in doc["variants"]:
        v = {"base": "valid", "patch": []} | raw
        out.append(v)
    return out


def all_variants() -> list[dict]:
    """Every variant, validated: unique names, known keys and bases, expect in accept/reject/either."""
    variants = (load_yaml_variants() + points_family() + cohort_family() + spelling_family() + style_family()
                + cf_sweep.sweep_family() + cf_offtests.offtests_family())
    seen: set[str] = set()
    for v in variants:
        problems = []
        if set(v) - KEYS:
            problems.append(f"unknown keys {sorted(set(v) - KEYS)}")
        if v["name"] in seen:
            problems.append("duplicate name")
        if v.get("expect") not in EXPECT:
            problems.append(f"expect must be one of {EXPECT}")
        if not v.get("why"):
            problems.append("no why")
        if problems:
            raise ValueError(f"variant {v.get('name')!r}: {'; '.join(problems)}")
        seen.add(v["name"])
    return sorted(variants, key=lambda v: v["name"])


def _graft(root: str, bases_dir: str, arg: dict) -> None:
    """Copy a directory of another base into this package (e.g. a second benchmark's curve)."""
    src_root = os.path.join(bases_dir, arg["base"])
    src = os.path.join(src_root, cf_patch.expand(arg["from"], cf_patch.placeholders(src_root)))
    dst = os.path.join(root, cf_patch.expand(arg["to"], cf_patch.placeholders(root)))
    shutil.copytree(src, dst)


def materialise(variant: dict, bases_dir: str, dest: str) -> str:
    """Link the variant's base to ``dest`` (hard links) and apply its patches; return the path to check."""
    shutil.copytree(os.path.join(bases_dir, variant["base"]), dest, symlinks=True, copy_function=os.link)
    for op in variant["patch"]:
        if "graft" in op:
            _graft(dest, bases_dir, op["graft"])
        else:
            cf_patch.apply(dest, op)
    return dest


def build_all(variants: list[dict], workdir: str) -> dict[str, str]:
    """Build every base needed (once) and every variant under ``workdir``: {name: path to check}."""
    bases_dir = os.path.join(workdir, "_bases")
    os.makedirs(bases_dir, exist_ok=True)
    needed = {v["base"] for v in variants} | {op["graft"]["base"] for v in variants for op in v["patch"] if "graft" in op}
    for base in sorted(needed):
        target = os.path.join(bases_dir, base)
        if not os.path.exists(target):
            cf_bases.build_base(base, target)
    before = tree_digest(bases_dir)
    built = {}
    for v in variants:
        dest = os.path.join(workdir, v["name"])
        try:
            built[v["name"]] = materialise(v, bases_dir, dest)
        except Exception as exc:  # noqa: BLE001 - name the variant whose patch is wrong
            raise RuntimeError(f"variant {v['name']!r} could not be built: {exc}") from exc
    if tree_digest(bases_dir) != before:
        raise RuntimeError("a variant's patch wrote through a hard link into its base: use cf_patch.put")
    return built


def tree_digest(root: str) -> str:
    """sha256 over every file's relative path and bytes (the bases must stay as built)."""
    h = hashlib.sha256()
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            h.update(os.path.relpath(path, root).encode())
            if not os.path.islink(path):
                with open(path, "rb") as fh:
                    h.update(fh.read())
    return h.hexdigest()
