"""The generated point.yaml and system_desc.json schemas: they list what the rules allow (and take the
policy's vocabularies), while the models still accept any value of the type at run time, so each wrong
value is reported by its rule with a clause and a fix, not as a type error."""
from __future__ import annotations

import copy
import json
import os

import pytest
from jsonschema import Draft202012Validator

from conftest import REPO

POINT = {"concurrency": 8, "region": "low_latency", "division": "Standardized", "target_cohort": "2026-10-C1",
         "runtime_settings": {"stream_all_chunks": True, "runtime": {"model_seed": 5}},
         "model_equivalence": {"checkpoint": {"source": "canonical"}, "techniques": ["fp8-kv-cache"]}}
DESC = {"division": "Standardized", "system_name": "S", "shortened_system_name": "S",
        "system_availability_status": "RDI", "system_size": "8 accelerators", "system_node_ensemble_count": 1,
        "system_node_ensemble_total": 1, "max_supported_concurrency": 64,
        "node_types": [{"host_memory_configuration": "16x64GB", "host_network_card_count": "8", "driver": "d",
                        "filesystem": "ext4", "host_processor_core_count": 64}]}


def _validator(name: str) -> Draft202012Validator:
    with open(os.path.join(REPO, "schemas", name), encoding="utf-8") as fh:
        return Draft202012Validator(json.load(fh))


def _with(doc: dict, path: tuple, value) -> dict:
    out = copy.deepcopy(doc)
    node = out
    for step in path[:-1]:
        node = node[step]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return out


@pytest.mark.parametrize("path, value, ok", [
    ((), None, True),
    (("region",), "margin", True),  # the curve policy's region_values (the official accepts it)
    (("region",), "mid", False),
    (("runtime_settings", "stream_all_chunks"), "yes", True),  # a YAML 1.1 word: advice, not a reject
    (("concurrency",), 0, False),
    (("target_cohort",), "2026-10", False),
    (("model_equivalence", "checkpoint", "source"), "mine", False),
    (("model_equivalence", "quantisation"), {}, False),  # the convention's blocks are closed
    (("unknown_key",), 1, True),  # point.yaml itself is open
])
def test_point_schema(path, value, ok):
    doc = POINT if not path else _with(POINT, path, value)
    assert (not list(_validator("point.schema.json").iter_errors(doc))) is ok


@pytest.mark.parametrize("path, value, ok", [
    ((), None, True),
    (("shortened_system_name",), "x" * 21, False),
    (("system_availability_status",), "Available", False),  # Available requires availability_url
    (("system_availability_status",), KeyError, False),
    (("max_supported_concurrency",), 32, False),
    (("node_types", 0, "host_processor_core_count"), KeyError, False),  # neither core nor vCPU count
    (("node_types", 0, "driver"), KeyError, False),
    (("submission_date",), "2026-01-01", True),  # tolerated official keys
])
def test_system_desc_schema(path, value, ok):
    doc = DESC if not path else _with(DESC, path, value)
    if path == ("system_availability_status",) and value is KeyError:
        assert not list(_validator("system_desc.schema.json").iter_errors({**doc, "publication_status": "rdi"}))
    assert (not list(_validator("system_desc.schema.json").iter_errors(doc))) is ok


def test_the_models_still_accept_what_the_rules_report():
    from checker.core.models import validate
    from checker.load.models.point import PointYaml
    from checker.load.models.system_desc import SystemDesc

    point, problems = validate(PointYaml, {**POINT, "region": "mid", "concurrency": 0, "target_cohort": "x"})
    assert point is not None and not problems and point.region == "mid"
    desc, problems = validate(SystemDesc, {"shortened_system_name": "x" * 40, "max_supported_concurrency": 8,
                                           "system_availability_status": "soon"})
    assert desc is not None and not problems
    _, problems = validate(PointYaml, {"concurrency": "8"})  # a type is still a type
    assert [p.path for p in problems] == [("concurrency",)]
