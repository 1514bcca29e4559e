"""Week-0 predicates of the official's layout and file-reading rules (endpoints-submission-cli 1.5.3.0).

Pure functions over the loaded submission: where the official reads a file or directory differently
from our loaders (it follows symlinks, matches README names in any case, treats every directory
under results/ as a system, cannot read a JSON file that starts with a byte-order mark).
"""
from __future__ import annotations

from checker.core.findings import Subject
from checker.core.week0 import Hit

from rules.shared.lax import lax_float

#: our loader's refusal codes for inputs the official's own reader crashes on (a traceback, exit 1)
CRASH_CODES = {"file-encoding": "UnicodeDecodeError", "nesting-too-deep": "RecursionError",
               "integer-too-long": "ValueError (int digits limit)"}
#: JSON file kind -> (official rule id that reports an unreadable copy, at the point or above it)
BOM_RULES = {"result_summary": ("result-file-valid",), "system_desc": ("system-description-present",
                                                                        "system-description-valid"),
             "accuracy": ("accuracy-valid",)}


#: stored result_summary.json values the official converts with float() outside any validation
STORED_FLOATS = ("system_tps", "tps_per_user", "system_tps_per_kw", "e2e_avg_interactivity")


def crash(sub, table) -> list[Hit]:
    """Inputs the official crashes on: non-UTF-8 text, JSON nested past Python's recursion limit, integers
    longer than 4,300 digits (our loader refuses each with the codes above; the official's raises), and a
    stored derived value in result_summary.json that float() cannot take (a word, a list)."""
    for subject, lf in sub.all_files():
        code = lf.error.code if lf.error is not None else None
        if code in CRASH_CODES and lf.kind != "config":
            return [Hit("crash", sub.subject, f"{lf.rel}: {CRASH_CODES[code]}")]
        if lf.kind == "result_summary" and lf.ok and not lf.bom and isinstance(lf.data, dict):
            for key in STORED_FLOATS:
                v = lf.data.get(key)
                if v is not None and lax_float(v) is None:
                    return [Hit("crash", sub.subject, f"{lf.rel}: {key} {type(v).__name__}")]
    return []


def bom_files(sub, table) -> list[Hit]:
    """A JSON file starting with a UTF-8 byte-order mark: the official's json.loads refuses it."""
    hits = []
    for system in sub.systems:
        if system.power is not None and system.power.bom:
            hits.append(Hit("power-descriptor", system.subject, "system_power.json starts with a BOM"))
        for curve in system.curves:
            for point in curve.points:
                for kind, rules in BOM_RULES.items():
                    lf = point.files.get(kind)
                    if lf is not None and lf.exists and lf.bom:
                        where = point.subject if kind != "system_desc" else curve.subject
                        hits.extend(Hit(r, where, f"{lf.rel} starts with a BOM") for r in rules)
                        if kind == "accuracy":
                            hits.append(Hit("accuracy-coverage", curve.subject, f"{lf.rel} unreadable"))
    return hits


def src_readme(sub, table) -> list[Hit]:
    """Every src/<impl>/ holds a README.md, its name matched in any case."""
    return [Hit("src-readme", Subject(sub.name, entry=f"src/{name}"), "no README.md")
            for name, state in sub.src_impls if state == "missing"]


def required_dir(sub, table) -> list[Hit]:
    """results/ and docs/ are directories (symlinks followed, wherever they lead)."""
    hits = []
    for name, state in (("results", sub.results_state), ("docs", sub.docs_state)):
        problem = sub.dir_problems.get(name)
        if state in ("missing", "not-dir") or (state == "error" and (problem is None
                                                                     or problem.code != "symlink-escape")):
            hits.append(Hit("required-dir", sub.subject, f"{name}/ is not a directory"))
    return hits


def config_file_present(sub, table) -> list[Hit]:
    """Every r<N>/ holds a config.yaml that parses as a YAML mapping (its content is never read)."""
    hits = []
    for point in sub.points():
        lf = point.files.get("config")
        if lf is None or not lf.exists or lf.error is not None or not isinstance(lf.data, dict):
            hits.append(Hit("config-file-present", point.subject, "config.yaml missing or not a mapping"))
    return hits


def junk_systems(sub, table) -> list[Hit]:
    """Every directory under results/ is a system to the official: debris such as __MACOSX holds no model
    directory and, in a standardized submission, no system_power.json. (Our loader keeps such entries as
    junk without their kind; a name without a dot is taken for a directory.)"""
    hits = []
    for rel, _why in sub.junk:
        parts = rel.split("/")
        if len(parts) == 2 and parts[0] == "results" and "." not in parts[1].lstrip("."):
            s = Subject(sub.name, parts[1])
            hits.append(Hit("benchmark-model-dir", s, "no model directory"))
            if _division(sub) == "standardized":
                hits.append(Hit("power-descriptor", s, "no system_power.json"))
    return hits


def config_summary(sub, table) -> list[Hit]:
    """system-description-valid, in part: `config_summary` is an object or a string of 4+ characters
    (only the curve's first readable system_desc.json is validated)."""
    hits = []
    for curve in sub.curves():
        first = next((p for p in curve.points if p.files.get("system_desc") is not None
                      and p.files["system_desc"].ok and isinstance(p.files["system_desc"].data, dict)), None)
        if first is None:
            continue
        lf = first.files["system_desc"]
        v = lf.data.get("config_summary")
        if v is not None and not isinstance(v, dict) and not (isinstance(v, str) and len(v) >= 4):
            held = f"config_summary {v!r} has {len(v)} characters" if isinstance(v, str) else \
                f"config_summary is {type(v).__name__} {v!r}"[:120]
            hits.append(Hit("system-description-valid", first.subject,
                            f"{held}; the automated check wants an object or a string of 4 or more characters",
                            lf.rel, ("config_summary",),
                            "Spell config_summary out in 4 or more characters: the parallelism values above 1 and "
                            "any notes (R§8.2), e.g. \"DP8 TP1\" or \"DP8, FP8 KV cache\"."))
    return hits


def _division(sub) -> str | None:
    for point in sub.points():
        data = point.files.get("system_desc")
        if data is not None and isinstance(data.data, dict) and isinstance(data.data.get("division"), str):
            return data.data["division"].strip().lower()
    return None


#: (the official rule ids a predicate models whole, the predicate); a predicate that models an id only in
#: part (power-descriptor here) leaves it to week0.yaml's same_trigger as well
PREDICATES = [
    (frozenset(), bom_files),
    (frozenset({"src-readme"}), src_readme),
    (frozenset({"required-dir"}), required_dir),
    (frozenset({"config-file-present"}), config_file_present),
    (frozenset({"benchmark-model-dir"}), junk_systems),
    (frozenset(), config_summary),
]


def shared_path_ok(finding, sub, policy) -> bool:
    """Our shared-path-resolution FAIL stands unless the path leaves the root only through a symlinked
    top-level directory (the official follows symlinks wherever they lead)."""
    observed = finding.observed if isinstance(finding.observed, dict) else {}
    for value in observed.values():
        if isinstance(value, str):
            top = value.strip("/").split("/")[0]
            problem = sub.dir_problems.get(top)
            if problem is not None and problem.code == "symlink-escape":
                return False
    return True


REFINE = {"shared-path-resolution": shared_path_ok}
