"""Week-0 predicates of the official's layout and file-reading rules (endpoints-submission-cli 1.5.3.0).

Pure functions over the loaded submission: where the official reads a file or directory differently
from our loaders (it follows symlinks, matches README names in any case, treats every directory
under results/ as a system, cannot read a JSON file that starts with a byte-order mark).
"""
from __future__ import annotations

import math

from checker.core.findings import Subject
from checker.core.week0 import Hit

from rules.shared import official_view as ov

#: our loader's refusal codes for inputs the official's own reader crashes on (a traceback, exit 1)
CRASH_CODES = {"file-encoding": "UnicodeDecodeError", "nesting-too-deep": "RecursionError",
               "integer-too-long": "ValueError (int digits limit)"}
#: stored result_summary.json values the official converts with float() outside any validation (system_tps
#: always, tps_per_user where a per-user rate is derived, e2e_avg_interactivity; system_tps_per_kw never)
STORED_FLOATS = ("system_tps", "tps_per_user", "e2e_avg_interactivity")


def crash(sub, policy) -> list[Hit]:
    """Inputs the official crashes on: non-UTF-8 text, JSON nested past Python's recursion limit, integers
    longer than 4,300 digits (our loader refuses each with the codes above; the official's raises); and,
    at a point whose point.yaml and result_summary.json validate, a stored derived value float() cannot
    take (a word, a list) or an output token total int() cannot (NaN, infinity)."""
    for _subject, lf in sub.all_files():
        code = lf.error.code if lf.error is not None else None
        if code in CRASH_CODES and lf.kind != "config":
            return [ov.hit("crash", sub.subject, f"{lf.rel} makes the automated check stop with "
                           f"{CRASH_CODES[code]} (it reports nothing)", lf, fix="write the file as plain UTF-8, "
                           "nested and sized as the client writes it")]
    for point in sub.points():
        cfg = ov.point_config(point, policy)
        rs = ov.summary(point, policy)
        if cfg.model is None:
            continue
        if rs.model is None:
            continue
        total = rs.model.output_sequence_lengths.total
        if not math.isfinite(total):
            return [ov.hit("crash", sub.subject, f"{rs.lf.rel}: output_sequence_lengths.total is {ov.spell(total)}, "
                           "which makes the automated check stop with an error (it reports nothing)", rs.lf,
                           ("output_sequence_lengths", "total"), "record the output token total as a number")]
        extra = rs.model.model_extra or {}
        read = [k for k in STORED_FLOATS if k != "tps_per_user" or (cfg.model.offline != "dedicated"
                                                                      and _p90_ok(rs.model))]
        for key in read:
            if extra.get(key) is not None and not _pyfloat(extra[key]):
                return [ov.hit("crash", sub.subject, f"{rs.lf.rel}: {key} is {ov.spell(extra[key])}, which makes the "
                               "automated check stop with an error (it reports nothing)", rs.lf, (key,),
                               f"write {key} as a number, or leave it out")]
    return []


def _p90_ok(s) -> bool:
    """tps_per_user is read only where tpot's 90th percentile is a finite number above 0."""
    p90 = next((v for k, v in s.tpot.percentiles.items() if float(k) == 90), None)
    return p90 is not None and math.isfinite(p90) and p90 > 0


def _pyfloat(v) -> bool:
    """Does Python's float() take it (what the official calls on a stored value)?"""
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def src_readme(sub, table) -> list[Hit]:
    """Every src/<impl>/ holds a README.md, its name matched in any case."""
    return [ov.hit("src-readme", Subject(sub.name, entry=f"src/{name}"), f"src/{name}/ holds no README.md; the automated "
                   "check wants one in every implementation directory", f"{sub.rel}/src/{name}/README.md",
                   fix=f"add src/{name}/README.md (how to build the system and reproduce a point)")
            for name, state in sub.src_impls if state == "missing"]


def required_dir(sub, table) -> list[Hit]:
    """results/ and docs/ are directories (symlinks followed, wherever they lead)."""
    hits = []
    for name, state in (("results", sub.results_state), ("docs", sub.docs_state)):
        problem = sub.dir_problems.get(name)
        if state in ("missing", "not-dir") or (state == "error" and (problem is None
                                                                     or problem.code != "symlink-escape")):
            hits.append(ov.hit("required-dir", sub.subject, f"{name}/ is {state if state != 'error' else 'unreadable'}; "
                               "the automated check wants a directory there", f"{sub.rel}/{name}/",
                               fix=f"add the {name}/ directory at the submission root"))
    return hits


def config_file_present(sub, table) -> list[Hit]:
    """Every r<N>/ holds a config.yaml that parses as a YAML mapping (its content is never read)."""
    hits = []
    for point in sub.points():
        lf = point.files.get("config")
        if lf is None or not lf.exists or lf.error is not None or not isinstance(lf.data, dict):
            why = ("is missing" if lf is None or not lf.exists else f"cannot be parsed ({lf.error.message})"
                   if lf.error is not None else f"holds {ov.yaml11_type(lf.data)}, not a mapping")
            hits.append(ov.hit("config-file-present", point.subject, f"{point.name}/config.yaml {why}; the automated "
                               "check wants the client's config.yaml, a YAML mapping, in every point directory",
                               lf if lf is not None and lf.exists else f"{point.rel}/config.yaml",
                               fix=f"copy the run's config.yaml into {point.name}/"))
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
            fix = f"remove {rel}/ from the package (every directory under results/ is a system to the automated check)"
            hits.append(ov.hit("benchmark-model-dir", s, f"{rel}/ holds no model directory; the automated check takes it "
                               "for a system", f"{sub.rel}/{rel}/", fix=fix))
            if _division(sub) == "standardized":
                hits.append(ov.hit("power-descriptor", s, f"{rel}/ has no system_power.json; the automated check takes "
                                   "it for a Standardized system", f"{sub.rel}/{rel}/", fix=fix))
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
    (frozenset({"src-readme"}), src_readme),
    (frozenset({"required-dir"}), required_dir),
    (frozenset({"config-file-present"}), config_file_present),
    (frozenset({"benchmark-model-dir"}), junk_systems),
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
