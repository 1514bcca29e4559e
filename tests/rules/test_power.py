"""Provisioned power (POWER.md): the Appendix E shape, E.5 arithmetic, names of earlier drafts, Appendix D."""
import json

import pytest

from powercases import FLAT, POL, comps, msgs, src, sysdesc, warns, worked  # noqa: F401
from checker.load.models.attach import attach_model
from checker.load.reader import read_file
from rules.power.arithmetic import compute_power


# --- E.5 arithmetic -----------------------------------------------------------------------------

def test_worked_example_liquid_is_12_74_kw():
    calc = compute_power(worked(), sysdesc("liquid"), POL)
    assert not calc.problems and not calc.warnings and calc.total_w == pytest.approx(12740.0)
    assert (calc.major_w, calc.other_w) == pytest.approx((9800.0, 2940.0))
    assert 25000 / (calc.total_w / 1000) == pytest.approx(1962.4, abs=0.1)
    assert not calc.estimated


def test_worked_example_flat_shape_gives_the_same_total():
    calc = compute_power(FLAT, sysdesc("Liquid (direct-to-chip)"), POL)
    assert calc.doc.shape == "flat" and not calc.problems
    assert calc.total_w == pytest.approx(12740.0)


def test_air_cooled_overhead_is_half():
    calc = compute_power(worked(cooling="air"), sysdesc("air"), POL)
    assert calc.total_w == pytest.approx(9800 * 1.5)


def test_overhead_follows_the_descriptor_cooling_and_a_disagreement_normalises_nothing():
    calc = compute_power(worked(), sysdesc("air"), POL)
    assert msgs(calc, "cooling") == ["system_power.json says 'liquid' but system_desc.json says 'air'"]
    assert calc.recomputed_w == pytest.approx(12740.0) and calc.total_w is None


def test_node_types_cooled_differently_must_be_declared_air():
    assert msgs(compute_power(worked(), sysdesc("liquid", "air"), POL), "cooling")
    calc = compute_power(worked(cooling="air"), sysdesc("liquid", "air"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(14700.0)


@pytest.mark.parametrize("cooling", ["passive", "heat pipes"])
def test_sysdesc_cooling_of_no_class_is_a_warning(cooling):
    calc = compute_power(worked(), sysdesc(cooling), POL)
    assert not calc.problems and warns(calc, "cooling") and calc.total_w == pytest.approx(12740.0)


@pytest.mark.parametrize("cooling,hint", [("Liquid", 'lower case: "liquid"'), ("water", "exactly liquid or air"),
                                          (None, "`cooling` is missing"), (3, "expected a string")])
def test_descriptor_cooling_is_exactly_liquid_or_air(cooling, hint):
    d = worked(cooling=cooling)
    if cooling is None:
        del d["cooling"]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert any(hint in m for m in msgs(calc, "descriptor")) and calc.total_w is None


def test_published_system_is_nodes_times_the_published_node_figure():
    d = worked()
    d["node_sets"] = [{"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 18,
                       "power_method": "published_system", "published_power": src(kw=7.8)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(18 * 7800.0)
    assert calc.published_w == pytest.approx(140400.0) and calc.major_w == 0


def test_published_system_with_a_rack_count_is_a_warning_not_a_reject():
    d = worked()
    d["node_sets"] = [{"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "nodes_in_published_rack": 18, "power_method": "published_system",
                       "published_power": src(kw=7.8)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and any("one node" in w for w in warns(calc))
    assert calc.total_w == pytest.approx(9 * 7800.0)


def test_node_scaling_is_whole_node_rack_scaling():
    d = worked()
    d["node_sets"] = [{"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "power_method": "node_scaling", "nodes_in_published_rack": 18, "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(70000.0)


@pytest.mark.parametrize("n", [9, 4])
def test_node_scaling_needs_more_rack_nodes_than_provisioned(n):
    d = worked()
    d["node_sets"] = [{"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "power_method": "node_scaling", "nodes_in_published_rack": n, "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert any("must be greater than nodes_provisioned" in m for m in msgs(calc)) and calc.total_w is None


def test_node_scaling_needs_the_rack_size():
    d = worked()
    d["node_sets"] = [{"node_set_id": 1, "system_node_ensemble_id": 1, "nodes_provisioned": 9,
                       "power_method": "node_scaling", "published_power": src(kw=140)}]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w is None and any("nodes_in_published_rack" in m for m in msgs(calc))


def test_bandwidth_estimate_reads_terabytes_times_8_times_picojoules():
    d = worked()
    comps(d)["scale_up_network"] = {"method": "bandwidth_estimate", "aggregate_bandwidth_tbps": 14.4,
                                    "energy_per_bit_pj": src(pj=5)}
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems
    assert calc.major_w == pytest.approx(700 + 5600 + 576.0)


def test_a_missing_energy_per_bit_is_a_gap_not_a_default():
    d = worked()
    comps(d)["scale_up_network"] = {"method": "bandwidth_estimate", "aggregate_bandwidth_tbps": 14.4}
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w is None and not calc.estimated
    assert [g.path[-1] for g in calc.gaps] == ["energy_per_bit_pj"]


def test_energy_per_bit_in_watts_is_a_problem():
    d = worked()
    comps(d)["scale_up_network"] = {"method": "bandwidth_estimate", "aggregate_bandwidth_tbps": 14.4,
                                    "energy_per_bit_pj": src(w=5)}
    assert any("give value_pj" in m for m in msgs(compute_power(d, sysdesc("liquid"), POL)))


def test_scale_up_none_is_zero_and_value_kw_is_converted():
    d = worked()
    comps(d)["scale_up_network"] = {"method": "none"}
    comps(d)["accelerator"]["tdp_per_unit"] = src(kw=0.7)
    assert compute_power(d, sysdesc("liquid"), POL).total_w == pytest.approx(6300 * 1.3)


def test_combined_cpu_accelerator_is_one_sourced_figure_per_node():
    d = worked()
    d["node_sets"][0]["nodes_provisioned"] = 2
    c = comps(d)
    c["combined_cpu_accelerator"] = src(6300)
    del c["cpu"]["tdp_per_unit"], c["accelerator"]["tdp_per_unit"]
    calc = compute_power(d, sysdesc("liquid", nodes=2), POL)
    assert not calc.problems and calc.major_w == pytest.approx(2 * (6300 + 3500))
    del c["cpu"], c["accelerator"]
    assert compute_power(d, sysdesc("liquid", nodes=2), POL).major_w == pytest.approx(2 * (6300 + 3500))


def test_combined_beside_a_cpu_tdp_is_a_problem():
    d = worked()
    comps(d)["combined_cpu_accelerator"] = src(6300)
    assert any("give one or the other" in m for m in msgs(compute_power(d, sysdesc("liquid"), POL)))


# --- names of earlier drafts ---------------------------------------------------------------------

@pytest.mark.parametrize("scale_up,names", [
    ({"method": "declared_tdp", "count_per_node": 4, "tdp_per_unit": src(100)}, ("switch_count", "tdp_per_switch")),
    ({"method": "bandwidth_estimate", "bandwidth_tbps": 57.6, "energy_per_bit": src(pj=5)},
     ("aggregate_bandwidth_tbps", "energy_per_bit_pj")),
])
def test_scale_up_in_the_names_we_used_fails_naming_the_appendix_e_fields(scale_up, names):
    d = worked()
    comps(d)["scale_up_network"] = scale_up
    calc = compute_power(d, sysdesc("liquid"), POL)
    text = " ".join(msgs(calc))
    assert calc.total_w is None and all(n in text for n in names), text
    assert calc.problems[0].path[-1] in scale_up  # located at the old key's line


def test_combined_as_a_count_and_unit_group_fails_naming_the_sourced_value():
    d = worked()
    c = comps(d)
    del c["cpu"], c["accelerator"]
    c["combined_cpu_accelerator"] = {"count_per_node": 1, "tdp_per_unit": src(6300)}
    calc = compute_power(d, sysdesc("liquid"), POL)
    (m,) = msgs(calc)
    assert "one sourced value" in m and "not a {count_per_node, tdp_per_unit} group" in m


def test_string_node_set_id_fails():
    d = worked()
    d["node_sets"][0]["node_set_id"] = "hgx-h200"
    assert any("node_set_id`: expected an integer" in m for m in msgs(compute_power(d, sysdesc("liquid"), POL)))


def test_misspelled_required_key_is_named_with_did_you_mean():
    d = worked()
    up = comps(d)["scale_up_network"]
    up["switch_cuont"] = up.pop("switch_count")
    calc = compute_power(d, sysdesc("liquid"), POL)
    (p,) = calc.problems
    assert "did you mean `switch_count`" in p.message and p.path[-1] == "switch_cuont"


def _loaded(d, tmp_path):
    """``d`` written as system_power.json and loaded as a check loads it (types, spellings)."""
    path = tmp_path / "system_power.json"
    path.write_text(json.dumps(d), encoding="utf-8")
    lf = read_file("power", "system_power.json", str(path), str(tmp_path))
    attach_model(lf)
    return lf, compute_power(lf.data, sysdesc("liquid"), POL, validated=(lf.model, lf.field_errors))


def test_numbers_and_booleans_written_as_strings_are_read_with_a_value_spelling_note(tmp_path):
    d = worked()
    comps(d)["cpu"]["count_per_node"] = "2"
    comps(d)["cpu"]["tdp_per_unit"]["value_w"] = "350"
    d["scale_out"]["present"] = "false"
    lf, calc = _loaded(d, tmp_path)
    assert not calc.problems and not calc.warnings and calc.total_w == pytest.approx(12740.0)
    assert [s.path[-1] for s in lf.spellings] == ["count_per_node", "value_w", "present"]
    comps(d)["cpu"]["count_per_node"] = "two"
    assert any("count_per_node`: expected an integer" in m for m in msgs(_loaded(d, tmp_path)[1]))


def test_integral_float_count_is_accepted(tmp_path):
    d = worked()
    d["node_sets"][0]["nodes_provisioned"] = 1.0
    comps(d)["accelerator"]["count_per_node"] = 8.0
    lf, calc = _loaded(d, tmp_path)
    assert calc.total_w == pytest.approx(12740.0)
    assert [(s.path[-1], s.why) for s in lf.spellings] == [("nodes_provisioned", "integral float"),
                                                           ("count_per_node", "integral float")]


# --- Appendix D defaults ----------------------------------------------------------------------------

@pytest.mark.parametrize("model,cores,watts", [
    ("Intel Xeon Platinum 8480C", 56, 350), ("AMD EPYC 9965", 192, 500), ("NVIDIA Grace", 72, 300),
    ("AWS Graviton4 96-core", None, 300), ("AMD EPYC 9654 96-core", None, 500),
    ("NVIDIA Grace", 144, None), ("RISC-V thing", 32, None), (None, 56, None),
])
def test_cpu_default_by_architecture_and_cores(model, cores, watts):
    d = worked()
    cpu = comps(d)["cpu"]
    del cpu["tdp_per_unit"]
    if model:
        cpu["model"] = model
    calc = compute_power(d, sysdesc("liquid", cores=cores), POL)
    if watts is None:
        assert calc.total_w is None and [g.path[-2] for g in calc.gaps] == ["cpu"]
    else:
        assert calc.total_w == pytest.approx((2 * watts + 5600 + 3500) * 1.3)
        (e,) = calc.estimated
        assert e.subsection == "D.2" and e.path[-2:] == ("cpu", "tdp_per_unit")


def test_cpu_gap_names_the_model_that_would_give_a_default():
    d = worked()
    del comps(d)["cpu"]["tdp_per_unit"]
    (g,) = compute_power(d, sysdesc("liquid"), POL).gaps
    assert 'add "model": "Intel Xeon Platinum 8480C"' in g.fix and "350 W" in g.fix


@pytest.mark.parametrize("model,watts", [("NVIDIA GB300", 1400), ("NVIDIA B300 SXM", 1100), ("NVIDIA GB200", 1200),
                                         ("NVIDIA B200", 1000), ("AMD Instinct MI355X", 1400),
                                         ("Google TPU v7", 1000), ("NVIDIA H200", None)])
def test_accelerator_default_by_model(model, watts):
    d = worked()
    acc = comps(d)["accelerator"]
    del acc["tdp_per_unit"]
    acc["model"] = model
    calc = compute_power(d, sysdesc("liquid"), POL)
    if watts is None:
        assert calc.total_w is None and calc.gaps
    else:
        assert calc.major_w == pytest.approx(700 + 8 * watts + 3500)
        assert [e.subsection for e in calc.estimated] == ["D.3"]


def test_a_count_of_zero_needs_no_figure():
    d = worked()
    comps(d)["cpu"] = {"count_per_node": 0}
    comps(d)["scale_up_network"] = {"method": "declared_tdp", "switch_count": 0}
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.major_w == pytest.approx(5600.0) and not calc.estimated


def test_scale_up_switch_has_no_default():
    d = worked()
    del comps(d)["scale_up_network"]["tdp_per_switch"]
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.total_w is None and "D.1" in calc.gaps[0].message


def test_mlc_default_source_marks_the_value_estimated():
    d = worked()
    comps(d)["cpu"]["tdp_per_unit"] = src(350, url="D.2", st_="mlc_default")
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert not calc.problems and calc.total_w == pytest.approx(12740.0)
    assert [e.subsection for e in calc.estimated] == ["D.2"]


def test_appendix_d_policy_is_the_power_md_table():
    d = POL.appendix_d
    assert (d.cpu.subsection, d.accelerator.subsection, d.scale_out_switch.subsection, d.nic.subsection) == \
        ("D.2", "D.3", "D.4", "D.4")
    assert d.nic.value_w == 75
    assert d.accelerator.models == {"GB300": 1400, "GB200": 1200, "B300": 1100, "B200": 1000, "MI455X": 2500,
                                    "MI355X": 1400, "MI350X": 1000, "TPU v7": 1000, "TN3": 700}
    assert d.scale_out_switch.models == {"SN6810LD": {"passive": 1960, "active_optical": 1960},
                                         "SN5610": {"passive": 900, "active_optical": 2080},
                                         "SN5400": {"passive": 670}, "SN4700": {"passive": 630}}


@pytest.mark.parametrize("value,needle", [
    ({"value_w": 350, "value_kw": 0.35, "source_type": "vendor_spec", "source": "https://x.org"}, "exactly one"),
    ({"source_type": "vendor_spec", "source": "https://x.org"}, "exactly one"),
    ({"value_w": 350, "source_type": "vendor_spec", "source": "ftp://x.org/spec"}, "http(s) URL"),
    ({"value_w": 350, "source_type": "mlc_default", "source": "D.9"}, "Appendix D"),
    ({"value_w": 350, "source_type": "rumour", "source": "https://x.org"}, "source_type"),
    ({"value_w": 350, "source_type": "vendor_spec", "source": "https://x.org", "note": "x"}, "does not take"),
    ({"value_pj": 5, "source_type": "vendor_spec", "source": "https://x.org"}, "not an energy per bit"),
    ({"value_w": "350 W", "source_type": "vendor_spec", "source": "https://x.org"}, "expected a number"),
    ({"value_w": float("nan"), "source_type": "vendor_spec", "source": "https://x.org"}, "must be a number"),
    ({"value_w": -1, "source_type": "vendor_spec", "source": "https://x.org"}, "must be a number >= 0"),
    ("350 W", "expected a mapping"),
])
def test_sourced_value_problems(value, needle):
    d = worked()
    comps(d)["cpu"]["tdp_per_unit"] = value
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert any(needle in m for m in msgs(calc)), msgs(calc)
    assert all(p.path[:4] == ("node_sets", 0, "components", "cpu") for p in calc.problems)
    assert calc.total_w is None


# --- flat shape -------------------------------------------------------------------------------------------

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
    calc = compute_power(d, sysdesc("liquid"), POL)
    assert calc.mismatches and calc.total_w is None


def test_flat_mixed_cooling_is_the_policy_mixed_class():
    calc = compute_power(FLAT, sysdesc("liquid", "air"), POL)
    assert calc.overhead == 0.5 and "mixed" in calc.overhead_note




def test_the_loader_validates_each_shape_into_its_own_model(tmp_path):
    from checker.load.models.power_appendix_e import AppendixE
    from checker.load.models.power_flat import FlatPower

    lf, calc = _loaded(worked(), tmp_path)
    assert isinstance(lf.model, AppendixE) and not lf.field_errors and calc.doc.shape == "appendix-e"
    lf, calc = _loaded(dict(FLAT, cooling="liquid", overhead_fraction=0.3), tmp_path)
    assert isinstance(lf.model, FlatPower) and calc.doc.shape == "flat" and calc.total_w is not None
    d = worked()
    d["node_sets"][0]["nodes_provisioned"] = "one"
    lf, calc = _loaded(d, tmp_path)
    (p,) = lf.field_errors
    assert p.path == ("node_sets", 0, "nodes_provisioned") and lf.position(p.path)[0] is not None
    assert [x.message for x in calc.problems] == [p.message]  # refused, so not also reported missing
