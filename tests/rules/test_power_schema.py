"""schemas/system_power.schema.json describes the Appendix E shape (POWER.md E.1-E.4).

Every descriptor the checker accepts in the cases (each also accepted by the official checker
1.5.3.0 when the case was written) is valid under the schema; the shapes of earlier drafts are not.
"""
import glob
import json
import os

import jsonschema
import pytest

from casefixtures import FIXTURES, PLACEHOLDERS, REPO, load_case, materialise
from powercases import comps, fabric, src, worked

CASES = os.path.join(REPO, "rules", "power", "cases")  # the power family's cases

with open(os.path.join(REPO, "schemas", "system_power.schema.json"), encoding="utf-8") as _fh:
    SCHEMA = json.load(_fh)
jsonschema.Draft202012Validator.check_schema(SCHEMA)
V = jsonschema.Draft202012Validator(SCHEMA)
POWER_FILE = os.path.join(PLACEHOLDERS["{system}"], "system_power.json")
ACCEPTED = sorted(glob.glob(os.path.join(CASES, "power-*", "accepted-*.yaml"))
                  + glob.glob(os.path.join(CASES, "power-scale-out-nics", "counted-on-published-with-evidence.yaml")))
EARLIER = sorted(glob.glob(os.path.join(CASES, "power-descriptor", "earlier-names-*.yaml"))
                 + [os.path.join(CASES, "power-descriptor", n + ".yaml")
                    for n in ("node-set-id-string", "cooling-not-lower-case")])


def errors(doc):
    return [e.message for e in V.iter_errors(doc)]


@pytest.mark.parametrize("base", ["valid", "agentic"])
def test_bundled_fixtures_are_appendix_e(base):
    with open(os.path.join(FIXTURES, base, POWER_FILE), encoding="utf-8") as fh:
        assert not errors(json.load(fh))


def _case_power(path, tmp):
    pkg = materialise(load_case(path), str(tmp))
    with open(os.path.join(pkg, POWER_FILE), encoding="utf-8") as fh:
        return json.load(fh)


@pytest.mark.parametrize("path", ACCEPTED, ids=[os.path.relpath(p, CASES) for p in ACCEPTED])
def test_schema_accepts_every_accepted_case(path, tmp_path):
    assert len(ACCEPTED) >= 8
    assert not errors(_case_power(path, tmp_path))


@pytest.mark.parametrize("path", EARLIER, ids=[os.path.relpath(p, CASES) for p in EARLIER])
def test_schema_rejects_the_names_of_earlier_drafts(path, tmp_path):
    assert errors(_case_power(path, tmp_path))


def test_schema_accepts_every_method_and_form():
    assert not errors(worked())
    assert not errors(fabric(tdp_per_nic=src(25), excluded_from_published_power="https://example.org/x"))
    d = worked(declared_provisioned_power=src(kw=15), provisioned_power_kw=15.0, mlc_estimated_power=True,
               notes="x", computed={"total_system_power_w": 12740, "overhead_fraction": 0.3})
    comps(d)["scale_up_network"] = {"method": "bandwidth_estimate", "aggregate_bandwidth_tbps": 14.4,
                                    "energy_per_bit_pj": src(pj=5, url="D.1", st_="mlc_default")}
    comps(d)["combined_cpu_accelerator"] = src(6300)
    del comps(d)["cpu"]["tdp_per_unit"], comps(d)["accelerator"]["tdp_per_unit"]
    assert not errors(d)


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(cooling="Liquid"),
    lambda d: comps(d)["cpu"].update(tdp_per_unit=src(350, url="D.9", st_="mlc_default")),
    lambda d: comps(d)["cpu"].update(tdp_per_unit=dict(src(350), value_kw=0.35)),
    lambda d: comps(d)["cpu"].update(tdp_per_unit=dict(src(350), notes="x")),
    lambda d: comps(d)["cpu"].update(tdp_per_unit=src(pj=5)),
    lambda d: comps(d).update(scale_up_network={"method": "bandwidth_estimate", "aggregate_bandwidth_tbps": 1,
                                                "energy_per_bit_pj": src(5)}),
    lambda d: comps(d).update(combined_cpu_accelerator=src(6300)),  # beside cpu/accelerator TDPs
    lambda d: d["node_sets"][0].update(power_method="node_scaling", published_power=src(kw=80)),
    lambda d: d.update(scale_out={"present": True, "cabling": "passive"}),
    lambda d: d.update(scale_out={"present": False, "cabling": "copper"}),
    lambda d: d.pop("scale_out"),
])
def test_schema_rejects_what_appendix_e_forbids(mutate):
    d = worked()
    mutate(d)
    assert errors(d)
