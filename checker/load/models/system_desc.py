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

from checker.load.models.common import FileModel

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
    accelerator_model_name: Optional[str] = None
    accelerators_per_node: Optional[int] = None
    accelerator_memory_capacity: Optional[str] = None
    accelerator_memory_type: Optional[str] = None
    accelerator_interconnect: Optional[str] = None
    accelerator_host_interconnect: Optional[str] = None


class NodeType(FileModel):
    system_node_ensemble_id: Optional[int] = None
    number_of_nodes: Optional[int] = None
    host_processor_model_name: Optional[str] = None
    host_processors_per_node: Optional[int] = None
    host_processor_core_count: Optional[int] = None
    host_processor_vcpu_count: Optional[int] = None
    host_memory_capacity: Optional[str] = None
    host_memory_configuration: Optional[str] = None
    accelerator_info: Optional[list[Optional[AcceleratorInfo]]] = None
    # the template writes it as a string ("8"); an integer is accepted too
    host_network_card_count: Optional[Union[str, int]] = None
    host_networking: Optional[str] = None
    host_storage_capacity: Optional[str] = None
    host_storage_type: Optional[str] = None
    other_hardware: Optional[str] = None
    cooling: Optional[str] = None
    hw_notes: Optional[str] = None
    inference_backend: Optional[str] = None
    driver: Optional[str] = None
    operating_system: Optional[str] = None
    filesystem: Optional[str] = None
    container_link: Optional[str] = None
    other_software_stack: Optional[str] = None
    sw_notes: Optional[str] = None

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
    division: Optional[str] = None
    system_name: Optional[str] = None
    shortened_system_name: Optional[str] = None
    system_availability_status: Optional[str] = None
    # legacy / S§7.3 spellings of the status, accepted when they agree
    availability_status: Optional[str] = None
    publication_status: Optional[str] = None
    availability_url: Optional[str] = None
    target_availability_date: Optional[str] = None
    system_size: Optional[str] = None
    system_node_ensemble_count: Optional[int] = None
    system_node_ensemble_total: Optional[int] = None
    max_supported_concurrency: Optional[int] = None
    c_min_override: Any = None  # int 1..32; checked by the rules so a wrong type is reported once, clearly
    endpoint_url: Optional[str] = None
    serving_framework: Optional[str] = None
    node_types: Optional[list[Optional[NodeType]]] = None
    node_config: Optional[str] = None
    # RULES.md §2.5 writes an int (> 1 means disaggregated); the official schema types it a bool and
    # `submissions create` rewrites 1/0 as true/false, so both are read (a bool states no count)
    disaggregated: Optional[Union[bool, int]] = None
    expert_parallel: Optional[int] = None
    tensor_parallel: Optional[int] = None
    pipeline_parallel: Optional[int] = None
    data_parallel: Optional[int] = None
    batch: Optional[int] = None
    config_summary: Any = None  # a string, or an object some tools write
    config_summary_notes: Optional[str] = None
    tps_utilization: Optional[float] = None
    cooling: Optional[str] = None  # some descriptions state it once for the whole system

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
