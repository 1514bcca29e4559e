"""How the Week-0 model reads files: YAML the PyYAML (1.1) way, values with pydantic's lax mode, and each
file through the official's schema table (rules/policy/v1.0/week0_schemas.yaml)."""
from __future__ import annotations

import json
import os

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.engine.policy import load_policy
from rules.shared import official_schema, yaml11
from rules.shared.lax import lax_float, lax_int

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
POINT = os.path.join(REPO, "fixtures", "valid", "results", "H200-SXM-141GBx8_TRT", "llama3_1-8b", "r1")

SCALARS = ["yes", "No", "on", "OFF", "y", "true", "010", "09", "0o17", "0x1F", "0b101", "1_000", "1:30", "1:30.5",
           "1e3", "1.0e3", "1.0e+3", "-.5", ".5", "1.", ".inf", "-.Inf", ".nan", "2026-01-01", "2026-1-1", "~",
           "null", "8", "+8", "-0", "2026-11-C0", "DP8", "12:00:00"]


@pytest.mark.parametrize("text", SCALARS)
def test_a_plain_scalar_reads_as_pyyaml_reads_it(text):
    want = yaml.safe_load(f"v: {text}")["v"]
    got = yaml11.resolve(text)
    if isinstance(want, float) and want != want:
        assert got != got
    elif not isinstance(want, (str, int, float, bool, type(None))):
        return  # a date or a timestamp: no schema field takes either
    else:
        assert (type(got), got) == (type(want), want)


@settings(max_examples=300, deadline=None)
@given(st.from_regex(r"\A[-+]?[0-9_.:eExXoObB]{1,8}\Z"))
def test_numeric_looking_scalars_read_as_pyyaml(text):
    try:
        want = yaml.safe_load(f"v: {text}")["v"]
    except (yaml.YAMLError, ValueError):
        return  # PyYAML itself refuses it (e.g. 0b with no digits): not a file anyone can submit
    if not isinstance(want, (str, int, float, bool, type(None))):
        return
    got = yaml11.resolve(text)
    if isinstance(want, float) and want != want:
        assert got != got
    else:
        assert (type(got), got) == (type(want), want), text


@pytest.mark.parametrize("value, want", [("8", 8), (" 8 ", 8), ("8.0", 8), (8.0, 8), (True, 1), ("1_000", 1000),
                                         ("1e3", None), (8.5, None), ("eight", None), (None, None)])
def test_lax_int_is_pydantics(value, want):
    assert lax_int(value) == want


def test_lax_float_reads_exponents():
    assert lax_float("1e3") == 1000.0 and lax_float("fast") is None


@pytest.fixture(scope="module")
def table():
    return load_policy().get("week0_schemas")


def _doc(name):
    with open(os.path.join(POINT, name), encoding="utf-8") as fh:
        return json.load(fh) if name.endswith(".json") else yaml.safe_load(fh)


def test_the_bundled_files_validate_and_a_short_config_summary_does_not(table):
    assert official_schema.problems(table, "point_yaml", _doc("point.yaml")) == []
    assert official_schema.problems(table, "result_summary", _doc("result_summary.json")) == []
    assert official_schema.problems(table, "accuracy", _doc("accuracy_results.json")) == []
    desc = _doc("system_desc.json")
    assert official_schema.problems(table, "system_desc", desc) == []
    assert official_schema.problems(table, "system_desc", {**desc, "config_summary": "DP8"}) == [
        ("system-description-valid", ("config_summary",),
         'config_summary "DP8" has 3 characters; the automated check wants 4 or more',
         "write config_summary with at least 4 characters")]


@pytest.mark.parametrize("path, value, ok", [
    (("node_types", 0, "host_network_card_count"), 2, False),   # a number where text is declared
    (("node_types", 0, "host_network_card_count"), "2", True),
    (("disaggregated",), 2, False),                              # a bool takes 0/1 only
    (("disaggregated",), 1, True),
    (("max_supported_concurrency",), "1024", True),              # a quoted int passes
    (("max_supported_concurrency",), 1024.5, False),
    (("division",), " standardized ", True),                     # any case, trimmed
    (("division",), "Closed", False),
    (("shortened_system_name",), "x" * 21, False),
    (("availability_url",), " ", False),                        # blank is none: Available needs a URL
    (("c_min_override",), 8.0, False),                           # a JSON integer only
    (("c_min_override",), 8, True),
    (("tps_utilization",), "0.5", True),
])
def test_system_desc_fields(table, path, value, ok):
    doc = _doc("system_desc.json")
    doc["config_summary"] = "DP8 in-flight batching"
    cur = doc
    for step in path[:-1]:
        cur = cur[step]
    cur[path[-1]] = value
    found = official_schema.problems(table, "system_desc", doc)
    assert (found == []) == ok, found
    if not ok:
        rule, where, why, fix = found[0]
        assert why and fix and where[:len(path) - 1] == path[:-1]


def test_every_named_check_exists(table):
    from rules.shared.official_checks import CHECKS

    named = set()
    for model in table.models.values():
        named |= set(model.get("before", [])) | set(model.get("after", []))
        for spec in model.get("fields", {}).values():
            if isinstance(spec, dict):
                named |= set(spec.get("before", [])) | set(spec.get("after", []))
    assert named <= set(CHECKS), named - set(CHECKS)
