"""Shared builders for the power tests: sourced values, system descriptions, the RULES.md §8 worked example."""
from checker.load.models.system_desc import SystemDesc
from checker.engine.policy import load_policy
from checker.engine.catalogue import all_rules

all_rules()
POL = load_policy().get("power")


def src(w=None, kw=None, pj=None, url="https://example.org/spec", st_="vendor_spec"):
    d = {"source_type": st_, "source": url}
    for k, v in (("value_w", w), ("value_kw", kw), ("value_pj", pj)):
        if v is not None:
            d[k] = v
    return d


def sysdesc(*coolings, accel=8, cores=56, cpu="Intel Xeon Platinum 8480C", acc="NVIDIA H200", nodes=1):
    return SystemDesc.model_validate({"node_types": [
        {"system_node_ensemble_id": i + 1, "number_of_nodes": nodes, "cooling": c, "host_processor_core_count": cores,
         "host_processor_model_name": cpu,
         "accelerator_info": [{"accelerators_per_node": accel, "accelerator_model_name": acc}]}
        for i, c in enumerate(coolings)]})


def worked(**over):
    """RULES.md §8 worked example: 2 CPU x 350 W + 8 accelerators x 700 W + 1 switch x 3,500 W, liquid."""
    d = {
        "system_desc_id": "sys", "cooling": "liquid",
        "node_sets": [{
            "node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 1,
            "power_method": "component_sum",
            "components": {
                "cpu": {"count_per_node": 2, "tdp_per_unit": src(350)},
                "accelerator": {"count_per_node": 8, "tdp_per_unit": src(700)},
                "scale_up_network": {"method": "declared_tdp", "switch_count": 1, "tdp_per_switch": src(3500)},
            },
        }],
        "scale_out": {"present": False},
    }
    d.update(over)
    return d


def comps(d):
    return d["node_sets"][0]["components"]


def msgs(calc, check=None):
    return [p.message for p in calc.problems if check is None or p.check == check]


def warns(calc, check=None):
    return [p.message for p in calc.warnings if check is None or p.check == check]


FLAT = {"cpu": {"num_cpu": 2, "tdp_per_cpu": 350}, "accelerator": {"num_accelerator": 8, "tdp_per_accelerator": 700},
        "scale_up_network": {"num_switches": 1, "tdp_per_switch": 3500}}


def fabric(nodes=2, counted=True, required=1.6, offered=(1, 51.2), nics=2, gbps=400, **nic_extra):
    d = worked(scale_out={"present": True, "cabling": "passive", "required_bandwidth_tbps": required,
                          "nics": dict({"count_per_node": nics, "bandwidth_per_nic_gbps": gbps, "counted": counted},
                                       **nic_extra),
                          "switches": [{"model": "SN5610", "count": offered[0], "bandwidth_tbps": offered[1],
                                        "power_per_switch": src(900)}]})
    d["node_sets"][0]["nodes_provisioned"] = nodes
    return d


E7 = {"major_components_w": 9800, "overhead_fraction": 0.3, "other_components_w": 2940, "published_node_power_w": 0,
      "scale_out_switch_power_w": 0, "total_system_power_w": 12740}
