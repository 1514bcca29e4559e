"""Provisioned-power arithmetic (RULES.md §2.6 and §8): both file shapes, methods, defaults, cooling."""
import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.load.models.system_desc import SystemDesc
from checker.engine.policy import load_policy
from checker.core.rule import all_rules
from rules.power.arithmetic import compute_power

all_rules()
POL = load_policy().get("power")


def src(w=None, kw=None, pj=None, url="https://example.org/spec", st_="vendor_spec"):
    d = {"source_type": st_, "source": url}
    for k, v in (("value_w", w), ("value_kw", kw), ("value_pj", pj)):
        if v is not None:
            d[k] = v
    return d


def sysdesc(*coolings, accel=8):
    return SystemDesc.model_validate({"node_types": [
        {"system_node_ensemble_id": i + 1, "number_of_nodes": 1, "cooling": c,
         "accelerator_info": [{"accelerators_per_node": accel}]} for i, c in enumerate(coolings)]})


def worked(**over):
    """RULES.md §8: 2 CPU x 350 W + 8 accelerators x 700 W + 1 switch x 3,500 W."""
    d = {
        "system_desc_id": "sys", "cooling": "liquid",
        "node_sets": [{
            "node_set_id": "a", "system_node_ensemble_id": 1, "nodes_provisioned": 1,
            "power_method": "component_sum",
            "components": {
                "cpu": {"count_per_node": 2, "tdp_per_unit": src(350)},
                "accelerator": {"count_per_node": 8, "tdp_per_unit": src(700)},
                "scale_up_network": {"method": "declared_tdp", "count_per_node": 1, "tdp_per_unit": src(3500)},
            },
        }],
        "scale_out": {"present": False},
    }
    d.update(over)
    return d


FLAT = {"cpu": {"num_cpu": 2, "tdp_per_cpu": 350}, "accelerator": {"num_accelerator": 8, "tdp_per_accelerator": 700},
        "scale_up_network": {"num_switches": 1, "tdp_per_switch": 3500}}


def test_worked_example_liquid_is_12_74_kw():
    calc = compute_power(worked(), sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(12740.0)
    assert 25000 / (calc.total_w / 1000) == pytest.approx(1962.4, abs=0.1)
    assert not calc.estimated


def test_worked_example_flat_shape_gives_the_same_total():
    calc = compute_power(FLAT, sysdesc("Liquid (direct-to-chip)"), POL)
    assert calc.doc.shape == "flat" and not calc.problems
    assert calc.total_w == pytest.approx(12740.0)


def test_air_cooled_overhead_is_half():
    calc = compute_power(worked(cooling="air"), sysdesc("air"), POL)
    assert calc.total_w == pytest.approx(9800 * 1.5)
    assert "air" in calc.overhead_note


def test_mixed_cooling_is_half():
    calc = compute_power(worked(), sysdesc("liquid", "air"), POL)
    assert calc.overhead == 0.5 and "mixed" in calc.overhead_note
    assert calc.total_w == pytest.approx(14700.0)


@pytest.mark.parametrize("cooling", ["passive", "", None, "heat pipes"])
def test_passive_empty_or_unknown_cooling_gives_no_total(cooling):
    calc = compute_power(worked(), sysdesc(cooling), POL)
    assert calc.total_w is None and calc.why_no_total


def test_explicit_overhead_fraction_rescues_passive_cooling():
    calc = compute_power(worked(overhead_fraction=0.2), sysdesc("passive"), POL)
    assert calc.total_w == pytest.approx(9800 * 1.2)


def test_without_system_desc_the_descriptor_cooling_is_used():
    calc = compute_power(worked(), None, POL)
    assert calc.total_w == pytest.approx(12740.0) and "system_power.json" in calc.overhead_note


def test_published_system_is_taken_as_published():
    d = worked()
    d["node_sets"] = [{"node_set_id": "rack", "system_node_ensemble_id": 1, "nodes_provisioned": 18,
                       "power_method": "published_system", "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(140000.0)


def test_node_scaling_is_whole_node_rack_scaling():
    d = worked()
    d["node_sets"] = [{"node_set_id": "rack", "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "power_method": "node_scaling", "nodes_in_published_rack": 18, "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w == pytest.approx(70000.0)


def test_node_scaling_needs_the_rack_size():
    d = worked()
    d["node_sets"] = [{"node_set_id": "rack", "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "power_method": "node_scaling", "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w is None and any("nodes_in_published_rack" in p.message for p in calc.problems)


def test_published_system_over_a_different_node_count_is_a_problem():
    d = worked()
    d["node_sets"] = [{"node_set_id": "rack", "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "nodes_in_published_rack": 18, "power_method": "published_system",
                       "published_power": src(kw=140)}]
    assert any("node_scaling" in p.message for p in compute_power(d, sysdesc("liquid"), POL).problems)


def test_missing_cpu_tdp_takes_the_appendix_d_default():
    d = worked()
    del d["node_sets"][0]["components"]["cpu"]["tdp_per_unit"]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems
    assert calc.total_w == pytest.approx((2 * 500 + 5600 + 3500) * 1.3)
    (e,) = calc.estimated
    assert e.subsection == "D.1" and e.path == ("node_sets", 0, "components", "cpu", "tdp_per_unit")


def test_mlc_default_source_marks_the_value_estimated():
    d = worked()
    d["node_sets"][0]["components"]["scale_up_network"]["tdp_per_unit"] = src(3500, url="D.2", st_="mlc_default")
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(12740.0)
    assert [e.subsection for e in calc.estimated] == ["D.2"]


def test_accelerators_have_no_default():
    d = worked()
    del d["node_sets"][0]["components"]["accelerator"]["tdp_per_unit"]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w is None and any("no default" in p.message for p in calc.problems)


@pytest.mark.parametrize("value,needle", [
    ({"value_w": 350, "value_kw": 0.35, "source_type": "vendor_spec", "source": "https://x.org"}, "exactly one"),
    ({"source_type": "vendor_spec", "source": "https://x.org"}, "exactly one"),
    ({"value_w": 350, "source_type": "vendor_spec", "source": "ftp://x.org/spec"}, "http(s) URL"),
    ({"value_w": 350, "source_type": "mlc_default", "source": "D.9"}, "Appendix D subsection"),
    ({"value_w": 350, "source_type": "rumour", "source": "https://x.org"}, "source_type"),
    ({"value_w": 350, "source_type": "vendor_spec", "source": "https://x.org", "note": "x"}, "unknown key"),
    ({"value_pj": 5, "source_type": "vendor_spec", "source": "https://x.org"}, "not energy per bit"),
    ({"value_w": "350", "source_type": "vendor_spec", "source": "https://x.org"}, "must be a number"),
    ({"value_w": float("nan"), "source_type": "vendor_spec", "source": "https://x.org"}, "must be a number"),
])
def test_sourced_value_problems(value, needle):
    d = worked()
    d["node_sets"][0]["components"]["cpu"]["tdp_per_unit"] = value
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert any(needle in p.message for p in calc.problems), [p.message for p in calc.problems]
    assert all(p.path[:4] == ("node_sets", 0, "components", "cpu") for p in calc.problems)


def test_value_kw_is_converted():
    d = worked()
    d["node_sets"][0]["components"]["scale_up_network"]["tdp_per_unit"] = src(kw=3.5)
    assert compute_power(d, sysdesc("liquid"), POL).total_w == pytest.approx(12740.0)


def test_bandwidth_estimate_is_terabits_times_picojoules():
    d = worked()
    d["node_sets"][0]["components"]["scale_up_network"] = {"method": "bandwidth_estimate", "bandwidth_tbps": 57.6,
                                                           "energy_per_bit": src(pj=5)}
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w == pytest.approx((700 + 5600 + 57.6 * 5) * 1.3)


def test_scale_out_switches_and_counted_nics_are_added():
    d = worked(scale_out={"present": True, "cabling": "copper",
                          "nics": {"count_per_node": 8, "bandwidth_per_nic_gbps": 400, "counted": True,
                                   "tdp_per_nic": src(25)},
                          "switches": [{"model": "Tomahawk 5", "count": 2, "bandwidth_tbps": 51.2,
                                        "power_per_switch": src(2000)}]})
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w == pytest.approx((9800 + 200) * 1.3 + 4000)


def test_scale_out_absent_with_switches_listed_is_a_problem():
    d = worked(scale_out={"present": False, "switches": [{"count": 1}]})
    assert any("present" in p.message for p in compute_power(d, sysdesc("liquid"), POL).problems)


def test_switch_power_default_is_estimated():
    d = worked(scale_out={"present": True, "switches": [{"model": "x", "count": 1}]})
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w == pytest.approx(12740.0 + 3500)
    assert [e.subsection for e in calc.estimated] == ["D.3"]


@pytest.mark.parametrize("declared,ok", [(12.74, True), (12.8, True), (12.9, False), (10.0, False)])
def test_written_total_must_match_within_one_percent(declared, ok):
    calc = compute_power(worked(provisioned_power_kw=declared), sysdesc("liquid"), POL)
    assert (not calc.mismatches) is ok


def test_flat_declared_total_is_used_as_is_without_groups():
    calc = compute_power({"provisioned_power_w": 5000}, sysdesc("passive"), POL)
    assert calc.total_w == 5000.0 and calc.doc.shape == "flat"


def test_flat_rack_scaling():
    calc = compute_power({"rack_power_w": 140000, "rack_nodes": 18, "submitted_nodes": 9}, sysdesc("air"), POL)
    assert calc.total_w == pytest.approx(70000.0)


def test_flat_blank_cpu_group_is_reported():
    calc = compute_power({"accelerator": {"count": 8, "tdp_per_unit": 700}}, sysdesc("air"), POL)
    assert calc.total_w == pytest.approx(8400.0)
    assert [e.label for e in calc.estimated] == ["cpu group"]


def test_flat_declared_total_disagreeing_with_groups_is_a_mismatch():
    d = dict(FLAT, provisioned_power_w=9000)
    assert compute_power(d, sysdesc("liquid"), POL).mismatches


@pytest.mark.parametrize("data", [None, [], "x", {"node_sets": "x"}, {"node_sets": [None, 3]},
                                  {"node_sets": [{"power_method": "teleport"}]}])
def test_hostile_shapes_never_raise(data):
    calc = compute_power(data, sysdesc("air"), POL)
    assert calc.total_w is None and calc.problems


@settings(max_examples=60, deadline=None)
@given(cpus=st.integers(0, 8), cpu_w=st.floats(1, 1000), accs=st.integers(0, 16), acc_w=st.floats(1, 3000),
       sw=st.integers(0, 18), sw_w=st.floats(0, 5000), nodes=st.integers(1, 72),
       cooling=st.sampled_from(["liquid", "air"]))
def test_total_is_major_times_one_plus_overhead(cpus, cpu_w, accs, acc_w, sw, sw_w, nodes, cooling):
    d = copy.deepcopy(worked())
    ns = d["node_sets"][0]
    ns["nodes_provisioned"] = nodes
    ns["components"] = {"cpu": {"count_per_node": cpus, "tdp_per_unit": src(cpu_w)},
                        "accelerator": {"count_per_node": accs, "tdp_per_unit": src(acc_w)},
                        "scale_up_network": {"method": "declared_tdp", "count_per_node": sw,
                                             "tdp_per_unit": src(sw_w)}}
    calc = compute_power(d, sysdesc(cooling), POL)
    major = (cpus * cpu_w + accs * acc_w + sw * sw_w) * nodes
    oh = 0.3 if cooling == "liquid" else 0.5
    assert math.isclose(calc.total_w, major * (1 + oh), rel_tol=1e-9, abs_tol=1e-9)
    flat = {"cpu": {"count": cpus * nodes, "tdp_per_unit": cpu_w}, "accelerator": {"count": accs * nodes,
            "tdp_per_unit": acc_w}, "scale_up_network": {"count": sw * nodes, "tdp_per_unit": sw_w}}
    assert math.isclose(compute_power(flat, sysdesc(cooling), POL).total_w, calc.total_w, rel_tol=1e-9,
                        abs_tol=1e-9)


def test_appendix_e_schema_accepts_the_fixture_and_the_worked_example():
    import json
    import os

    import jsonschema

    from casefixtures import FIXTURES, PLACEHOLDERS
    with open(os.path.join(os.path.dirname(FIXTURES), "schemas", "system_power.schema.json")) as fh:
        schema = json.load(fh)
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    with open(os.path.join(FIXTURES, "valid", PLACEHOLDERS["{system}"], "system_power.json")) as fh:
        assert not list(v.iter_errors(json.load(fh)))
    assert not list(v.iter_errors(worked()))
    bad = worked()
    bad["node_sets"][0]["components"]["cpu"]["tdp_per_unit"] = {"value_w": 1, "value_kw": 1,
                                                                "source_type": "mlc_default", "source": "D.9"}
    assert list(v.iter_errors(bad))
