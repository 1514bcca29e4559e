"""Every fixture file of a kind that has a schema in schemas/, and every golden JSON report, validates
against that schema with jsonschema (issue 24): the schemas describe the files the checker is tested on.

Files that exist to be invalid (the broken registry overrides the registry rules are tested with) are
listed in EXPECTED_INVALID with the reason: strict expected failures, so each must still fail and the
list cannot go stale.
YAML is read with the checker's own reader (YAML 1.2, as the checker reads it), JSON with json.
"""
from __future__ import annotations

import functools
import json
import os

import pytest
from jsonschema import validators

from conftest import REPO

FIXTURES = os.path.join(REPO, "fixtures")
GOLDEN = os.path.join(REPO, "tests", "golden")

#: package and run-folder files by name -> their schema under schemas/ (config.yaml and final_snapshot.json:
#: the client's files, every real run folder's among them)
PACKAGE_FILES = {"point.yaml": "point.schema.json", "result_summary.json": "result_summary.schema.json",
                 "system_desc.json": "system_desc.schema.json", "system_power.json": "system_power.schema.json",
                 "config.yaml": "config.schema.json", "final_snapshot.json": "final_snapshot.schema.json",
                 "steady_state.json": "steady_state.schema.json"}
#: fixture folders of option files (not named like a package file) -> their schema
OPTION_DIRS = {"plans": "point.schema.json", "fixes": "point.schema.json",
               "overrides/seed_sets": "policy/seed_sets.schema.json",
               "overrides/approved_drafters": "policy/approved_drafters.schema.json"}
#: golden reports by extension -> their schema
GOLDEN_REPORTS = {".json": "report.schema.json", ".sarif": "sarif-2.1.0.schema.json"}

#: fixtures meant to be invalid (path under fixtures/ -> why); the registry rules' tests feed them in
EXPECTED_INVALID = {
    "overrides/approved_drafters/empty.yaml": "an empty file: no drafter list at all",
    "overrides/approved_drafters/not-yaml.yaml": "not YAML: the drafter-list-registry parse failure",
    "overrides/approved_drafters/wrong-shape.yaml": "drafters as a mapping instead of a list",
    "overrides/seed_sets/empty.yaml": "an empty file: no seed-set registry at all",
    "overrides/seed_sets/not-yaml.yaml": "not YAML: the seed-set-registry parse failure",
    "overrides/seed_sets/seed-2-64.yaml": "a seed of 2**64, one past the 64-bit range",
    "overrides/seed_sets/seed-as-string.yaml": "a seed written as a quoted string",
    "overrides/seed_sets/seed-negative.yaml": "a negative seed",
    "overrides/seed_sets/wrong-shape-list.yaml": "a bare list, neither the published nor the seed_sets: shape",
}


def _cases() -> list[tuple[str, str]]:
    """(path, schema) for every fixture file with a schema and every golden JSON report."""
    out = []
    for dirpath, dirnames, filenames in os.walk(FIXTURES):
        dirnames.sort()
        out += [(os.path.join(dirpath, f), PACKAGE_FILES[f]) for f in sorted(filenames) if f in PACKAGE_FILES]
    for folder, schema in OPTION_DIRS.items():
        root = os.path.join(FIXTURES, folder)
        out += [(os.path.join(root, f), schema) for f in sorted(os.listdir(root))]
    for f in sorted(os.listdir(GOLDEN)):
        ext = os.path.splitext(f)[1]
        if ext in GOLDEN_REPORTS:
            out.append((os.path.join(GOLDEN, f), GOLDEN_REPORTS[ext]))
    return out


CASES = _cases()


@functools.cache
def _validator(schema: str):
    with open(os.path.join(REPO, "schemas", schema), encoding="utf-8") as fh:
        doc = json.load(fh)
    cls = validators.validator_for(doc)
    cls.check_schema(doc)
    return cls(doc)


def _problems(path: str, schema: str) -> list[str]:
    """What keeps the file from fitting its schema (a file that cannot be read as YAML/JSON is one problem)."""
    from checker.load.yaml_reader import YamlLoadError, parse_yaml

    with open(path, encoding="utf-8-sig") as fh:
        text = fh.read()
    try:
        doc = json.loads(text) if path.endswith((".json", ".sarif")) else parse_yaml(text, want_positions=False).data
    except (ValueError, YamlLoadError) as exc:
        return [f"unreadable: {exc}"]
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message[:200]}"
            for e in _validator(schema).iter_errors(doc)]


def _id(case) -> str:
    return os.path.relpath(case[0], REPO)


def test_the_walk_finds_every_kind():
    """The fixture tree holds each kind, and every expected failure is among the files checked."""
    schemas = {s for _, s in CASES}
    assert schemas == set(PACKAGE_FILES.values()) | set(OPTION_DIRS.values()) | set(GOLDEN_REPORTS.values())
    assert sum(1 for p, _ in CASES if p.endswith("point.yaml")) >= 20
    checked = {os.path.relpath(p, FIXTURES) for p, _ in CASES}
    assert set(EXPECTED_INVALID) <= checked


def _params():
    for case in CASES:
        why = EXPECTED_INVALID.get(os.path.relpath(case[0], FIXTURES))
        marks = [pytest.mark.xfail(reason=f"meant to be invalid: {why}", strict=True)] if why else []
        yield pytest.param(case, id=_id(case), marks=marks)


@pytest.mark.parametrize("case", list(_params()))
def test_fixture_or_golden_fits_its_schema(case):
    path, schema = case
    problems = _problems(path, schema)
    assert not problems, f"{_id(case)} does not fit schemas/{schema}:\n" + "\n".join(problems[:10])



def _accuracy_files() -> list[str]:
    """Every accuracy_results.json of the fixtures, the official corpus's included."""
    out = []
    for dirpath, dirnames, filenames in os.walk(FIXTURES):
        dirnames.sort()
        out += [os.path.join(dirpath, f) for f in sorted(filenames) if f == "accuracy_results.json"]
    return out


ACCURACY_FILES = _accuracy_files()


def _accepted_accuracy(path: str):
    """The loaded file when the rules accept it (it loads and accuracy-valid finds no problem), else None."""
    from checker.load.models.attach import attach_model
    from checker.load.reader import read_file
    from rules.accuracy.view import view_of

    lf = read_file("accuracy", os.path.basename(path), path, os.path.realpath(os.path.dirname(path)))
    attach_model(lf)
    return lf if lf.ok and not view_of(lf).problems else None


def test_accuracy_files_are_found():
    assert len(ACCURACY_FILES) >= 20
    official = [p for p in ACCURACY_FILES if "official-corpus" in p]
    assert official and any(_accepted_accuracy(p) is not None for p in official)


@pytest.mark.parametrize("path", ACCURACY_FILES, ids=lambda p: os.path.relpath(p, FIXTURES))
def test_accepted_accuracy_file_fits_its_schema(path):
    """An accuracy file the rules accept fits schemas/accuracy_results.schema.json as written, or once
    its loose spellings are read (a quoted score, ``13368.0``: the value-spelling warning, not a reject).
    Files the rules reject are not asked to fit or not to fit: the schema holds no cross-field check."""
    lf = _accepted_accuracy(path)
    if lf is None:
        pytest.skip("rejected by accuracy-valid")
    problems = _problems(path, "accuracy_results.schema.json")
    if problems and lf.spellings:
        problems = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}"
                    for e in _validator("accuracy_results.schema.json").iter_errors(lf.data)]
    assert not problems, f"{os.path.relpath(path, FIXTURES)}:\n" + "\n".join(problems[:10])
