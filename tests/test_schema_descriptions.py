"""Every schema editors read has an ``$id``, a title and a description on every property (issue 26
item 2): hover shows the description and the allowed values, so an enum the rules check is in the schema."""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import REPO

SCHEMAS = os.path.join(REPO, "schemas")
#: third-party schemas, copied as published
THIRD_PARTY = {"sarif-2.1.0.schema.json"}


def _schemas() -> list[str]:
    files = glob.glob(os.path.join(SCHEMAS, "*.json")) + glob.glob(os.path.join(SCHEMAS, "policy", "*.json"))
    return sorted(os.path.relpath(f, SCHEMAS) for f in files if os.path.basename(f) not in THIRD_PARTY)


def _described(root: dict, prop) -> bool:
    """The property has a description, its own or (a bare ``$ref``, which pydantic writes when the field's
    description equals the model's) its model's: hover shows either (checker.lsp.hover)."""
    if not isinstance(prop, dict):
        return False
    if prop.get("description"):
        return True
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return bool(root.get("$defs", {}).get(ref[len("#/$defs/"):], {}).get("description"))
    return False


def _undescribed(root: dict, node, path: str, out: list) -> None:
    """Every property (at any depth, in $defs too) without a description, as a JSON-pointer-like path."""
    if isinstance(node, dict):
        props = node.get("properties")
        if isinstance(props, dict):
            out += [f"{path}/properties/{k}" for k, v in props.items() if not _described(root, v)]
        for k, v in node.items():
            if k not in ("if", "then", "else", "not"):  # a condition's properties are tests, not fields
                _undescribed(root, v, f"{path}/{k}", out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _undescribed(root, v, f"{path}/{i}", out)


def test_the_walk_sees_every_schema():
    found = set(_schemas())
    assert {"point.schema.json", "system_desc.schema.json", "result_summary.schema.json", "report.schema.json",
            "waivers.schema.json", "policy/models.schema.json"} <= found
    assert "sarif-2.1.0.schema.json" not in found


@pytest.mark.parametrize("rel", _schemas())
def test_every_property_has_a_description_and_the_schema_an_id_and_title(rel):
    from checker.cli.schemagen import ID_BASE

    with open(os.path.join(SCHEMAS, rel), encoding="utf-8") as fh:
        doc = json.load(fh)
    assert doc.get("$id") == ID_BASE + rel.replace(os.sep, "/")
    assert isinstance(doc.get("title"), str) and doc["title"]
    assert isinstance(doc.get("description"), str) and doc["description"]
    missing: list = []
    _undescribed(doc, doc, "", missing)
    assert not missing, f"schemas/{rel}: {len(missing)} properties without a description:\n" + "\n".join(missing[:40])


@pytest.mark.parametrize("file, path, values", [
    ("point.yaml", ("region",), ["low_latency", "submitters_choice"]),
    ("point.yaml", ("division",), ["Standardized", "Serviced", "RDI"]),
    ("point.yaml", ("offline",), ["dedicated", "elected", "none"]),
    ("point.yaml", ("model_equivalence", "checkpoint", "source"), ["canonical", "derived", "preapproved"]),
    ("point.yaml", ("runtime_settings", "stream_all_chunks"), ["yes", "off"]),
    ("system_desc.json", ("system_availability_status",), ["Available", "Preview", "RDI"]),
    ("system_desc.json", ("node_types", 0, "accelerator_info", 0, "accelerator_model_name"), []),
])
def test_hover_shows_the_description_and_allowed_values(file, path, values):
    from checker.lsp.hover import describe_field
    from checker.lsp.schemas import for_file

    md = describe_field(for_file(file), path)
    assert md is not None and "\n\n" in md, md  # a description paragraph after the title line
    for v in values:
        assert f"`{v}`" in md, md
