"""system_desc.json: the model, the schema, validity of one copy, and the copy comparison."""
import json
import os

import jsonschema
import pytest

from casefixtures import FIXTURES, PLACEHOLDERS
from checker.core.models import keys_of as fields_of
from checker.load.models.lenient import validate_lenient
from checker.load.models.keys import unknown_keys
from checker.load.models.system_desc import TOLERATED_KEYS, SystemDesc
from checker.load.reader import LoadedFile
from checker.engine.policy import load_policy
from checker.engine.catalogue import all_rules
from rules.system_description.fields import validity_problems
from rules.system_description.consistency import diff, dotted

all_rules()
POL = load_policy().get("system_desc")
REPO = os.path.dirname(FIXTURES)
VALID = os.path.join(FIXTURES, "valid", PLACEHOLDERS["{curve}"], "r64", "system_desc.json")
SCHEMA = os.path.join(REPO, "schemas", "system_desc.schema.json")


def valid_data() -> dict:
    with open(VALID, encoding="utf-8") as fh:
        return json.load(fh)


def problems(data) -> list[str]:
    lf = LoadedFile(kind="system_desc", rel="x/system_desc.json", abspath="/nonexistent", exists=True, data=data)
    lf.model, lf.field_errors = validate_lenient(SystemDesc, data)
    return [m for _, m in validity_problems(lf, POL)]


def test_valid_fixture_has_no_problem():
    assert problems(valid_data()) == []


def test_schema_is_valid_and_accepts_the_fixture():
    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    jsonschema.Draft202012Validator.check_schema(schema)
    assert not list(jsonschema.Draft202012Validator(schema).iter_errors(valid_data()))


def test_schema_covers_every_model_field():
    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    top = set(schema["properties"])
    legacy = {"availability_status", "publication_status", "cooling"}
    assert set(fields_of(SystemDesc)) - legacy <= top
    from checker.lsp.hover import _resolve, field_schema
    from checker.load.models.system_desc import AcceleratorInfo, NodeType

    def obj(path):  # the object member of the Optional[...] at path, the generated schema's $defs resolved
        node = field_schema(schema, path)[1]
        return next(a for a in map(lambda x: _resolve(schema, x), node.get("anyOf") or (node,)) if "properties" in a)

    node = obj(("node_types", 0))
    assert set(fields_of(NodeType)) <= set(node["properties"])
    acc = obj(("node_types", 0, "accelerator_info", 0))
    assert set(fields_of(AcceleratorInfo)) <= set(acc["properties"])


def test_schema_rejects_what_the_rule_rejects():
    with open(SCHEMA, encoding="utf-8") as fh:
        v = jsonschema.Draft202012Validator(json.load(fh))
    d = valid_data()
    d["shortened_system_name"] = "x" * 21
    assert list(v.iter_errors(d))
    d = valid_data()
    d["system_availability_status"] = "Preview"
    assert list(v.iter_errors(d))


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d.pop("system_name"), "`system_name` is missing"),
    (lambda d: d.update(shortened_system_name="Acme HGX H200 8-GPU cluster"), "allowed 1-20"),
    (lambda d: d.update(shortened_system_name=""), "`shortened_system_name` is missing or empty"),
    (lambda d: d.update(division="Closed"), "`division` 'Closed'"),
    (lambda d: d.update(system_availability_status="GA"), "is not one of Available, Preview, RDI"),
    (lambda d: d.pop("availability_url"), "requires `availability_url`"),
    (lambda d: d.update(availability_url="example.org/x"), "requires `availability_url`"),
    (lambda d: d.update(system_availability_status="Preview"), "requires `target_availability_date`"),
    (lambda d: d.update(system_availability_status="Preview", target_availability_date="next spring"),
     "ISO-8601"),
    (lambda d: d.update(c_min_override=0), "`c_min_override` must be an integer 1-32"),
    (lambda d: d.update(c_min_override="8"), "`c_min_override` must be an integer 1-32"),
    (lambda d: d.update(c_min_override=True), "`c_min_override` must be an integer 1-32"),
    (lambda d: [d["node_types"][0].pop(k) for k in ("host_processor_core_count", "host_processor_vcpu_count")],
     "at least one of"),
    (lambda d: d["node_types"][0].pop("driver"), "node_types[0]: required field `driver`"),
    (lambda d: d["node_types"][0].update(number_of_nodes="1"), "field `node_types.0.number_of_nodes`"),
    (lambda d: d.update(node_types="one H200 box"), "field `node_types`"),
    (lambda d: d.update(max_supported_concurrency=1024.0), "field `max_supported_concurrency`"),
])
def test_each_problem_is_named(mutate, needle):
    d = valid_data()
    mutate(d)
    msgs = problems(d)
    assert any(needle in m for m in msgs), msgs


def test_preview_with_a_date_is_fine_and_status_is_case_insensitive():
    d = valid_data()
    d.update(system_availability_status="preview", target_availability_date="2027-03-01")
    assert problems(d) == []


def test_legacy_status_spelling_is_accepted_and_must_agree():
    d = valid_data()
    d["availability_status"] = d.pop("system_availability_status")
    assert problems(d) == []
    d["system_availability_status"] = "RDI"
    assert any("different values" in m for m in problems(d))


def test_a_type_error_is_not_also_reported_missing():
    d = valid_data()
    d["system_name"] = 5
    msgs = problems(d)
    assert len([m for m in msgs if "system_name" in m]) == 1


def test_not_an_object():
    assert problems([1, 2]) != []


def test_accelerators_per_node_sums_entries():
    m = SystemDesc.model_validate({"node_types": [{"accelerator_info": [{"accelerators_per_node": 4},
                                                                          {"accelerators_per_node": 2}]}]})
    assert m.nodes[0].accelerators_per_node == 6
    assert m.node_type(99) is m.nodes[0]  # a single node type without an id stands for the system
    two = SystemDesc.model_validate({"node_types": [{"system_node_ensemble_id": 1}, {"system_node_ensemble_id": 2}]})
    assert two.node_type(2) is two.nodes[1] and two.node_type(3) is None


def test_diff_names_each_leaf():
    a = {"x": 1, "n": [{"driver": "580", "os": "u"}], "gone": 1}
    b = {"x": 1, "n": [{"driver": "575", "os": "u"}], "new": 2}
    got = [(dotted(p), x, y) for p, x, y in diff(a, b)]
    assert got == [("gone", 1, "(absent)"), ("n[0].driver", "580", "575"), ("new", "(absent)", 2)]
    assert diff({"v": 1}, {"v": 1.0}) and not diff({"v": float("nan")}, {"v": float("nan")})


def _schema():
    with open(SCHEMA, encoding="utf-8") as fh:
        return jsonschema.Draft202012Validator(json.load(fh))


def builder_like() -> dict:
    """The valid copy as `submissions create` writes it: every optional field it knows, null when not given."""
    d = valid_data()
    d.update(disaggregated=True, target_availability_date=None, node_config=None, config_summary_notes=None,
             **{k: None for k in TOLERATED_KEYS})
    d["node_types"][0].update(system_node_ensemble_id=None, host_processor_vcpu_count=None, hw_notes=None)
    d["node_types"][0]["accelerator_info"][0]["accelerator_host_interconnect"] = None
    return d


def test_null_optional_fields_read_as_absent_for_rule_schema_and_unknown_key():
    d = builder_like()
    assert problems(d) == []
    assert not list(_schema().iter_errors(d))
    lf = LoadedFile(kind="system_desc", rel="x/system_desc.json", abspath="/nonexistent", exists=True, data=d)
    lf.model, lf.field_errors = validate_lenient(SystemDesc, d)
    assert unknown_keys(lf) == []


@pytest.mark.parametrize("mutate,needle", [
    (lambda d: d.update(system_size=None), "`system_size` is missing or empty"),
    (lambda d: d.update(max_supported_concurrency=None), "`max_supported_concurrency` is missing or empty"),
    (lambda d: d.update(node_types=None), "`node_types` is missing or empty"),
    (lambda d: d["node_types"][0].update(driver=None), "node_types[0]: required field `driver`"),
    (lambda d: d["node_types"][0].update(host_processor_core_count=None), "at least one of"),
    (lambda d: d.update(availability_url=None), "requires `availability_url`"),
    (lambda d: d.update(system_availability_status="Preview"), "requires `target_availability_date`"),
])
def test_null_required_field_still_fails_rule_and_schema(mutate, needle):
    d = builder_like()
    mutate(d)
    assert any(needle in m for m in problems(d)), problems(d)
    assert list(_schema().iter_errors(d))


def test_disaggregated_is_an_int_or_a_bool():
    for v in (1, 2, True, False):
        d = valid_data()
        d["disaggregated"] = v
        assert problems(d) == [] and not list(_schema().iter_errors(d)), v
    d = valid_data()
    d["disaggregated"] = "yes"
    assert any("`disaggregated`" in m for m in problems(d)) and list(_schema().iter_errors(d))


def test_schema_lists_the_tolerated_keys():
    with open(SCHEMA, encoding="utf-8") as fh:
        assert TOLERATED_KEYS <= set(json.load(fh)["properties"])


def test_diff_null_is_absent():
    assert diff({"a": None, "b": 1}, {"b": 1}) == [] and diff({"a": None}, {"a": None}) == []
    assert [(dotted(p), x, y) for p, x, y in diff({"a": None}, {"a": "x"})] == [("a", None, "x")]
