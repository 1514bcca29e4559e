"""Hostile input, round two (issue 17): every field of every file kind.

A generator picks a file of the valid package or of a real run folder, a field in it (any path, down
to list items and nested keys, or the whole document), and a hostile value (deep, huge, NaN, lone
surrogates, controls, wrong types, long lists); the check must end in findings: no exception, no
internal-error finding (a last resort, never a handling strategy), a report that validates, and every
output format written.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import assert_valid_report
from hostile_gen import (CURVE, EXT, FORMATS, REAL_RUNS, VALID, data_paths, dump_json, hostile_values,
                         internal_errors, realise, set_path, slow)

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

SYSTEM = os.path.dirname(CURVE)
PACKAGE_FILES = [f"{CURVE}/r64/{n}" for n in ("point.yaml", "system_desc.json", "result_summary.json", "config.yaml")] \
    + [f"{CURVE}/r32/accuracy_results.json", f"{SYSTEM}/system_power.json", f"{CURVE}/r1/point.yaml"]
RUN_FILES = ["config.yaml", "performance/result_summary.json", "metrics/final_snapshot.json",
             "accuracy/accuracy_results.json"]


def _parse(path: str):
    from checker.load.yaml_reader import parse_yaml

    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return json.loads(text) if path.endswith(".json") else parse_yaml(text, want_positions=False).data


_PATHS: dict = {}


def _paths(path: str) -> list:
    if path not in _PATHS:
        _PATHS[path] = [p for p, _v in data_paths(_parse(path))]
    return _PATHS[path]


def _mutate(root: str, rel: str, data) -> None:
    target = os.path.join(root, rel)
    doc = _parse(target)
    where = data.draw(st.sampled_from(_paths(target)), label=f"{rel}: path")
    value = realise(data.draw(hostile_values, label="value"))
    doc = set_path(doc, where, value)
    with open(target, "wb") as fh:
        fh.write(dump_json(doc).encode("utf-8", "surrogatepass"))


def _check_all_outputs(paths: list[str], out_dir: str):
    from checker.cli.main import _is_dir_output
    from checker.cli.output import emit
    from checker.engine.pipeline import run_check

    rep = run_check(paths, jobs=1)
    assert not internal_errors(rep.findings), internal_errors(rep.findings)
    pairs = [(fmt, os.path.join(out_dir, f"r.{EXT[fmt]}")) for fmt in FORMATS]
    done = emit(rep, pairs, {}, _is_dir_output)
    assert done.ok, done.problems
    with open(pairs[0][1], "rb") as fh:
        assert_valid_report(json.load(fh))
    return rep


@slow(20)
@given(st.lists(st.sampled_from(PACKAGE_FILES), min_size=1, max_size=3, unique=True), st.data())
def test_package_fields(tmp_path, files, data):
    d = tempfile.mkdtemp(dir=tmp_path)
    root = os.path.join(d, "sub")
    shutil.copytree(VALID, root)
    for rel in files:
        _mutate(root, rel, data)
    rep = _check_all_outputs([root], d)
    assert rep.exit_code() in (0, 1)


@slow(12)
@given(st.sampled_from(["var_poisson_perf", "echo_accuracy_only", "var_concurrency_allchunks"]),
       st.lists(st.sampled_from(RUN_FILES), min_size=1, max_size=2, unique=True), st.data())
def test_run_folder_fields(tmp_path, run, files, data):
    d = tempfile.mkdtemp(dir=tmp_path)
    root = os.path.join(d, "run")
    shutil.copytree(os.path.join(REAL_RUNS, run), root)
    for rel in files:
        if os.path.exists(os.path.join(root, rel)):
            _mutate(root, rel, data)
    rep = _check_all_outputs([root], d)
    assert rep.exit_code() in (0, 1)
