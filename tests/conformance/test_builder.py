"""--write-bundle against the official builder (endpoints-submission-cli 1.5.3.0): the same tree from the
same run folders, accepted by the official checker; and every build failure the official code hits is a
`bundle` reject of ours on the same run sets (and none where it builds)."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

import cf_run
from casefixtures import FIXTURES, apply_patch, load_case

sys.path.insert(0, FIXTURES)
import make_runs  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
#: an accuracy run beside its performance run (accuracy dataset first, a numeric duration) and a dotted model name
BUILDS = [
    {"copy": {"from": "c32", "to": "c32-accuracy"}},
    {"remove": "c32/accuracy"},
    {"set": {"file": "c32-accuracy/config.yaml", "path": ["datasets"], "value": [
        {"name": "cnn_dailymail_accuracy", "type": "accuracy", "path": "/data/cnn.jsonl", "eval_method": "rouge"}]}},
    {"set": {"file": "c32-accuracy/performance/result_summary.json", "path": ["n_samples_issued"], "value": 0}},
    {"set": {"file": "c32-accuracy/performance/result_summary.json", "path": ["duration_ns"], "value": 0}},
    {"set": {"file": "c256/point.yaml", "path": ["model_name"], "value": "llama3.1-8b"}},
]


def _runs(root: str, patches: list) -> str:
    runs = os.path.join(root, "runs")
    shutil.copytree(os.path.join(FIXTURES, "runs"), runs)  # its config_summary is one both tools accept
    for op in patches:
        apply_patch(runs, op)
    return runs


def _official_build(python: str, pairs: list[tuple[str, str]]) -> list[dict]:
    args = [a for pair in pairs for a in pair]
    out = subprocess.run([python, os.path.join(HERE, "builder_driver.py"), *args], capture_output=True, text=True,
                         timeout=600, env=cf_run.clean_env())
    assert out.returncode == 0, out.stderr[-2000:]
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def _load(path: str):
    import yaml

    with open(path, "rb") as fh:
        raw = fh.read()
    return json.loads(raw) if path.endswith(".json") else yaml.safe_load(raw) if path.endswith(".yaml") else raw


def _tree(root: str) -> dict:
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            out[os.path.relpath(p, root)] = _load(p)
    return out


def test_write_bundle_is_the_official_build(tmp_path, official_python):
    from checker.engine.pipeline import run_check

    sets = {"clean": [], "accuracy-run": BUILDS}
    pairs, ours, official_roots = [], {}, {}
    for name, patches in sets.items():
        runs = _runs(str(tmp_path / name), patches)
        ours[name] = str(tmp_path / name / "ours")
        run_check([runs], write_bundle=ours[name])
        pairs.append((runs, str(tmp_path / name / "official")))
    for (name, _p), res in zip(sets.items(), _official_build(official_python, pairs)):
        assert res["build"] is None and not any(res["runs_create"].values()), (name, res)
        official_roots[name] = res["root"]
        theirs, mine = _tree(res["root"]), _tree(ours[name])
        assert sorted(theirs) == sorted(mine), name
        for rel in theirs:
            if rel.endswith("system_desc.json"):
                # the builder rewrites it through its own schema (null fields added, disaggregated a bool,
                # division/availability from its command line); what it computes must agree
                assert theirs[rel].get("tps_utilization") == pytest.approx(mine[rel].get("tps_utilization")), rel
            else:
                assert theirs[rel] == mine[rel], (name, rel)
    # the compliant set: the official checker accepts what --write-bundle wrote (and so does ours)
    verdict = subprocess.run([official_python, os.path.join(HERE, "official_driver.py"), ours["clean"]],
                             capture_output=True, text=True, timeout=600, env=cf_run.clean_env())
    doc = json.loads(verdict.stdout.splitlines()[0])
    assert doc["passed"] and not doc["crash"], doc
    assert not [f for f in run_check([ours["clean"]]).findings if f.status.value == "FAIL"]
    # and ours accepts what the official code wrote, its rewritten system_desc.json included (issue 15)
    theirs = [f"{f.rule_id}: {f.message}" for f in run_check([official_roots["clean"]]).findings
              if f.status.value == "FAIL"]
    assert not theirs, theirs


def test_builder_system_desc_is_accepted(tmp_path, official_python):
    """fixtures/valid with every system_desc.json rewritten by the official builder's own code (its schema
    round trip: official-only fields and unset optional ones written as null, disaggregated 1 -> true,
    division and availability from the command line): no FAIL of ours, no unknown key (issue 15)."""
    from checker.engine.pipeline import run_check

    tree = str(tmp_path / "valid")
    shutil.copytree(os.path.join(FIXTURES, "valid"), tree)
    out = subprocess.run([official_python, os.path.join(HERE, "builder_driver.py"), "--system-desc", tree],
                         capture_output=True, text=True, timeout=600, env=cf_run.clean_env())
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.splitlines()[0])
    assert not res["errors"] and len(res["rewritten"]) == 8, res
    written = _load(os.path.join(tree, res["rewritten"][0]))
    # the rewrite happened: what the schema adds and normalises is there
    assert written["disaggregated"] is True and written["submitter_org_names"] is None, written
    assert written["target_availability_date"] is None and "c_min_override" not in written, written
    fails = [f"{f.rule_id} {f.subject.label()}: {f.message}" for f in run_check([tree]).findings
             if f.status.value == "FAIL"]
    assert not fails, fails


#: rules/bundle/cases whose FAIL is a build failure (reject): the official code must stop on each
BUILD_FAILURE_CASES = [
    "bundle-run-files/missing-point-yaml.yaml", "bundle-run-files/missing-config.yaml",
    "bundle-run-files/accuracy-only-null-duration.yaml", "bundle-run-files/point-yaml-not-a-mapping.yaml",
    "bundle-run-kind/accuracy-plus-performance.yaml", "bundle-run-kind/no-information.yaml",
    "bundle-point-filing/concurrency-not-a-number.yaml", "bundle-point-collision/two-performance-runs.yaml",
    "bundle-point-collision/offline-at-a-point.yaml", "bundle-point-collision/two-accuracy-runs.yaml",
    "bundle-curve-values/max-concurrency-differs.yaml", "bundle-curve-values/max-concurrency-missing.yaml",
    "bundle-curve-values/c-min-override-differs.yaml", "bundle-curve-values/c-min-override-not-a-point.yaml",
    "bundle-power-copies/differing-copies.yaml", "bundle-shared-paths/declared-unresolvable.yaml",
    "bundle-shared-paths/not-injectable.yaml", "bundle-shared-paths/dot-dot.yaml",
    "bundle-sources/no-readme.yaml", "bundle-sources/no-source.yaml",
]
#: cases where both build: the checker must report no build failure
BUILDS_TOO = ["bundle-run-kind/config-decides.yaml", "bundle-point-filing/model-name-slug.yaml",
              "bundle-point-filing/concurrency-from-config.yaml", "bundle-power-copies/formatting-only.yaml",
              "bundle-sources/readme-any-case.yaml", "bundle-point-collision/mode-both-and-accuracy-run.yaml"]


def test_build_failures_agree_with_the_official_code(tmp_path, official_python):
    from checker.engine.pipeline import run_check

    cases = BUILD_FAILURE_CASES + BUILDS_TOO
    pairs, ours = [], []
    for i, rel in enumerate(cases):
        case = load_case(os.path.join(FIXTURES, "..", "rules", "bundle", "cases", rel))
        runs = _runs(str(tmp_path / str(i)), case.get("patch") or [])
        report = run_check([runs], select=["bundle"])
        ours.append({f.subject.point or f.subject.label() for f in report.findings
                     if f.status.value == "FAIL" and f.severity.value == "reject"})
        pairs.append((runs, str(tmp_path / str(i) / "official")))
    problems = []
    for rel, res, mine in zip(cases, _official_build(official_python, pairs), ours):
        refused = {k for k, v in res["runs_create"].items() if v}
        stops = bool(refused) or res["build"] is not None
        if stops != (rel in BUILD_FAILURE_CASES) or stops != bool(mine):
            problems.append(f"{rel}: official {res}, ours {sorted(mine)}")
        elif refused and not refused <= mine:
            problems.append(f"{rel}: runs create refuses {sorted(refused)}, we name {sorted(mine)}")
    assert not problems, "\n".join(problems)
