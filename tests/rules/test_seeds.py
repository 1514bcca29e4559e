"""Seed values, both seed-set registry shapes, the override flags and exact big integers in output."""
import json
import os

import pytest
from click.testing import CliRunner

from checker.engine.pipeline import run_check
from checker.cli.main import main
from checker.engine.policy import load_policy
from checker.engine.catalogue import all_rules
from rules.shared.seed_values import MISSING, seed_problem

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALID = os.path.join(REPO, "fixtures", "valid")
OVR = os.path.join(REPO, "fixtures", "overrides")
SET_A = {"scheduler_rng_seed": 10487924139932647040, "sample_index_rng_seed": 586478644936801402,
         "model_seed": 9315206023656308754}

all_rules()  # register the policy schemas


@pytest.mark.parametrize("raw,ok,why", [
    (0, True, None), (42, True, None), (2**63, True, None), (2**64 - 1, True, None),
    (10487924139932647040, True, None),
    (2**64, False, "larger than 2^64-1"), (-1, False, "negative"), (-(2**64), False, "negative"),
    ("10487924139932647040", False, "written as a string"), (" 42 ", False, "written as a string"),
    ("forty-two", False, "a string"), (1.0487924139932647e19, False, "floating-point"), (42.0, False, "floating-point"),
    (float("nan"), False, "floating-point"), (True, False, "true, not an integer"), (None, False, "null"),
    ([1], False, "list"), ({"a": 1}, False, "mapping"), (MISSING, False, "missing"),
])
def test_seed_problem(raw, ok, why):
    prob = seed_problem(raw)
    assert (prob is None) == ok
    if why:
        assert why in prob


def test_bundled_policy_loads_and_is_exact():
    pol = load_policy()
    assert not pol.problems, pol.problems
    reg = pol.get("seed_sets")
    sets = reg.bound_sets(pol.get("cohort_rules").seed_set_adoption_cohorts)
    a = sets["A"]
    assert a.seeds == SET_A and all(type(v) is int for v in a.seeds.values())
    assert [str(c) for c in a.window] == ["2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0"]
    drafters = pol.get("approved_drafters").drafters  # APPROVED-DRAFTERS.md: 6 approved, 3 disputed
    assert len(drafters) == 9 and sum(1 for d in drafters if d.disputed) == 3
    assert {d.benchmark for d in drafters if d.disputed} == {"deepseek-r1", "gpt-oss-120b"}
    assert not any(d.benchmark.startswith("llama") for d in drafters)


@pytest.mark.parametrize("name,shape,window", [
    ("published.yaml", "published (cohort:)", ["2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0"]),
    ("published.json", "published (cohort:)", ["2026-10-C1", "2026-11-C0", "2026-11-C1", "2026-12-C0"]),
    ("bare.yaml", "bare seed_sets list", None),
    ("bare-with-cohorts.yaml", "bare seed_sets list", ["2026-10-C1", "2026-11-C0"]),
])
def test_both_registry_shapes(name, shape, window):
    pol = load_policy(overrides={"seed_sets": os.path.join(OVR, "seed_sets", name)})
    assert "seed_sets" not in pol.problems
    reg = pol.get("seed_sets")
    assert reg.shape == shape
    a = reg.bound_sets(4)["A"]
    assert a.seeds == SET_A
    assert (None if a.window is None else [str(c) for c in a.window]) == window


@pytest.mark.parametrize("name", ["empty.yaml", "not-yaml.yaml", "wrong-shape-list.yaml", "wrong-shape-keys.yaml",
                                  "seed-2-64.yaml", "seed-as-string.yaml", "seed-as-float.yaml", "seed-negative.yaml",
                                  "bad-cohort-id.yaml", "does-not-exist.yaml"])
def test_broken_registry_is_a_problem_not_a_crash(name):
    pol = load_policy(overrides={"seed_sets": os.path.join(OVR, "seed_sets", name)})
    assert pol.problem("seed_sets") is not None  # read and validated when first asked for
    assert "seed_sets" in pol.problems
    assert not pol.available("seed_sets")


def test_registry_problem_reported_once_by_its_own_rule():
    r = run_check([VALID], policy_overrides={"seed_sets": "/nonexistent/seeds.yaml"})
    fails = [f for f in r.findings if f.status.value == "FAIL"]
    assert [f.rule_id for f in fails] == ["seed-set-registry"]
    assert r.exit_code() == 1
    seed_skips = [f for f in r.findings if f.status.value == "SKIP" and f.reason == "registry-unusable"]
    assert {f.rule_id for f in seed_skips} == {"seed-set-membership", "seed-runtime-match", "seed-set-adoption"}


def test_json_output_keeps_seeds_exact(tmp_path):
    import shutil

    pkg = tmp_path / "valid"
    shutil.copytree(VALID, pkg)
    p = pkg / "results/H200-SXM-141GBx8_TRT/llama3_1-8b/r8/point.yaml"
    p.write_text(p.read_text().replace("model_seed: 9315206023656308754", "model_seed: 18446744073709551615"))
    from checker.render import render

    r = run_check([str(pkg)], select=["seed-runtime-match"])
    text = render("json", r)
    assert "18446744073709551615" in text and "9315206023656308754" in text
    data = json.loads(text)
    f = next(x for x in data["findings"] if x["rule_id"] == "seed-runtime-match" and x["status"] == "FAIL")
    assert f["evidence"]["observed"] == {"model_seed": 18446744073709551615}
    assert f["evidence"]["expected"] == {"model_seed": 9315206023656308754}
    assert "model_seed 18446744073709551615 (set A: 9315206023656308754)" in f["message"]


def test_cli_flag_and_environment(tmp_path):
    runner = CliRunner()
    bare = os.path.join(OVR, "seed_sets", "bare.yaml")
    res = runner.invoke(main, ["check", VALID, "-f", "json", "--seed-sets", bare])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    adopt = [f for f in data["findings"] if f["rule_id"] == "seed-set-adoption"]
    assert adopt and all(f["status"] == "SKIP" and f["reason"] == "no-cohort-in-registry" for f in adopt)
    res = runner.invoke(main, ["check", VALID, "-q"], env={"MLPERF_ENDPOINTS_SEED_SETS": str(tmp_path / "none.yaml")})
    assert res.exit_code == 1 and "seed-set-registry" in res.output
    res = runner.invoke(main, ["check", VALID, "-q"],
                        env={"MLPERF_ENDPOINTS_APPROVED_DRAFTERS": os.path.join(OVR, "approved_drafters", "empty.yaml")})
    assert res.exit_code == 1 and "drafter-list-registry" in res.output
    # the flag wins over the environment
    res = runner.invoke(main, ["check", VALID, "-q", "--seed-sets", bare],
                        env={"MLPERF_ENDPOINTS_SEED_SETS": str(tmp_path / "none.yaml")})
    assert res.exit_code == 0, res.output
    # an empty environment variable means "not set"
    res = runner.invoke(main, ["check", VALID, "-q"], env={"MLPERF_ENDPOINTS_SEED_SETS": ""})
    assert res.exit_code == 0, res.output


def test_override_through_a_symlink(tmp_path):
    link = tmp_path / "seedset.yaml"
    link.symlink_to(os.path.join(OVR, "seed_sets", "published.yaml"))
    pol = load_policy(overrides={"seed_sets": str(link)})
    assert "seed_sets" not in pol.problems
