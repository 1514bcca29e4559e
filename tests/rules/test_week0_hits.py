"""Every Week-0 predicate explains its hits: ``why`` names the value the file holds, ``file`` is the file the
user edits (a LoadedFile ``rel``), ``path`` the data path in it, ``fix`` what to change.

One case per predicate of rules/week0.py (a patch of fixtures/valid, or fixtures/agentic), run through
``rules.week0.decide`` with no FAIL of ours (so only the predicates speak); a test keeps the table
complete, so a new predicate needs its case here.
"""
from __future__ import annotations

import os
import tempfile

import msgspec
import pytest

from checker.engine.policy import load_policy
from checker.load.discovery import discover
from rules.week0 import predict as week0
from tests.conformance import cf_patch
from tests.support import casefixtures

CURVE, SYSTEM = "{curve}", "{system}"
PY, SD, RS = f"{CURVE}/*/point.yaml", f"{CURVE}/*/system_desc.json", f"{CURVE}/*/result_summary.json"


def _set(file, path, value):
    return {"set": {"file": file, "path": path, "value": value, "if_parent": True}}


#: predicate name -> (base, patches, the official rule id, text the why must hold, data path's first step)
CASES = {
    "crash": ("valid", [_set(f"{CURVE}/r8/result_summary.json", ["system_tps"], "fast")], "crash", '"fast"',
              "system_tps"),
    "src_readme": ("valid", [{"remove": "src/trtllm/README.md"}], "src-readme", "src/trtllm/", None),
    "required_dir": ("valid", [{"remove": "docs"}], "required-dir", "docs/", None),
    "config_file_present": ("valid", [{"remove": f"{CURVE}/r8/config.yaml"}], "config-file-present",
                            "r8/config.yaml", None),
    "junk_systems": ("valid", [{"write": {"file": "results/__MACOSX/x/._y", "text": "x"}}], "benchmark-model-dir",
                     "results/__MACOSX", None),
    "point_config_valid": ("valid", [_set(PY, ["concurrency"], "many")], "point-config-valid", '"many"',
                           "concurrency"),
    "result_file_valid": ("valid", [_set(RS, ["n_samples_completed"], "lots")], "result-file-valid", '"lots"',
                          "n_samples_completed"),
    "load_pattern": ("valid", [_set(PY, ["runtime_settings", "load_pattern"], "poisson")], "load-pattern",
                     '"poisson"', "runtime_settings"),
    "disclosure_complete": ("valid", [{"delete": {"file": PY, "path": ["dataset_link"]}}],
                            "point-disclosure-complete", "dataset_link", "dataset_link"),
    "steady_state_valid": ("valid", [_set(PY, ["steady_state", "status"], "stable")], "steady-state-valid",
                           '"stable"', "steady_state"),
    "steady_state_consistency": ("valid", [_set(PY, ["steady_state", "window", "super_pass_end"], 2)],
                                 "steady-state-consistency", "2 super-passes", "steady_state"),
    "warmup_present": ("valid", [{"delete": {"file": PY, "path": ["warmup"]}}], "warmup-present", "no warmup",
                       "warmup"),
    "region_declared": ("valid", [_set(PY, ["region"], "middle")], "region-declared", '"middle"', "region"),
    "region_computation": ("valid", [_set(SD, ["max_supported_concurrency"], 16)], "region-computation", "C_max 16",
                           "max_supported_concurrency"),
    "concurrency_in_range": ("valid", [_set(f"{CURVE}/r256/point.yaml", ["concurrency"], 5000)],
                             "concurrency-in-range", "concurrency 5000", "concurrency"),
    "coverage": ("valid", [{"remove": f"{CURVE}/{p}"} for p in ("r1", "r4", "r8", "r32")],
                 "ultra-low-concurrency-coverage", "1..32", "concurrency"),
    "offline_declared": ("valid", [_set(PY, ["offline"], "maybe")], "offline-declared", '"maybe"', "offline"),
    "seed_runtime_match": ("valid", [{"delete": {"file": PY, "path": ["runtime_settings", "runtime", "model_seed"]}}],
                           "seed-runtime-match", "model_seed is missing", "runtime_settings"),
    "seed_set_membership": ("valid", [_set(PY, ["seed_set"], "Z")], "seed-set-membership", '"Z"', "seed_set"),
    "seed_set_consistency": ("valid", [_set(f"{CURVE}/r8/point.yaml", ["seed_set"], "Z")], "seed-set-consistency",
                             "A, Z", "seed_set"),
    "seed_set_adoption": ("valid", [_set(PY, ["target_cohort"], "2027-06-C0")], "seed-set-adoption",
                          '"2027-06-C0"', "target_cohort"),
    "target_cohort": ("valid", [_set(PY, ["target_cohort"], "soon")], "target-cohort", '"soon"', "target_cohort"),
    "seed_config_legacy": ("valid", [{"delete": {"file": PY, "path": ["seed_set"]}}], "seed-config-legacy",
                           "10487924139932647040", "seed_set"),
    "metric_checks": ("valid", [_set(RS, ["n_samples_failed"], 5)], "metric-consistency-accounting",
                      "n_samples_failed 5", "n_samples_completed"),
    "tps_utilization": ("valid", [_set(f"{CURVE}/r8/system_desc.json", ["tps_utilization"], 0.75)],
                        "tps-utilization", "0.75", "tps_utilization"),
    "present_and_valid": ("valid", [_set(SD, ["node_types", 0, "host_network_card_count"], 2)],
                          "system-description-valid", "host_network_card_count is 2", "node_types"),
    "consistency": ("valid", [_set(f"{CURVE}/r8/system_desc.json", ["system_name"], "Other system")],
                    "system-description-consistency", "system_name", "system_name"),
    "c_min_override": ("valid", [_set(SD, ["c_min_override"], 40)], "c-min-override", "40", "c_min_override"),
    "accuracy_valid": ("valid", [{"delete": {"file": f"{CURVE}/r1/accuracy_results.json",
                                             "path": ["accuracy_scores", 0, "score"]}}],
                       "accuracy-valid", '"cnn_dailymail"', "accuracy_scores"),
    "swebench_fraction": ("agentic", [_set(f"{CURVE}/*/accuracy_results.json", ["accuracy_scores", 1, "score"], 94.0)],
                          "agentic-accuracy-swebench", "94.0", "accuracy_scores"),
    "approved_drafter": ("valid", [_set(PY, ["speculative_decoding"], {"weight_checksum": "sha256:0badc0de"})],
                         "approved-drafter", '"sha256:0badc0de"', "speculative_decoding"),
    "power_descriptor": ("valid", [_set(f"{SYSTEM}/system_power.json", ["cooling"], "Air")], "power-descriptor",
                         '"Air"', "cooling"),
    "nodes_used": ("valid", [_set(PY, ["nodes_used", 0, "nodes"], 2)], "nodes-used", "nodes 2", "nodes_used"),
    "maximal_engagement": ("valid", [_set(SD, ["data_parallel"], 4)], "maximal-engagement", "DP 4", "data_parallel"),
}


def test_every_predicate_has_a_case():
    names = {fn.__name__ for _ids, fn in week0.PREDICATES} | {"crash"}
    assert names == set(CASES)


@pytest.fixture(scope="module")
def policy():
    return load_policy()


def _hits(base: str, patches: list, policy) -> list:
    """The Week-0 hits of a patched copy of ``base``, each file made relative to the package's parent."""
    with tempfile.TemporaryDirectory() as tmp:
        root = casefixtures.materialise({"base": base}, tmp)
        for op in patches:
            cf_patch.apply(root, op)
        pkg = discover([root])
        (sub,) = pkg.submissions
        hits = week0.decide(sub, policy, []).hits
        for h in hits:  # the file the user edits: the file itself, or where a missing one goes
            where = h.file.rstrip("/")
            assert where.startswith(root) and (os.path.exists(where) or os.path.isdir(os.path.dirname(where))), h.file
        return [msgspec.structs.replace(h, file=os.path.relpath(h.file, tmp)) for h in hits]


@pytest.mark.parametrize("name", sorted(CASES))
def test_hits_explain_themselves(name, policy):
    base, patches, rule, value, first = CASES[name]
    hits = [h for h in _hits(base, patches, policy) if h.rule == rule]
    assert hits, f"{name}: no {rule} hit"
    assert any(value in h.why for h in hits), ([h.why for h in hits], value)
    for h in hits:
        assert h.why and h.file and h.fix, h
        if first is not None and value in h.why:
            assert h.path and h.path[0] == first, h.path


def test_the_base_package_has_no_hit_but_the_config_summary(policy):
    """fixtures/valid: only the config_summary the official's schema wants longer (its own words)."""
    hits = _hits("valid", [], policy)
    assert {(h.rule, h.path) for h in hits} == {("system-description-valid", ("config_summary",))} or not hits
    for h in hits:
        assert h.why == 'system_desc.json: config_summary "DP8" has 3 characters; the automated check wants 4 or more'
