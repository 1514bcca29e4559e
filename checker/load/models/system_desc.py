"""``system_desc.json`` (R§8.2, template R§8.2.1): one copy per point, the whole template.

Types are strict (a count written as a string is a field error located at its line); every field
is optional here, because which ones are required is policy (``rules/policy/v1.0/system_desc.yaml``)
and the ``system-description-valid`` rule reports each missing one. List items are Optional so a
bad item is dropped on its own without hiding the rest of the list.

A JSON ``null`` reads as absent: ``submissions create`` rewrites every copy through the official
schema, which writes each optional field it knows and was not given as ``null`` (OFFICIAL-CHECKER.md
§2.3). For an optional field that is what absence means; a ``null`` for a required field is
reported missing like an absent one (``system-description-valid``).
"""
from __future__ import annotations

from typing import Any, Optional, Union

from pydantic import ConfigDict, Field

from checker.load.models.common import FileModel
from checker.load.models.schema_types import any_of, as_schema, one_of, shown

#: the availability statuses as files write them (compared case-insensitively by the rules)
STATUS_SPELLINGS = ("Available", "Preview", "RDI", "available", "preview", "rdi")

#: top-level keys the official ``SystemDescription`` still declares but the R§8.2 template no longer
#: carries (RULES.md §2.5, OFFICIAL-CHECKER.md §2.3: "tolerated, decide nothing"): org metadata that
#: left the description at v1.0, the model/dataset/accuracy fields that moved to point.yaml (R§8.3),
#: ``link_config`` (09-24 template) and ``model_name`` (09-24 rules). ``submissions create`` writes
#: each of them (``null`` when not given), so they are known keys; no rule reads them.
TOLERATED_KEYS = frozenset({
    "submitter_org_names", "submitter_contact", "submission_id", "submission_date", "publish_date",
    "system_category", "link_config", "model_name", "model_precision", "link_to_model",
    "link_to_model_transformation", "model_notes", "dataset_id", "dataset_name", "input_token_average",
    "output_token_average", "dataset_type", "dataset_link", "measured_accuracy_score",
})


class AcceleratorInfo(FileModel):
    """One accelerator model of a node type."""

    accelerator_model_name: Optional[str] = Field(None, description='accelerator model, e.g. H100-SXM-80GB')
    accelerators_per_node: Optional[shown(int, minimum=0)] = Field(
        None, description='accelerators of this model in one node')
    accelerator_memory_capacity: Optional[str] = Field(None, description='memory of one accelerator')
    accelerator_memory_type: Optional[str] = Field(None, description='accelerator memory technology, e.g. HBM3')
    accelerator_interconnect: Optional[str] = Field(
        None, description='accelerator-to-accelerator interconnect; required when a node has more than one')
    accelerator_host_interconnect: Optional[str] = Field(
        None, description='accelerator-to-host interconnect, e.g. PCIe Gen5 x16')


class NodeType(FileModel):
    """One node type (hardware + software) of the system."""

    system_node_ensemble_id: Optional[int] = Field(
        None, description="this node type's id (matched by point.yaml nodes_used)")
    number_of_nodes: Optional[shown(int, minimum=1)] = Field(None, description='nodes of this type in the system')
    host_processor_model_name: Optional[str] = Field(None, description='host CPU model')
    host_processors_per_node: Optional[shown(int, minimum=0)] = Field(None, description='host CPUs in one node')
    host_processor_core_count: Optional[shown(int, minimum=1)] = Field(
        None, description='cores of one host CPU (this or host_processor_vcpu_count is required)')
    host_processor_vcpu_count: Optional[shown(int, minimum=1)] = Field(
        None, description='vCPUs of the node (this or host_processor_core_count is required)')
    host_memory_capacity: Optional[str] = Field(
        None, description='host memory, total for all host processors of a node')
    host_memory_configuration: Optional[str] = Field(None, description='host memory layout, e.g. 16x 64GB DDR5')
    accelerator_info: Optional[list[Optional[AcceleratorInfo]]] = Field(
        None, description='the accelerators of one node, one entry per model')
    # the template writes it as a string ("8"); an integer is accepted too
    # typing caches unions regardless of member order, so the schema spells the order out (stable output)
    host_network_card_count: Optional[Union[str, int]] = Field(
        None, json_schema_extra=as_schema({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}),
        description='network cards in one node (the template writes it as a string, "8"; an integer is read too)')
    host_networking: Optional[str] = Field(None, description='host networking, e.g. InfiniBand NDR 400G')
    host_storage_capacity: Optional[str] = Field(None, description='host storage capacity')
    host_storage_type: Optional[str] = Field(None, description='host storage technology, e.g. NVMe SSD')
    other_hardware: Optional[str] = Field(None, description='any other hardware that matters')
    cooling: Optional[str] = Field(
        None, description='liquid / air / passive: decides the power overhead (0.30 liquid, 0.50 air)')
    hw_notes: Optional[str] = Field(None, description='free-form hardware notes')
    inference_backend: Optional[str] = Field(None, description='inference backend, e.g. TensorRT-LLM')
    driver: Optional[str] = Field(None, description='accelerator driver version')
    operating_system: Optional[str] = Field(None, description='operating system and version')
    filesystem: Optional[str] = Field(None, description='filesystem in use')
    container_link: Optional[str] = Field(None, description='link to the container image served')
    other_software_stack: Optional[str] = Field(None, description='any other software that matters')
    sw_notes: Optional[str] = Field(None, description='free-form software notes')

    @property
    def accelerators_per_node(self) -> int | None:
        """Accelerators in one node of this type (sum over accelerator_info), None when unknown."""
        if not self.accelerator_info:
            return None
        counts = [a.accelerators_per_node for a in self.accelerator_info if a is not None]
        if not counts or any(c is None for c in counts):
            return None
        return sum(counts)


class SystemDesc(FileModel):
    """One copy per point. Per-point fields (may differ between a curve's points): tps_utilization,
    tensor/pipeline/expert/data_parallel, disaggregated, batch, config_summary, config_summary_notes. A null
    optional field reads as absent (`submissions create` writes every optional field it knows, null when not
    given); a required field may not be null."""

    model_config = ConfigDict(title="MLPerf Endpoints system_desc.json")

    division: Optional[one_of("Standardized", "Serviced", "RDI", "standardized", "serviced", "rdi")] = Field(
        None, description="Standardized, Serviced or RDI (compared case-insensitively); equals point.yaml's")
    system_name: Optional[shown(str, minLength=1)] = Field(None, description="the system's full name")
    shortened_system_name: Optional[shown(str, minLength=1, maxLength=20)] = Field(
        None, description='short name shown in results, at most 20 characters')
    system_availability_status: Optional[one_of(*STATUS_SPELLINGS)] = Field(
        None, description='Available, Preview or RDI (compared case-insensitively; S§7)')
    # legacy / S§7.3 spellings of the status, accepted when they agree
    availability_status: Optional[one_of(*STATUS_SPELLINGS)] = Field(
        None, description='legacy / S§7.3 name of system_availability_status (must agree with it when both are written)')
    publication_status: Optional[one_of(*STATUS_SPELLINGS)] = Field(
        None, description='legacy name of system_availability_status (must agree with it when both are written)')
    availability_url: Optional[shown(str, pattern="^https?://")] = Field(
        None, description='where the system can be obtained; required when the status is Available')
    target_availability_date: Optional[shown(str, pattern=r"^\d{4}-\d{2}-\d{2}$")] = Field(
        None, description='YYYY-MM-DD the system becomes Available; required when the status is Preview (at most 180 days after the first cohort)')
    system_size: Optional[str] = Field(
        None, description='accelerators per node type, e.g. "72 accelerators + 144 accelerators"')
    system_node_ensemble_count: Optional[shown(int, minimum=1)] = Field(
        None, description='number of distinct hardware + software node types')
    system_node_ensemble_total: Optional[shown(int, minimum=1)] = Field(
        None, description='total nodes: the sum of node_types[].number_of_nodes')
    max_supported_concurrency: Optional[shown(int, exclusiveMinimum=32)] = Field(
        None, description='declared C_max; more than 32')
    c_min_override: any_of({"type": "integer", "minimum": 1, "maximum": 32}) = Field(
        None, description='declared C_min, 1 to 32; absent when C_min is derived (an explicit null is invalid for the official schema)')
    endpoint_url: Optional[str] = Field(None, description='URL or description of the endpoint under test')
    serving_framework: Optional[str] = Field(None, description='serving framework, e.g. vLLM, SGLang')
    node_types: Optional[list[Optional[NodeType]]] = Field(None, description='one entry per node type of the system')
    node_config: Optional[str] = Field(None, description='how the nodes are configured')
    # RULES.md §2.5 writes an int (> 1 means disaggregated); the official schema types it a bool and
    # `submissions create` rewrites 1/0 as true/false, so both are read (a bool states no count)
    disaggregated: Optional[Union[bool, int]] = Field(
        None, json_schema_extra=as_schema({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "boolean"},
                                                     {"type": "null"}]}),
        description='an integer, more than 1 means disaggregated prefill/decode (RULES.md §2.5); the official schema types it a boolean and `submissions create` writes 1/0 as true/false')
    expert_parallel: Optional[shown(int, minimum=1)] = Field(
        None, description='expert-parallel degree (1 = none); may differ between points')
    tensor_parallel: Optional[shown(int, minimum=1)] = Field(
        None, description='tensor-parallel degree (1 = none); may differ between points')
    pipeline_parallel: Optional[shown(int, minimum=1)] = Field(
        None, description='pipeline-parallel degree (1 = none); may differ between points')
    data_parallel: Optional[shown(int, minimum=1)] = Field(
        None, description='data-parallel replicas (1 = none); may differ between points')
    batch: Optional[shown(int, minimum=1)] = Field(None, description='maximum batch size; may differ between points')
    config_summary: any_of({"type": "string"}, {"type": "object"}) = Field(
        None, description='the disaggregated / TP / PP / EP / DP values above 1 plus notes (a text, or an object some tools write)')
    config_summary_notes: Optional[str] = Field(None, description='notes to config_summary')
    tps_utilization: Optional[shown(float, minimum=0, maximum=1)] = Field(
        None, description="this point's system TPS over the curve's highest, 0 to 1 (recomputed by tps-utilization)")
    cooling: Optional[str] = Field(
        None, description='cooling stated once for the whole system (some descriptions do): liquid / air / passive')

    @property
    def nodes(self) -> list[NodeType]:
        return [n for n in (self.node_types or []) if n is not None]

    def node_type(self, ensemble_id: Any) -> NodeType | None:
        """The node type with this system_node_ensemble_id (the only one when the list has one)."""
        nodes = self.nodes
        for n in nodes:
            if n.system_node_ensemble_id is not None and n.system_node_ensemble_id == ensemble_id:
                return n
        if len(nodes) == 1 and nodes[0].system_node_ensemble_id is None:
            return nodes[0]
        return None

    @property
    def availability(self) -> str | None:
        """The declared availability status, whichever accepted key holds it."""
        for v in (self.system_availability_status, self.availability_status, self.publication_status):
            if isinstance(v, str) and v.strip():
                return v
        return None
