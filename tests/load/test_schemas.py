"""schemas/: generated schemas are fresh, and every bundled policy file validates against its schema."""
import json
import os

import yaml
from jsonschema import Draft202012Validator

from casefixtures import REPO


def test_generated_schemas_are_fresh():
    from checker.cli import schemagen

    for rel, doc in schemagen.generated().items():
        path = os.path.join(REPO, "schemas", rel)
        assert os.path.exists(path), f"schemas/{rel} missing: run `make schemas`"
        with open(path, encoding="utf-8") as fh:
            assert fh.read() == schemagen.dump(doc), f"schemas/{rel} is stale: run `make schemas`"


def test_every_policy_file_validates_against_its_schema():
    pol = os.path.join(REPO, "rules", "policy", "v1.0")
    for fn in sorted(os.listdir(pol)):
        if not fn.endswith(".yaml") or fn == "index.yaml":
            continue
        name = fn[:-5]
        with open(os.path.join(REPO, "schemas", "policy", f"{name}.schema.json")) as fh:
            schema = json.load(fh)
        with open(os.path.join(pol, fn)) as fh:
            data = yaml.safe_load(fh)
        errors = list(Draft202012Validator(schema).iter_errors(data))
        assert not errors, f"{fn}: {[e.message for e in errors[:3]]}"


def test_report_schema_is_a_valid_schema():
    with open(os.path.join(REPO, "schemas", "report.schema.json")) as fh:
        Draft202012Validator.check_schema(json.load(fh))


def test_result_summaries_of_the_valid_fixture_fit_their_schema():
    with open(os.path.join(REPO, "schemas", "result_summary.schema.json")) as fh:
        v = Draft202012Validator(json.load(fh))
    root = os.path.join(REPO, "fixtures", "valid")
    n = 0
    for dirpath, _d, files in os.walk(root):
        if "result_summary.json" in files:
            with open(os.path.join(dirpath, "result_summary.json")) as fh:
                assert not list(v.iter_errors(json.load(fh)))
            n += 1
    assert n >= 7
