"""Provisioned power (POWER.md): the E.4 scale-out and E.7 written-figure checks, hostile input, properties."""
import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from powercases import E7, FLAT, POL, comps, fabric, msgs, src, sysdesc, warns, worked  # noqa: F401
from rules.power.arithmetic import compute_power


# --- E.4 scale-out ------------------------------------------------------------------------------------

def test_counted_nics_take_the_overhead_and_switches_do_not():
    calc = compute_power(fabric(tdp_per_nic=src(25)), sysdesc("liquid", nodes=2), POL)
    assert not calc.problems and not calc.warnings
    assert calc.major_w == pytest.approx(2 * (9800 + 50))
    assert calc.total_w == pytest.approx(2 * 9850 * 1.3 + 900)


def test_nic_default_is_75_w_from_d4():
    calc = compute_power(fabric(), sysdesc("liquid", nodes=2), POL)
    assert calc.major_w == pytest.approx(2 * (9800 + 150))
    assert [(e.subsection, e.value) for e in calc.estimated] == [("D.4", "75 W")]


def test_switch_default_by_model_and_cabling():
    d = fabric()
    d["scale_out"]["cabling"] = "active_optical"
    del d["scale_out"]["switches"][0]["power_per_switch"]
    d["scale_out"]["nics"]["tdp_per_nic"] = src(25)
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert calc.switches_w == pytest.approx(2080.0) and [e.subsection for e in calc.estimated] == ["D.4"]
    d["scale_out"]["switches"][0]["model"] = "Tomahawk 5"
    assert compute_power(d, sysdesc("liquid", nodes=2), POL).gaps


def test_uncounted_nics_on_component_built_nodes_reject():
    calc = compute_power(fabric(counted=False), sysdesc("liquid", nodes=2), POL)
    assert msgs(calc) == msgs(calc, "nics") and len(msgs(calc)) == 1 and calc.total_w is None


def test_counted_nics_on_published_figures_need_the_evidence():
    d = fabric()
    d["node_sets"][0] = {"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 2,
                         "power_method": "published_system", "published_power": src(10000)}
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert len(msgs(calc, "nics")) == 1
    d["scale_out"]["nics"]["excluded_from_published_power"] = "https://example.org/node-spec#nics-not-included"
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert not calc.problems
    assert calc.total_w == pytest.approx(20000 + 2 * 150 * 1.3 + 900)  # NICs in Major, so they take the overhead


def test_required_bandwidth_below_the_nics_rejects_above_warns():
    calc = compute_power(fabric(required=1.0), sysdesc("liquid", nodes=2), POL)
    assert len(msgs(calc, "bandwidth")) == 1 and "2 nodes x 2 NICs x 400 Gb/s = 1.6 Tb/s" in msgs(calc)[0]
    calc = compute_power(fabric(required=3.2), sysdesc("liquid", nodes=2), POL)
    assert not calc.problems and warns(calc, "bandwidth")


def test_switches_must_offer_the_requirement():
    calc = compute_power(fabric(offered=(1, 1.2)), sysdesc("liquid", nodes=2), POL)
    assert msgs(calc) == msgs(calc, "bandwidth") and "offer 1.2 Tb/s" in msgs(calc)[0]


def test_present_true_needs_the_fabric():
    d = worked(scale_out={"present": True})
    d["node_sets"][0]["nodes_provisioned"] = 2
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    text = " ".join(msgs(calc))
    assert all(k in text for k in ("cabling", "required_bandwidth_tbps", "nics", "switches"))


def test_multi_node_with_nothing_joining_rejects_else_warns():
    d = worked()
    d["node_sets"][0]["nodes_provisioned"] = 2
    comps(d)["scale_up_network"] = {"method": "none"}
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert len(msgs(calc, "fabric")) == 1 and calc.total_w is None
    d = worked()
    d["node_sets"][0]["nodes_provisioned"] = 2
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert not calc.problems and warns(calc, "fabric")


def test_present_true_on_one_node_and_listed_switches_under_false_warn():
    calc = compute_power(fabric(nodes=1, required=0.8), sysdesc("liquid"), POL)
    assert not calc.problems and warns(calc, "fabric")
    d = worked(scale_out={"present": False, "switches": [{"model": "SN5610", "count": 1, "bandwidth_tbps": 51.2}]})
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and warns(calc, "fabric") and calc.total_w == pytest.approx(12740.0)


# --- E.7 written figures, declared power ---------------------------------------------------------------

def test_computed_block_that_matches_passes():
    calc = compute_power(worked(computed=dict(E7, total_system_power_w=12740.4), provisioned_power_kw=12.74),
                         sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(12740.0)


@pytest.mark.parametrize("key,value", [("major_components_w", 9801), ("other_components_w", 2000),
                                       ("total_system_power_w", 12741), ("overhead_fraction", 0.5),
                                       ("scale_out_switch_power_w", 3500)])
def test_each_computed_figure_is_compared(key, value):
    calc = compute_power(worked(computed=dict(E7, **{key: value})), sysdesc("liquid"), POL)
    (p,) = calc.problems
    assert p.check == "computed" and p.path == ("computed", key) and calc.total_w is None


@pytest.mark.parametrize("kw,ok", [(12.74, True), (12.745, True), (12.75, False), (12.0, False)])
def test_provisioned_power_kw_within_0_005(kw, ok):
    calc = compute_power(worked(provisioned_power_kw=kw), sysdesc("liquid"), POL)
    assert (not calc.problems) is ok


def test_written_figures_are_compared_despite_a_cooling_disagreement():
    calc = compute_power(worked(computed=dict(E7, major_components_w=1)), sysdesc("air"), POL)
    assert {p.check for p in calc.problems} == {"cooling", "computed"}


def test_an_incomplete_recomputation_is_not_compared():
    d = worked(provisioned_power_kw=99.0)
    del comps(d)["scale_up_network"]["tdp_per_switch"]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not msgs(calc, "computed") and calc.gaps


def test_declared_provisioned_power_governs_and_its_parts_only_cross_check():
    d = worked(declared_provisioned_power=src(kw=15), provisioned_power_kw=15.0)
    del comps(d)["scale_up_network"]["tdp_per_switch"]  # a gap below a declared figure does not reject
    del comps(d)["cpu"]["tdp_per_unit"]  # a default below it does not tag
    comps(d)["cpu"]["model"] = "Intel Xeon Platinum 8480C"
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(15000.0) and not calc.estimated


def test_declared_power_below_its_parts_is_a_warning():
    calc = compute_power(worked(declared_provisioned_power=src(kw=10)), sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == 10000.0 and any("below what its own parts" in w for w in warns(calc))


def test_declared_power_as_mlc_default_is_estimated():
    calc = compute_power(worked(declared_provisioned_power=src(kw=15, url="D.4", st_="mlc_default")),
                         sysdesc("liquid"), POL)
    assert [e.label for e in calc.estimated] == ["declared provisioned power"]


def test_legacy_computed_keys_and_top_level_overhead_fraction_only_warn():
    calc = compute_power(worked(computed={"total_kw": 99}, overhead_fraction=0.2), sysdesc("liquid"), POL)
    assert not calc.problems and len(warns(calc, "computed")) == 2 and calc.total_w == pytest.approx(12740.0)


# --- hostile input ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("data", [None, [], "x", {"node_sets": "x"}, {"node_sets": [None, 3]},
                                  {"node_sets": [{"power_method": "teleport"}]},
                                  {"node_sets": [{}], "scale_out": {"present": True, "nics": 3, "switches": {}}},
                                  {"node_sets": [{"power_method": "component_sum", "components": {"cpu": 1,
                                                  "scale_up_network": {"method": "bandwidth_estimate",
                                                                       "aggregate_bandwidth_tbps": "x"}}}]}])
def test_hostile_shapes_never_raise(data):
    calc = compute_power(data, sysdesc("air"), POL)
    assert calc.total_w is None and calc.problems


_LEAF = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=True), st.text(max_size=5),
                  st.lists(st.integers(), max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))


def _paths(d, prefix=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield prefix + (k,)
            yield from _paths(v, prefix + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield prefix + (i,)
            yield from _paths(v, prefix + (i,))


_FULL = fabric(computed=E7, provisioned_power_kw=1.0, declared_provisioned_power=src(1))
_ALL_PATHS = list(_paths(_FULL))


@settings(max_examples=150, deadline=None)
@given(picks=st.lists(st.tuples(st.sampled_from(_ALL_PATHS), _LEAF), min_size=1, max_size=4))
def test_any_field_of_any_type_is_a_finding_never_an_exception(picks):
    d = copy.deepcopy(_FULL)
    for path, value in picks:
        cur = d
        try:
            for p in path[:-1]:
                cur = cur[p]
            cur[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert calc.total_w is None or calc.total_w >= 0


@settings(max_examples=60, deadline=None)
@given(cpus=st.integers(0, 8), cpu_w=st.floats(1, 1000), accs=st.integers(0, 16), acc_w=st.floats(1, 3000),
       sw=st.integers(0, 18), sw_w=st.floats(0, 5000), nodes=st.integers(1, 72),
       cooling=st.sampled_from(["liquid", "air"]))
def test_total_is_major_times_one_plus_overhead(cpus, cpu_w, accs, acc_w, sw, sw_w, nodes, cooling):
    d = copy.deepcopy(worked(cooling=cooling))
    ns = d["node_sets"][0]
    ns["nodes_provisioned"] = nodes
    ns["components"] = {"cpu": {"count_per_node": cpus, "tdp_per_unit": src(cpu_w)},
                        "accelerator": {"count_per_node": accs, "tdp_per_unit": src(acc_w)},
                        "scale_up_network": {"method": "declared_tdp", "switch_count": sw,
                                             "tdp_per_switch": src(sw_w)}}
    calc = compute_power(d, sysdesc(cooling, nodes=nodes), POL)
    major = (cpus * cpu_w + accs * acc_w + sw * sw_w) * nodes
    oh = 0.3 if cooling == "liquid" else 0.5
    assert math.isclose(calc.recomputed_w, major * (1 + oh), rel_tol=1e-9, abs_tol=1e-9)
    flat = {"cpu": {"count": cpus * nodes, "tdp_per_unit": cpu_w}, "accelerator": {"count": accs * nodes,
            "tdp_per_unit": acc_w}, "scale_up_network": {"count": sw * nodes, "tdp_per_unit": sw_w}}
    assert math.isclose(compute_power(flat, sysdesc(cooling), POL).recomputed_w, calc.recomputed_w, rel_tol=1e-9,
                        abs_tol=1e-9)
