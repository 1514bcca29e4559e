"""Write the JSON Schemas of schemas/, generated from the pydantic models: point.yaml, system_desc.json,
result_summary.json, the client's config.yaml and metrics/final_snapshot.json, the report, waivers, the
baseline file and the policy files.

``python -m checker.cli.maintainer schemas`` (``make schemas``) rewrites them; a test fails when they are
stale. What is required of system_desc.json comes from the bundled policy (``system_desc.yaml``), as
the ``system-description-valid`` rule reads it. system_power.json's schema is still written by hand.
"""
from __future__ import annotations

import json
import os
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(REPO, "schemas")


def generated() -> dict[str, dict]:
    """Relative path under schemas/ -> schema document."""
    from checker.load.models.summary import ResultSummary
    from checker.engine.catalogue import family_table

    table = family_table()
    out: dict[str, dict] = {}
    for name in sorted(table.policy_models):
        model = table.policy_model(name)
        doc = model.model_json_schema()
        doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        doc["title"] = f"policy: {name}.yaml"
        out[f"policy/{name}.schema.json"] = doc
    doc = ResultSummary.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "result_summary.json (inference-endpoint performance summary)"
    for name in ResultSummary.__fractional_ints__:  # a float in the official PointSummary: real files write 5163749763587.001
        own = doc["properties"][name].get("description", "")
        doc["properties"][name] = {"anyOf": [{"type": "number"}, {"type": "null"}], "default": None,
                                   "description": own + "; a non-integral value is read as the nearest "
                                                        "nanosecond (a value-spelling warning)"}
    out["result_summary.schema.json"] = doc
    out["accuracy_results.schema.json"] = _accuracy_results()
    out["point.schema.json"] = _point()
    out["system_desc.schema.json"] = _system_desc()
    from checker.engine.waivers import WaiverFile

    from checker.core.report_model import ReportModel

    doc = ReportModel.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "endpoints-checker report"
    out["report.schema.json"] = doc
    doc = WaiverFile.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "waivers.yaml (endpoints-checker --waivers)"
    out["waivers.schema.json"] = doc
    from checker.engine.baseline_file import BaselineFile

    doc = BaselineFile.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "endpoints-checker baseline file (--write-baseline, read by --baseline)"
    out["baseline.schema.json"] = doc
    out["system_power.schema.json"] = _system_power()
    out.update(_client_files())
    return {rel: _with_id(rel, d) for rel, d in out.items()}


def _system_power() -> dict:
    """system_power.json: the Appendix E model (the published shape; the flat shape the checker still
    reads is flagged by power-descriptor-shape and is not described here)."""
    from checker.load.models.power_appendix_e import AppendixE

    doc = AppendixE.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "MLPerf Endpoints system_power.json, Appendix E shape (R§4.5.2; one per system)"
    doc["description"] = (
        "The provisioned power of one system (POWER.md Appendix E). System power = Major + Other + Published + "
        "Switches (E.5): Major sums the component_sum sets, nodes x (CPU + accelerator + scale-up) plus counted NICs; "
        "Other is the overhead fraction of the cooling (liquid 0.30, air 0.50) times Major; Published sums the "
        "published_system sets (nodes x the figure of one node) and the node_scaling sets (P_rack x Y / N, N > Y); "
        "Switches sums the scale-out switches (count x power_per_switch). provisioned_power_kw is the total in kW "
        "rounded to 0.01. Objects other than a sourced value may carry other keys. What a schema cannot state "
        "(unique node_set_id, N > Y, the E.4 bandwidth and NIC rules, the E.7 figures) the checker checks. The "
        "older flat group shape is not this shape: the checker reads it with a flag.")
    return doc


def _client_files() -> dict[str, dict]:
    """The client's own files (``checker.load.file_kinds.CLIENT_FILES``). A run folder's top-level
    result_summary.json is read with result_summary.schema.json's model and a results.json carrying
    accuracy_scores with accuracy_results.schema.json's, so neither has a schema of its own."""
    from checker.load.models.client_config import ClientConfig
    from checker.load.models.detector import DetectorOutput
    from checker.load.models.final_snapshot import FinalSnapshot

    out = {}
    for rel, model, title in (
            ("config.schema.json", ClientConfig, "config.yaml (the inference-endpoint client's resolved benchmark "
                                                 "configuration)"),
            ("final_snapshot.schema.json", FinalSnapshot, "metrics/final_snapshot.json (the client's final metrics "
                                                          "snapshot)"),
            ("steady_state.schema.json", DetectorOutput, "steady_state.json (the client's steady-state detector's "
                                                         "output in a run folder)")):
        doc = _draft(model.model_json_schema())
        doc["title"] = title
        doc["description"] = (doc.get("description", "") + " Only the keys the checker reads are described; any "
                              "other key the client writes is kept as written (additional properties allowed).")
        out[rel] = doc
    return out


def _accuracy_results() -> dict:
    """accuracy_results.json in both shapes (``checker.load.models.accuracy.AccuracyResults``)."""
    from checker.load.models.accuracy import AccuracyResults

    doc = AccuracyResults.model_json_schema()
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    doc["title"] = "accuracy_results.json (inference-endpoint accuracy scores)"
    doc["description"] = ("The client's accuracy scores: `accuracy_scores` as a list of entries (each with its "
                          "`dataset_name`) or keyed by dataset, or a mapping of dataset to entry at the top level. "
                          "Checks across fields (unique dataset names, aliases that agree, total_samples = "
                          "unit_samples x num_repeats, one inline entry) are the accuracy-valid rule's.")
    return doc


def _point() -> dict:
    """point.yaml: the model with its ``model_equivalence`` block typed (the model keeps the block as a
    mapping, which ``checker.load.models.model_equivalence`` validates on its own)."""
    from typing import Optional

    from pydantic import create_model

    from checker.load.models.model_equivalence import ModelEquivalence
    from checker.load.models.point import PointYaml

    me = PointYaml.model_fields["model_equivalence"]
    shape = create_model("PointYaml", __base__=PointYaml, __doc__=PointYaml.__doc__,
                         model_equivalence=(Optional[ModelEquivalence], me))
    doc = _draft(shape.model_json_schema())
    curve = _policy("curve")  # the values region-declared and offline-declared accept
    for key, values in (("region", curve.region_values), ("offline", curve.offline_values)):
        doc["properties"][key]["anyOf"][0]["enum"] = list(values)
    return doc


def _system_desc() -> dict:
    """system_desc.json: the model, plus what the bundled policy requires (the model requires nothing)."""
    from checker.load.models.system_desc import TOLERATED_KEYS, SystemDesc

    pol = _policy("system_desc")
    doc = _draft(SystemDesc.model_json_schema())
    status = "system_availability_status"
    doc["required"] = [f for f in pol.required_fields if f != status]
    doc["properties"]["node_types"]["anyOf"][0]["minItems"] = 1
    node = doc["$defs"]["NodeType"]
    node["required"] = list(pol.node_type_required_fields)
    node["anyOf"] = [{"required": [f], "properties": {f: {"type": "integer", "description": "at least one of "
                                                          + " and ".join(pol.core_or_vcpu) + " is given"}}}
                     for f in pol.core_or_vcpu]
    for props, required in ((doc["properties"], pol.required_fields), (node["properties"], node["required"])):
        for f in required:  # a null required field is reported missing by the rule: not null here either
            alts = props[f].get("anyOf")
            if alts:
                props[f]["anyOf"] = [a for a in alts if a != {"type": "null"}]
                props[f].pop("default", None)
    for key in sorted(TOLERATED_KEYS - set(doc["properties"])):
        doc["properties"][key] = {"description": "declared by the official schema, not by the R§8.2 template "
                                                 "(OFFICIAL-CHECKER.md §2.3); tolerated, decides nothing"}
    rules: list = []
    for value, need in pol.availability.items():
        if need.requires:
            rules.append({"if": {"properties": {status: {"enum": [value, value.lower()]}}, "required": [status]},
                          "then": {"required": [need.requires], "properties": {need.requires: {"type": "string"}}}})
    rules.append({"description": "the availability status: system_availability_status, or the legacy "
                                 "publication_status / availability_status the official checker also accepts",
                  "anyOf": [{"required": [k]} for k in (status, "publication_status", "availability_status")]})
    doc["allOf"] = rules
    return doc


def _policy(name: str):
    """The bundled edition's policy file ``name``, read and validated as a check reads it (an unusable
    file raises ``PolicyUnavailable``)."""
    from checker.engine.policy import load_policy

    return load_policy().get(name)


def _draft(doc: dict) -> dict:
    doc["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return doc


ID_BASE = "https://github.com/mlcommons/endpoints-checker/schemas/"


def _with_id(rel: str, doc: dict) -> dict:
    """``$id`` (where the schema is published) first after ``$schema``, so editors can map files to it."""
    return {"$id": ID_BASE + rel, **doc}


def dump(doc: dict) -> str:
    return json.dumps(doc, indent=2, sort_keys=True) + "\n"


def main(check: bool = False) -> int:
    stale = []
    for rel, doc in generated().items():
        path = os.path.join(SCHEMAS, rel)
        text = dump(doc)
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if old != text:
            stale.append(rel)
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8") as fh:
                    fh.write(text)
    for rel in stale:
        print(("stale: " if check else "wrote: ") + f"schemas/{rel}")
    return 1 if (check and stale) else 0


if __name__ == "__main__":
    sys.exit(main(check="--check" in sys.argv))
