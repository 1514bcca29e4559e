"""The scenarios of the official checker's own unit tests, as variants of the conformance base.

mlcommons/endpoints-submission-cli's tests/submission_checker/test_*.py each build a file or a
package and mutate one thing (a steady_state word, a stored metric, a seed, a directory). Their
layout is older than the package we check, so each scenario is translated here into the same
mutation of our base, named ``offtest-<their test class>-<scenario>``; none of their code is used.
``expect`` is what the rules say (``either`` where they leave it to the tool or only the official's
own schema speaks).
"""
from __future__ import annotations

PY = "{curve}/*/point.yaml"
RS = "{curve}/*/result_summary.json"
SD = "{curve}/*/system_desc.json"
R8 = "{curve}/r8"


def _set(file, path, value, **kw):
    return {"set": {"file": file, "path": path, "value": value, "if_parent": True, **kw}}


def _del(file, path):
    return {"delete": {"file": file, "path": path, "if_parent": True}}


def _v(name, expect, why, patch, base="valid"):
    return {"name": f"offtest-{name}", "base": base, "expect": expect, "why": f"official test: {why}", "patch": patch}


def _steady(status="windowable", verdict="STEADY STATE", start=1, end=4, duration=24864.7, state=None):
    return {"status": status, "verdict": verdict,
            "window": {"super_pass_start": start, "super_pass_end": end, "super_pass_size": 13368,
                       "n_samples": 13368 * (end - start + 1), "duration_s": duration},
            "state": state or {"tpot_p50": "Plateau", "tpot_p90": "Plateau", "ttft_p50": "Plateau",
                               "ttft_p90": "Plateau"}}


def steady_state() -> list[dict]:
    """test_checks_steady_state: vocabulary, internal consistency, duration and reporting basis."""
    ss = ["steady_state"]
    out = [
        _v("steady-vocabulary-status-great", "accept", "TestVocabulary: status 'great' (a Warn in R§4.4)",
           [_set(PY, ss + ["status"], "great")]),
        _v("steady-vocabulary-verdict-looks-fine", "accept", "TestVocabulary: verdict 'looks_fine'",
           [_set(PY, ss + ["verdict"], "looks_fine")]),
        _v("steady-vocabulary-state-wobbling", "accept", "TestVocabulary: gating state 'wobbling'",
           [_set(PY, ss + ["state", "tpot_p90"], "wobbling")]),
        _v("steady-vocabulary-absent-block", "accept", "TestVocabulary: no steady_state block (steady-state-basis "
           "warns)", [_del(PY, ss)]),
        _v("steady-consistency-windowable-below-floor", "either", "TestInternalConsistency: windowable over 3 "
           "super-passes", [_set(PY, ss, _steady(end=3))]),
        _v("steady-consistency-windowable-drifting", "either", "TestInternalConsistency: windowable with a "
           "Drifting Up metric", [_set(PY, ss + ["state", "tpot_p90"], "Drifting Up")]),
        _v("steady-consistency-insufficient-passes-above-floor", "either", "TestInternalConsistency: "
           "insufficient_passes over 6 super-passes", [_set(PY, ss, _steady("insufficient_passes", end=6))]),
        _v("steady-consistency-insufficient-duration-short", "accept", "TestInternalConsistency: "
           "insufficient_duration over a 10 s window", [_set(PY, ss, _steady("insufficient_duration", end=5,
                                                                             duration=10.0))]),
        _v("steady-basis-window-short", "accept", "TestDurationBasis: a 60 s window in a long run (point-duration "
           "warns)", [_set(PY, ss + ["window", "duration_s"], 60.0)]),
        _v("steady-basis-anomaly-verdict", "accept", "TestReportingBasis: verdict anomaly stays official",
           [_set(PY, ss + ["verdict"], "anomaly")]),
    ]
    for verdict in ("drifting_up", "drifting_down", "not found"):
        out.append(_v(f"steady-vocabulary-verdict-{verdict.replace(' ', '-').replace('_', '-')}", "accept",
                      f"TestVocabulary: every spec verdict accepted ({verdict})",
                      [_set(PY, ss + ["verdict"], verdict)]))
    for status in ("insufficient_duration", "insufficient_passes", "partial_dataset"):
        end = 2 if status == "insufficient_passes" else 4
        out.append(_v(f"steady-basis-fallback-{status.replace('_', '-')}", "accept",
                      f"TestReportingBasis: fallback status {status} is a WARNING",
                      [_set(PY, ss, _steady(status, end=end))]))
    return out


def metrics() -> list[dict]:
    """test_checks_aggregate: TestMetricConsistencyValidator, TestTpsConsistencyValidator, min query count."""
    r8 = f"{R8}/result_summary.json"
    return [
        _v("metric-zero-duration", "accept", "TestMetricConsistencyValidator: duration_ns 0 (a Flag)",
           [_set(r8, ["duration_ns"], 0)]),
        _v("metric-negative-duration", "accept", "TestMetricConsistencyValidator: duration_ns -1",
           [_set(r8, ["duration_ns"], -1)]),
        _v("metric-accounting-mismatch", "accept", "TestMetricConsistencyValidator: completed + failed != issued",
           [_set(r8, ["n_samples_failed"], 7)]),
        _v("metric-negative-output-tokens", "accept", "TestMetricConsistencyValidator: output tokens total -1",
           [_set(r8, ["output_sequence_lengths", "total"], -1)]),
        _v("tps-system-tps-stored-match", "accept", "TestTpsConsistencyValidator: stored system_tps matches",
           [{"call": {"fn": "store_metric", "args": {"key": "system_tps"}}}]),
        _v("tps-system-tps-stored-mismatch", "accept", "TestTpsConsistencyValidator: stored system_tps off 2x",
           [{"call": {"fn": "store_metric", "args": {"key": "system_tps", "factor": 2.0, "points": "r8"}}}]),
        _v("tps-per-user-stored-match", "accept", "TestTpsConsistencyValidator: stored tps_per_user matches",
           [{"call": {"fn": "store_metric", "args": {"key": "tps_per_user"}}}]),
        _v("tps-per-user-stored-mismatch", "accept", "TestTpsConsistencyValidator: stored tps_per_user off 2x",
           [{"call": {"fn": "store_metric", "args": {"key": "tps_per_user", "factor": 2.0, "points": "r8"}}}]),
        _v("min-query-below", "accept", "TestMinQueryCountValidator: one completed query below the dataset's "
           "minimum (a Flag)", [_set(r8, ["n_samples_completed"], 13367), _set(r8, ["n_samples_issued"], 13367)]),
        _v("min-query-unknown-dataset", "either", "TestMinQueryCountValidator: an unknown dataset skips the rule",
           [_set(PY, ["dataset"], "unknown-dataset-xyz")]),
    ]


def point_config() -> list[dict]:
    """test_checks_file: load pattern, region vocabulary, warmup; test_loader: unreadable files."""
    out = [
        _v("load-pattern-qps", "reject", "TestLoadPatternValidator: load_pattern qps",
           [_set(PY, ["runtime_settings", "load_pattern"], "qps")]),
        _v("region-not-a-region", "either", "TestRegionDeclaredValidator: region not_a_region",
           [_set(PY, ["region"], "not_a_region")]),
        _v("region-v07-throughput-name", "either", "TestRegionDeclaredValidator: v0.7's med_throughput",
           [_set(f"{R8}/point.yaml", ["region"], "med_throughput")]),
        _v("region-absent", "accept", "TestRegionDeclaredValidator: no region (optional)", [_del(PY, ["region"])]),
        _v("warmup-missing", "accept", "TestWarmupValidator: no warmup block (a Flag)", [_del(PY, ["warmup"])]),
        _v("warmup-initialization-steps-absent", "accept", "TestWarmupValidator: initialization_steps defaults "
           "to empty", [_del(PY, ["warmup", "initialization_steps"])]),
        _v("loader-point-yaml-invalid", "reject", "test_loader: point.yaml that is no YAML",
           [{"write": {"file": f"{R8}/point.yaml", "text": "concurrency: [8\n"}}]),
        _v("loader-point-yaml-list", "reject", "test_loader: point.yaml holding a list",
           [{"write": {"file": f"{R8}/point.yaml", "text": "- 8\n"}}]),
        _v("loader-result-summary-invalid-json", "reject", "test_loader: result_summary.json that is no JSON",
           [{"write": {"file": f"{R8}/result_summary.json", "text": "{\"n_samples_completed\": \n"}}]),
        _v("loader-system-desc-invalid-json", "reject", "test_loader: system_desc.json that is no JSON",
           [{"write": {"file": f"{R8}/system_desc.json", "text": "[1, 2\n"}}]),
    ]
    for region in ("low_latency", "low_concurrency", "med_concurrency", "high_concurrency", "margin",
                   "submitters_choice"):
        out.append(_v(f"region-value-{region.replace('_', '-')}", "either", f"TestRegionDeclaredValidator: "
                      f"region {region} accepted (placement may warn)", [_set(f"{R8}/point.yaml", ["region"], region)]))
    return out


def seeds() -> list[dict]:
    """test_checks_seed_binding: the bound set, the v0.7 names, the adoption window."""
    rt = ["runtime_settings", "runtime"]
    return [
        _v("seed-legacy-names-with-model-seed", "either", "TestSeedRuntimeMatch: v0.7 names plus model_seed",
           [_set(PY, rt, {"scheduler_random_seed": 10487924139932647040,
                          "dataloader_random_seed": 586478644936801402, "model_seed": 9315206023656308754})]),
        _v("seed-legacy-names-only", "either", "TestSeedRuntimeMatch: the client's config.yaml names, no "
           "model_seed", [_set(PY, rt, {"scheduler_random_seed": 10487924139932647040,
                                         "dataloader_random_seed": 586478644936801402})]),
        _v("seed-mismatched-value", "reject", "TestSeedRuntimeMatch: model_seed 42",
           [_set(PY, rt + ["model_seed"], 42)]),
        _v("seed-unknown-set", "reject", "TestSeedSetMembership: seed_set Z", [_set(PY, ["seed_set"], "Z")]),
        _v("seed-two-sets", "reject", "TestSeedSetConsistency: one point binds set B",
           [_set(f"{R8}/point.yaml", ["seed_set"], "B")]),
        _v("seed-no-set-v07-seeds", "either", "TestSeedsLegacy: no seed_set, v0.7 seeds 42",
           [_del(PY, ["seed_set"]), _set(PY, rt, {"scheduler_rng_seed": 42, "sample_index_rng_seed": 42})]),
        _v("seed-quoted-values", "either", "lax seeds: each seed of set A quoted",
           [{"call": {"fn": "respell", "args": {"file": PY, "path": rt + [k], "how": "quote"}}}
            for k in ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")]),
    ]


def offline_and_structure() -> list[dict]:
    """test_checks_offline, test_checks_structure, test_checks_specdec_agentic, test_native_formats."""
    return [
        _v("offline-none-declared", "reject", "TestOfflinePointPresent: no Offline point",
           [_set(PY, ["offline"], "none")]),
        _v("offline-two-declared", "reject", "TestOfflinePointPresent: two dedicated points",
           [_set(f"{R8}/point.yaml", ["offline"], "dedicated")]),
        _v("offline-elected-not-cmax", "reject", "TestOfflinePointPresent: elected point below C_max",
           [{"remove": "{curve}/r13368"}, _set("{curve}/r256/point.yaml", ["offline"], "elected")]),
        _v("structure-src-empty", "reject", "TestSrcDir: src/ with no implementation directory",
           [{"remove": "src/trtllm"}, {"write": {"file": "src/NOTES.txt", "text": "none\n"}}]),
        _v("structure-readme-lower-case", "either", "TestSrcDir: readme.md in lower case counts (to the official)",
           [{"move": {"from": "src/trtllm/README.md", "to": "src/trtllm/readme.md"}}]),
        _v("structure-model-dir-empty", "reject", "TestModelDir: a benchmark directory with no r<N>/",
           [{"write": {"file": "{system}/gpt-oss-120b/notes.txt", "text": "x\n"}}]),
        _v("structure-results-missing", "reject", "TestSubmissionDir: no results/", [{"remove": "results"}]),
        _v("specdec-unapproved", "reject", "TestApprovedDrafter: a drafter on no list",
           [_set(PY, ["speculative_decoding"], {"model_id": "acme/eagle", "weight_checksum": "sha256:0badc0de"})]),
        _v("specdec-empty-block", "either", "TestApprovedDrafter: an empty speculative_decoding block is none (to "
           "the official)",
           [_set(PY, ["speculative_decoding"], {})]),
        _v("native-accuracy-mapping", "accept", "test_native_formats: accuracy as a mapping by dataset",
           [{"call": {"fn": "accuracy_as_mapping", "args": {}}}]),
        _v("native-accuracy-duplicate-dataset", "reject", "test_native_formats: one dataset listed twice",
           [{"call": {"fn": "accuracy_duplicate_entry", "args": {}}}]),
        _v("native-accuracy-no-score", "reject", "test_native_formats: an entry without score",
           [_del("{curve}/r1/accuracy_results.json", ["accuracy_scores", 0, "score"])]),
        _v("native-accuracy-alias-conflict", "reject", "test_native_formats: unit_samples and num_samples differ",
           [_set("{curve}/r1/accuracy_results.json", ["accuracy_scores", 0, "num_samples"], 100)]),
    ]


def offtests_family() -> list[dict]:
    return steady_state() + metrics() + point_config() + seeds() + offline_and_structure()
