"""The Appendix E shape of ``system_power.json`` (POWER.md E.1-E.4) as pydantic models.

The models hold the types (a count is an integer, a figure a number, ``present`` a boolean);
every field is optional here, because what a power method requires, the enumerations, the
policy's source types and the ranges are checked with their own sentences by ``rules/power/reading.py``
(a missing field is named with the Appendix E key to write, a key of an earlier draft with its
Appendix E name). Objects other than a sourced value keep unknown keys (E.2); a sourced value
keeps them too, so the rule can name them (E.1 allows none; the schema says so).
"""
# annotations evaluated at class creation (no `from __future__ import annotations`): pydantic then has no
# strings to resolve, about 1 ms less to build these models on every check that reads the file

from typing import Any, Optional

from pydantic import ConfigDict, Field

from checker.load.models.common import FileModel
from checker.load.models.power_fields import (CABLINGS, COOLINGS, POWER_METHODS, SCALE_UP_METHODS, SOURCE_TYPES,
                                              SUBSECTIONS)

#: a figure: any number here (a NaN or an infinity, which Python's JSON reader accepts, is refused with
#: the range by ``rules/power/reading.py``, in the sentence that says what the field takes)
Number = float


def _f(description: str, **schema) -> Any:
    """An optional field with its description (and what the schema states beyond its type)."""
    return Field(None, description=description, json_schema_extra=schema or None)


def _only_when(field: str, value: str, required: list) -> dict:
    return {"if": {"properties": {field: {"const": value}}, "required": [field]}, "then": {"required": required}}


class SourcedValue(FileModel):
    """E.1: one figure with its evidence."""

    model_config = ConfigDict(json_schema_extra={
        "additionalProperties": False, "required": ["source_type", "source"],
        "oneOf": [{"required": ["value_w"]}, {"required": ["value_kw"]}, {"required": ["value_pj"]}],
        "if": {"properties": {"source_type": {"const": "mlc_default"}}, "required": ["source_type"]},
        "then": {"properties": {"source": {"enum": list(SUBSECTIONS)}}},
        "else": {"properties": {"source": {"pattern": "^https?://[^/\\s]+"}}},
    })
    value_w: Optional[Number] = _f("the figure in watts (give exactly one of value_w, value_kw, value_pj)", minimum=0)
    value_kw: Optional[Number] = _f("the figure in kilowatts (read as 1000 x watts)", minimum=0)
    value_pj: Optional[Number] = _f("an energy per bit in picojoules (scale-up bandwidth estimates only)", minimum=0)
    source_type: Optional[str] = _f("where the figure comes from: vendor_spec, publication, public_statement, or "
                                    "mlc_default for an Appendix D default", enum=list(SOURCE_TYPES))
    source: Optional[str] = _f("the public evidence, an http(s) URL; for mlc_default the Appendix D subsection "
                               "(D.1 to D.4) the default is taken from", minLength=1)


def _power(description: str) -> Any:
    """A sourced value in watts: value_w or value_kw, never value_pj."""
    return Field(None, description=description,
                 json_schema_extra={"not": {"required": ["value_pj"]}})


class Unit(FileModel):
    """E.3 ``cpu`` / ``accelerator`` of a component_sum node: how many per node and the TDP of one."""

    model_config = ConfigDict(json_schema_extra={"required": ["count_per_node"]})
    model: Optional[str] = _f("the part as named by its vendor; it selects the Appendix D default when no TDP is "
                              "given")
    count_per_node: Optional[int] = _f("how many of this part one node holds", minimum=0)
    tdp_per_unit: Optional[SourcedValue] = _power("the TDP of one part; absent: the Appendix D default (D.2 for "
                                                  "CPUs, D.3 for accelerators), or a gap when there is none")
    below_rated_tdp: Optional[dict] = _f("evidence that the accelerators run below their rated TDP (an object)")


class ScaleUp(FileModel):
    """E.3 ``scale_up_network``: declared_tdp, bandwidth_estimate or none."""

    model_config = ConfigDict(json_schema_extra={
        "required": ["method"],
        "allOf": [_only_when("method", "declared_tdp", ["switch_count"]),
                  _only_when("method", "bandwidth_estimate", ["aggregate_bandwidth_tbps"])]})
    method: Optional[str] = _f("declared_tdp (switch_count x tdp_per_switch), bandwidth_estimate (aggregate TB/s x "
                               "8 bit/B x pJ per bit) or none (no scale-up network)", enum=list(SCALE_UP_METHODS))
    switch_count: Optional[int] = _f("declared_tdp: the scale-up switches of one node", minimum=0)
    tdp_per_switch: Optional[SourcedValue] = _power("declared_tdp: the TDP of one scale-up switch (Appendix D.1 "
                                                    "has no default for it)")
    aggregate_bandwidth_tbps: Optional[Number] = _f("bandwidth_estimate: the aggregate scale-up bandwidth of one "
                                                    "node in terabytes per second", minimum=0)
    energy_per_bit_pj: Optional[SourcedValue] = Field(
        None, description="bandwidth_estimate: the energy per bit, a sourced value in picojoules (value_pj)",
        json_schema_extra={"required": ["value_pj"]})


class Components(FileModel):
    """E.3 ``components`` of a component_sum node set: its parts, per node."""

    model_config = ConfigDict(json_schema_extra={
        "required": ["scale_up_network"],
        "anyOf": [{"required": ["cpu", "accelerator"]}, {"required": ["combined_cpu_accelerator"]}],
        "if": {"required": ["combined_cpu_accelerator"]},
        "then": {"properties": {"cpu": {"not": {"required": ["tdp_per_unit"]}},
                                "accelerator": {"not": {"required": ["tdp_per_unit"]}}}}})
    cpu: Optional[Unit] = _f("the host processors of one node")
    accelerator: Optional[Unit] = _f("the accelerators of one node")
    combined_cpu_accelerator: Optional[SourcedValue] = _power("one published figure for the CPUs and accelerators "
                                                              "of a node together, instead of their TDPs")
    scale_up_network: Optional[ScaleUp] = _f("the network joining the accelerators inside a node (write method "
                                             "none when there is none)")


class NodeSet(FileModel):
    """E.3: nodes of one node type, with the method that gives their power."""

    model_config = ConfigDict(json_schema_extra={
        "required": ["node_set_id", "system_node_ensemble_id", "nodes_provisioned", "power_method"],
        "allOf": [_only_when("power_method", "component_sum", ["components"]),
                  _only_when("power_method", "published_system", ["published_power"]),
                  _only_when("power_method", "node_scaling", ["published_power", "nodes_in_published_rack"])]})
    node_set_id: Optional[int] = _f("a number naming this node set, unique within the file")
    system_node_ensemble_id: Optional[int] = _f("the node type of system_desc.json these nodes are")
    nodes_provisioned: Optional[int] = _f("how many whole nodes of this set are provisioned", minimum=1)
    power_method: Optional[str] = _f("component_sum (built from the parts), published_system (nodes x the "
                                     "published figure of one node) or node_scaling (a published rack of N "
                                     "nodes scaled to Y < N)", enum=list(POWER_METHODS))
    published_power: Optional[SourcedValue] = _power("published_system: the figure of one node; node_scaling: "
                                                     "the figure of the published rack")
    nodes_in_published_rack: Optional[int] = _f("node_scaling: N, the nodes of the published rack (more than "
                                                "nodes_provisioned)", minimum=1)
    components: Optional[Components] = _f("component_sum: the parts of one node")


class Nics(FileModel):
    """E.4 ``scale_out.nics``: the scale-out network cards of one node."""

    model_config = ConfigDict(json_schema_extra={"required": ["count_per_node", "bandwidth_per_nic_gbps", "counted"]})
    count_per_node: Optional[int] = _f("scale-out NICs per node", minimum=0)
    bandwidth_per_nic_gbps: Optional[Number] = _f("the bandwidth of one NIC in gigabits per second", minimum=0)
    counted: Optional[bool] = _f("true when the NICs' power is added to the total (required with any component_sum "
                                 "set, whose parts have no NIC term)")
    tdp_per_nic: Optional[SourcedValue] = _power("the TDP of one NIC; absent: the Appendix D.4 default")
    excluded_from_published_power: Optional[str] = _f("the evidence (a URL or a statement) that a published node "
                                                      "figure leaves the NICs out, so counting them is right")


class Switch(FileModel):
    """E.4: one kind of scale-out switch."""

    model_config = ConfigDict(json_schema_extra={"required": ["model", "count", "bandwidth_tbps"]})
    model: Optional[str] = _f("the switch model")
    count: Optional[int] = _f("how many of these switches the fabric has", minimum=1)
    bandwidth_tbps: Optional[Number] = _f("the bandwidth one switch offers, in terabits per second", minimum=0)
    power_per_switch: Optional[SourcedValue] = _power("the power of one switch; absent: the Appendix D.4 reference "
                                                      "switch for the cabling")


class ScaleOut(FileModel):
    """E.4 ``scale_out``: the fabric joining the nodes (``present: false`` when there is none)."""

    model_config = ConfigDict(json_schema_extra={
        "required": ["present"], "if": {"properties": {"present": {"const": True}}, "required": ["present"]},
        "then": {"required": ["cabling", "required_bandwidth_tbps", "nics", "switches"]}})
    present: Optional[bool] = _f("whether the system has a scale-out fabric")
    cabling: Optional[str] = _f("passive or active_optical: it selects the Appendix D.4 reference switch",
                                enum=list(CABLINGS))
    required_bandwidth_tbps: Optional[Number] = _f("the bandwidth the fabric must carry in terabits per second: at "
                                                   "least nodes x NICs per node x Gb/s per NIC / 1000", minimum=0)
    nics: Optional[Nics] = _f("the scale-out NICs of one node")
    switches: Optional[list[Optional[Switch]]] = _f("the switches of the fabric")


class Computed(FileModel):
    """E.7: the E.5 figures as the submitter computed them; each must equal the recomputation."""

    major_components_w: Optional[Number] = _f("Major: the component_sum sets with counted NICs, in watts (within "
                                              "0.5 W)")
    overhead_fraction: Optional[Number] = _f("the overhead fraction of the cooling (0.30 liquid, 0.50 air)")
    other_components_w: Optional[Number] = _f("Other: overhead fraction x Major, in watts (within 0.5 W)")
    published_node_power_w: Optional[Number] = _f("Published: the published_system and node_scaling sets, in "
                                                  "watts (within 0.5 W)")
    scale_out_switch_power_w: Optional[Number] = _f("Switches: count x power_per_switch over the scale-out "
                                                    "switches, in watts (within 0.5 W)")
    total_system_power_w: Optional[Number] = _f("Major + Other + Published + Switches, in watts (within 0.5 W)")


class AppendixE(FileModel):
    """``system_power.json`` in the Appendix E shape (one per system, R§4.5.2)."""

    model_config = ConfigDict(title="system_power.json, Appendix E shape", json_schema_extra={
        "required": ["system_desc_id", "cooling", "node_sets", "scale_out"]})
    system_desc_id: Optional[str] = _f("the system this file describes: the name of its results/<system> "
                                       "directory", minLength=1)
    cooling: Optional[str] = _f("liquid or air, as system_desc.json says; it selects the overhead fraction",
                                enum=list(COOLINGS))
    node_sets: Optional[list[Optional[NodeSet]]] = _f("the node sets of the system, at least one", minItems=1)
    scale_out: Optional[ScaleOut] = _f("the scale-out fabric between the nodes")
    declared_provisioned_power: Optional[SourcedValue] = _power("the provisioned power of the whole system; when "
                                                                "given it governs and the parts are a cross-check")
    computed: Optional[Computed] = _f("the E.5 figures as the submitter computed them (compared, E.7)")
    provisioned_power_kw: Optional[Number] = _f("the total in kilowatts rounded to 0.01 kW (within 0.005 kW of the "
                                                "recomputation)")
    overhead_fraction: Optional[Number] = Field(None, description="not an Appendix E field: compared with the "
                                                "fraction of the cooling, with a warning", exclude=True)
    mlc_estimated_power: Any = _f("ignored: the checker decides the MLC Estimated Power tag", type="boolean")
    notes: Optional[str] = _f("free text for the reviewers")
