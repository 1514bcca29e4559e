"""Cohorts for the every-output test (tests/render/test_every_output.py), built from fixtures/valid plus patches.

``build_cohort`` writes four submissions, each a case every output must tell the same way::

    alpha/a-01    clean: the rules and the Week-0 check accept
    bravo/b-01    a reject-points error (r64 ran incomplete: run-complete), a Week-0 reject of r1 (its
                  config_summary has 3 characters), and a stray notes.txt the waivers file waives
    bravo/b-02    the system of b-01 described with twice its host memory: a cross-submission flag
    charlie/c-01  a fixable warning at r8 (concurrency 8.0), in the baseline already

with ``waivers.yaml`` and ``baseline.json`` (a report of the cohort as it was: b-01 complete, and c-01 with a
stray file since removed, so the run has new, unchanged and resolved problems). ``build_eight`` writes the
issue's cohort of 8, where only gamma/g-02 is rejected at Week 0.
"""
from __future__ import annotations

import os
import shutil

import yaml

from casefixtures import FIXTURES, apply_patch, make_writable

POINTS = ("r1", "r4", "r8", "r32", "r64", "r256", "r1024", "r13368")
#: the Week-0 check wants a config_summary of 4 characters or more: every copy gets one, unless a case says
ACCEPTED_SUMMARY = [{"set": {"file": f"{{curve}}/{p}/system_desc.json", "path": ["config_summary"],
                             "value": "DP8 TP1"}} for p in POINTS]
WEEK0_REJECT = [{"set": {"file": "{curve}/r1/system_desc.json", "path": ["config_summary"], "value": "DP8"}}]

#: what every run of the cohort holds (the baseline's and the checked one)
CASES = {
    "alpha/a-01": [],
    "bravo/b-01": [{"write": {"file": "notes.txt", "text": "left over\n"}}] + WEEK0_REJECT,
    "bravo/b-02": [{"set": {"file": f"{{curve}}/{p}/system_desc.json",
                            "path": ["node_types", 0, "host_memory_capacity"], "value": "4 TB"}} for p in POINTS],
    "charlie/c-01": [{"sub": {"file": "{curve}/r8/point.yaml", "pattern": r"^concurrency: 8$",
                              "repl": "concurrency: 8.0", "count": 1}}],
}
#: the cohort as the baseline saw it: c-01 with a stray file
BEFORE = {"charlie/c-01": [{"write": {"file": "old.txt", "text": "stray\n"}}]}
#: then: the stray file removed (resolved), and b-01's r64 ran incomplete (new)
AFTER = {"charlie/c-01": [{"remove": "old.txt"}],
         "bravo/b-01": [{"set": {"file": "{curve}/r64/result_summary.json", "path": ["complete"], "value": False}}]}
WAIVERS = {"version": 1, "waivers": [{"rule": "unexpected-entry", "subject": "bravo/b-01/*",
                                      "reason": "a note for the reviewers", "approver": "R. Viewer",
                                      "expires": "2026-12-31"}]}
TODAY = "2026-06-01"


def _copy(dest: str, patches: list) -> None:
    shutil.copytree(os.path.join(FIXTURES, "valid"), dest, symlinks=True)
    make_writable(dest)
    for op in patches:
        apply_patch(dest, op)


def build_cohort(root: str) -> dict[str, str]:
    """Write the cohort under ``root/cohort`` with its waivers and baseline; return their paths."""
    from checker.engine.pipeline import run_check
    from checker.render import render

    cohort = os.path.join(root, "cohort")
    for label, patches in CASES.items():
        _copy(os.path.join(cohort, label), ACCEPTED_SUMMARY + patches + BEFORE.get(label, []))
    here = os.getcwd()
    os.chdir(root)
    try:
        baseline = os.path.join(root, "baseline.json")
        with open(baseline, "w", encoding="utf-8") as fh:
            fh.write(render("json", run_check(["cohort"], jobs=1)))
    finally:
        os.chdir(here)
    for label, patches in AFTER.items():
        for op in patches:
            apply_patch(os.path.join(cohort, label), op)
    waivers = os.path.join(root, "waivers.yaml")
    with open(waivers, "w", encoding="utf-8") as fh:
        yaml.safe_dump(WAIVERS, fh, sort_keys=False)
    return {"cohort": cohort, "waivers": waivers, "baseline": baseline}


def build_eight(root: str) -> str:
    """The issue's cohort of 8 (two submissions of four organisations): only gamma/g-02 is rejected at Week 0."""
    cohort = os.path.join(root, "eight")
    for org in ("alpha", "beta", "gamma", "delta"):
        for i in (1, 2):
            label = f"{org}/{org[0]}-0{i}"
            _copy(os.path.join(cohort, label), ACCEPTED_SUMMARY + (WEEK0_REJECT if label == "gamma/g-02" else []))
    return cohort
