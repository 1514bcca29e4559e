"""The keys and enumerations of the Appendix E shape of ``system_power.json`` (POWER.md E.1-E.4), without
pydantic: the models (``power_appendix_e``) and the rules (``rules/power/reading.py``) both read them,
and importing the rules must not build the models."""
from __future__ import annotations

POWER_METHODS = ("component_sum", "published_system", "node_scaling")
SCALE_UP_METHODS = ("declared_tdp", "bandwidth_estimate", "none")
COOLINGS = ("liquid", "air")
CABLINGS = ("passive", "active_optical")
SOURCE_TYPES = ("vendor_spec", "publication", "public_statement", "mlc_default")  # the schema's; policy decides
SUBSECTIONS = ("D.1", "D.2", "D.3", "D.4")
COMPUTED_FIGURES = ("major_components_w", "overhead_fraction", "other_components_w", "published_node_power_w",
                    "scale_out_switch_power_w", "total_system_power_w")
SOURCED_KEYS = ("value_w", "value_kw", "value_pj", "source_type", "source")

TOP_KEYS = ("system_desc_id", "cooling", "node_sets", "scale_out", "declared_provisioned_power", "computed",
            "provisioned_power_kw", "mlc_estimated_power", "notes")
NODE_SET_KEYS = ("node_set_id", "system_node_ensemble_id", "nodes_provisioned", "power_method", "published_power",
                 "nodes_in_published_rack", "components")
COMPONENT_KEYS = ("cpu", "accelerator", "combined_cpu_accelerator", "scale_up_network")
UNIT_KEYS = ("model", "count_per_node", "tdp_per_unit", "below_rated_tdp")
SCALE_UP_KEYS = ("method", "switch_count", "tdp_per_switch", "aggregate_bandwidth_tbps", "energy_per_bit_pj")
SCALE_OUT_KEYS = ("present", "cabling", "required_bandwidth_tbps", "nics", "switches")
NIC_KEYS = ("count_per_node", "bandwidth_per_nic_gbps", "counted", "tdp_per_nic", "excluded_from_published_power")
SWITCH_KEYS = ("model", "count", "bandwidth_tbps", "power_per_switch")

#: scale_up_network method -> {name of an earlier draft: Appendix E name}
SCALE_UP_LEGACY = {
    "declared_tdp": {"count_per_node": "switch_count", "num_switches": "switch_count", "count": "switch_count",
                     "tdp_per_unit": "tdp_per_switch"},
    "bandwidth_estimate": {"bandwidth_tbps": "aggregate_bandwidth_tbps", "energy_per_bit": "energy_per_bit_pj"},
}
#: computed keys of our earlier reading -> the Appendix E figure
COMPUTED_LEGACY = {"total_w": "total_system_power_w", "total_kw": "total_system_power_w",
                   "provisioned_power_w": "total_system_power_w",
                   "provisioned_power_kw": "provisioned_power_kw (top level)"}
