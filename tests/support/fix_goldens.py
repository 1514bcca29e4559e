"""Golden diffs of ``check --diff``: one per fix kind, on hand-written files with unusual formatting.

Each case copies fixtures/valid, replaces r64/point.yaml with fixtures/fixes/point-unusual.yaml
(comments, flow style, quoted keys, an anchor and its alias, a folded scalar; CRLF where the case
says so), spoils one thing with a regular expression, and records the diff --fix would apply. The
goldens live in tests/golden/fixes/<case>.diff (``make golden`` rewrites them).
"""
from __future__ import annotations

import os
import re
import shutil

from casefixtures import FIXTURES, PLACEHOLDERS

GOLDEN_FIXES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "golden", "fixes")
UNUSUAL = os.path.join(FIXTURES, "fixes", "point-unusual.yaml")
POINT = f"{PLACEHOLDERS['{curve}']}/r64/point.yaml"
SYSDESC = f"{PLACEHOLDERS['{curve}']}/r64/system_desc.json"

#: case -> (file, [(pattern, replacement)], CRLF line endings?, a byte-order mark?)
CASES = {
    "unknown-key-quoted": (POINT, [(r'^"seed_set": A', '"seedset": A')], False, False),
    "unknown-key-in-flow-mapping": (POINT, [(r"stream_all_chunks: true", "Stream-All-Chunks: true")], False, False),
    "unknown-key-nested-crlf": (POINT, [(r"^    data_source:", "    datasource:")], True, False),
    "integral-float-anchor-and-alias": (POINT, [(r"&c 64 ", "&c 64.0")], False, False),
    "yaml11-boolean-in-flow-mapping": (POINT, [(r"stream_all_chunks: true", "stream_all_chunks: yes")], False, False),
    "quoted-number": (POINT, [(r"^max_supported_concurrency: 1024", 'max_supported_concurrency: "1024"')], False, False),
    "quoted-boolean": (POINT, [(r"logs_retained: true", "logs_retained: 'true'")], False, False),
    "model-alias-single-quoted": (POINT, [(r"'llama3_1-8b'   #", "'llama3.1-8b'   #")], False, False),
    "region-missing-after-commented-line": (POINT, [(r"^region: submitters_choice # an extra point\n", "")], False,
                                            False),
    "region-missing-crlf": (POINT, [(r"^region: submitters_choice # an extra point\r\n", "")], True, False),
    "region-wrong": (POINT, [(r"^region: submitters_choice", "region: low_concurrency")], False, False),
    "seed-the-run-used": (POINT, [(r"sample_index_rng_seed: 586478644936801402", "sample_index_rng_seed: 42")],
                          False, False),
    "seed-v07-name": (POINT, [(r"scheduler_rng_seed:", "scheduler_random_seed:")], False, False),
    "seed-set-case": (POINT, [(r'^"seed_set": A', '"seed_set": a')], False, False),
    "json-byte-order-mark": (SYSDESC, [], False, True),
    "json-key-rename-nested": (SYSDESC, [(r'"host_processor_model_name"', '"host_processor_modelname"')], False, False),
    "json-quoted-number": (SYSDESC, [(r'"host_processors_per_node": 2', '"host_processors_per_node": "2"')], False,
                           False),
}


def materialise(case: str, parent: str, name: str = "pkg") -> str:
    """Write the case's package under ``parent/name``; return its path."""
    rel, subs, crlf, bom = CASES[case]
    root = os.path.join(parent, name)
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    with open(UNUSUAL, encoding="utf-8") as fh:
        unusual = fh.read()
    with open(os.path.join(root, POINT), "w", encoding="utf-8", newline="") as fh:
        fh.write(unusual.replace("\n", "\r\n") if crlf and rel == POINT else unusual)
    path = os.path.join(root, rel)
    with open(path, encoding="utf-8", newline="") as fh:
        text = fh.read()
    for pattern, repl in subs:
        text, n = re.subn(pattern, repl, text, count=1, flags=re.M)
        assert n == 1, f"{case}: {pattern!r} matched nothing"
    with open(path, "w", encoding="utf-8", newline="") as fh:
        fh.write(("\ufeff" if bom else "") + text)
    return root


def fix_diff(case: str, parent: str) -> tuple[str, object]:
    """(the --diff of the case's package, checked from ``parent``; the fix section)."""
    from checker.cli import fixing
    from checker.engine.pipeline import run_check

    materialise(case, parent)
    here = os.getcwd()
    os.chdir(parent)
    try:
        report, text = fixing.run("diff", lambda bundle, reads=None: run_check(["pkg"], reads=reads), ["pkg"], None)
    finally:
        os.chdir(here)
    return text, report.sections["fix"]


def main(tmp: str) -> None:
    os.makedirs(GOLDEN_FIXES, exist_ok=True)
    for case in CASES:
        work = os.path.join(tmp, case)
        os.makedirs(work)
        text, _ = fix_diff(case, work)
        with open(os.path.join(GOLDEN_FIXES, f"{case}.diff"), "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
        print(f"wrote tests/golden/fixes/{case}.diff")
