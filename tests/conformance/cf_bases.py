"""Build the base packages every variant starts from, in a temporary directory (never in the repo).

A *base* is the bundled package made acceptable to both tools where the two read the published
shape differently, so that each variant differs from its base in one thing:

- ``bundled``: fixtures/valid exactly as committed (its own variant, so the table says how each tool
  reads the bundled package as it is).
- ``valid``: fixtures/valid with the conformance power descriptor (Appendix E, component_sum, no
  scale-up switches, integer node_set_id). (Its config_summary, "DP8 in-flight batching", is already
  one both tools read as text: fixtures/make_valid.py writes it.)
- ``agentic``: fixtures/agentic, normalised the same way, its SWE-bench run named ``swe_bench``.
- ``points-N``: fixtures/make_valid.py's curve of N points (8..32), normalised.
- ``gpt-oss-120b`` / ``deepseek-r1``: the valid curve generated for another single-turn benchmark
  (its dataset size, Offline concurrency, accuracy scorer and fixed sampling).

fixtures/make_valid.py is loaded by file path (a fresh module per build, never imported as a package).
"""
from __future__ import annotations

import importlib.util
import os
import shutil

import cf_patch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "fixtures")

#: the conformance power descriptor: 1 node x (2 CPU x 350 W + 8 H200 x 700 W), air cooled (x1.5)
CPU_URL = "https://ark.intel.com/content/www/us/en/ark/products/231746.html"
GPU_URL = "https://www.nvidia.com/en-us/data-center/h200/"


def sourced(value: float, url: str, key: str = "value_w", source_type: str = "vendor_spec") -> dict:
    """An Appendix E.1 sourced value."""
    return {key: value, "source_type": source_type, "source": url}


def base_power(system: str) -> dict:
    """The conformance base's system_power.json (Appendix E; both tools accept it)."""
    return {
        "system_desc_id": system,
        "cooling": "air",
        "node_sets": [{
            "node_set_id": 1,
            "system_node_ensemble_id": 1,
            "nodes_provisioned": 1,
            "power_method": "component_sum",
            "components": {
                "cpu": {"model": "Intel Xeon Platinum 8480C", "count_per_node": 2,
                        "tdp_per_unit": sourced(350, CPU_URL)},
                "accelerator": {"model": "NVIDIA H200-SXM-141GB", "count_per_node": 8,
                                "tdp_per_unit": sourced(700, GPU_URL)},
                "scale_up_network": {"method": "none"},
            },
        }],
        "scale_out": {"present": False},
    }


def normalise(root: str) -> None:
    """Give every system the conformance power descriptor."""
    results = os.path.join(root, "results")
    for system in sorted(os.listdir(results)):
        cf_patch.save(os.path.join(results, system, "system_power.json"), base_power(system))


def make_valid_module(tag: str):
    """A fresh instance of fixtures/make_valid.py (its constants may be changed per build)."""
    spec = importlib.util.spec_from_file_location(f"cf_make_valid_{tag}", os.path.join(FIXTURES, "make_valid.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _points(mv, dataset_size: int) -> dict:
    """make_valid's eight points with the dedicated Offline run at the dataset's cardinality."""
    pts = {c: s for c, s in mv.POINTS.items() if s[1] != "dedicated"}
    pts[dataset_size] = next(s for s in mv.POINTS.values() if s[1] == "dedicated")
    return pts


MODELS = {
    "gpt-oss-120b": {
        "dataset": "gpt-oss-perf", "size": 6396, "precision": "MXFP4",
        "dataset_name": "MLPerf GPT-OSS performance set (perf_eval_ref.parquet)",
        "dataset_link": "https://github.com/mlcommons/inference/tree/master/language/gpt-oss-120b",
        "link": "https://huggingface.co/openai/gpt-oss-120b", "max_new_tokens": 10240,
        # AIME25 x8, GPQA x5, LiveCodeBench x3 = 240 + 990 + 3165 = 4,395 scored queries
        "accuracy": [("aime25", 30, 8, 86.25), ("gpqa", 198, 5, 80.1), ("livecodebench", 1055, 3, 83.4)],
        "checksum": "sha256:7e2a4c6e8f0a1b3c5d7e9f1a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e1f3a5b7c",
    },
    "deepseek-r1": {
        "dataset": "deepseek-r1", "size": 4388, "precision": "FP8",
        "dataset_name": "MLPerf DeepSeek-R1 evaluation set",
        "dataset_link": "https://github.com/mlcommons/inference/tree/master/language/deepseek-r1",
        "link": "https://huggingface.co/deepseek-ai/DeepSeek-R1", "max_new_tokens": 20000,
        "accuracy": [("deepseek-r1", 4388, 1, 81.2)],
        "checksum": "sha256:3f5a7c9e1b2d4f6a8c0e2b4d6f8a0c1e3b5d7f9a1c3e5b7d9f0a2c4e6b8d0f1a",
    },
}


def _accuracy(spec: dict) -> dict:
    """accuracy_results.json of a model's exact-match scorer (one entry per sub-dataset, repeats counted)."""
    return {"accuracy_scores": [
        {"dataset_name": name, "score": {"exact_match": score}, "unit_samples": n, "num_repeats": reps,
         "total_samples": n * reps, "complete": True, "dataset_type": "accuracy"}
        for name, n, reps, score in spec["accuracy"]]}


def build_model(root: str, model: str) -> None:
    """The valid curve for another single-turn benchmark (numbers regenerated for its dataset size)."""
    spec = MODELS[model]
    mv = make_valid_module(model.replace("-", "_"))
    mv.MODEL, mv.DATASET, mv.DATASET_SIZE = model, spec["dataset"], spec["size"]
    mv.build(root, _points(mv, spec["size"]))
    curve = os.path.join(root, "results", mv.SYSTEM, model)
    for point in sorted(os.listdir(curve)):
        pdir = os.path.join(curve, point)
        py = cf_patch.load(os.path.join(pdir, "point.yaml"))
        py.update({"dataset_name": spec["dataset_name"], "dataset_link": spec["dataset_link"],
                   "link_to_model": spec["link"], "model_precision": spec["precision"],
                   "model_notes": "canonical checkpoint, unmodified"})
        py.pop("link_to_model_transformation", None)
        py["runtime_settings"]["min_sample_count"] = spec["size"]
        py["model_equivalence"] = {
            "checkpoint": {"source": "canonical", "checksum": spec["checksum"], "components_retained": True,
                           "unused_components": []},
            "kv_cache": {"cross_query_reuse": True, "precision": "BF16", "compression": "none"},
            "techniques": [],
            "sampling": {"max_output_tokens": spec["max_new_tokens"]},
        }
        cf_patch.save(os.path.join(pdir, "point.yaml"), py)
        cfg = cf_patch.load(os.path.join(pdir, "config.yaml"))
        cfg["model_params"]["name"] = spec["link"].split("huggingface.co/")[1]
        cfg["model_params"]["max_new_tokens"] = spec["max_new_tokens"]
        cfg["model_params"].pop("temperature", None)
        for ds in cfg["datasets"]:
            ds["name"] = spec["dataset"] if ds["type"] == "performance" else f"{spec['dataset']}_accuracy"
        cf_patch.save(os.path.join(pdir, "config.yaml"), cfg)
        acc = os.path.join(pdir, "accuracy_results.json")
        if os.path.exists(acc):
            cf_patch.save(acc, _accuracy(spec))
    normalise(root)


def build_points(root: str, n: int) -> None:
    """make_valid's curve of n points, normalised."""
    mv = make_valid_module(f"p{n}")
    mv.build(root, mv.spread_points(n))
    normalise(root)


def build_base(name: str, root: str) -> None:
    """Write base ``name`` at ``root``."""
    if name == "bundled":
        shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    elif name == "valid":
        shutil.copytree(os.path.join(FIXTURES, "valid"), root)
        normalise(root)
    elif name == "agentic":
        shutil.copytree(os.path.join(FIXTURES, "agentic"), root)
        normalise(root)
        for dirpath, _dirs, files in os.walk(os.path.join(root, "results")):
            if "accuracy_results.json" in files:
                path = os.path.join(dirpath, "accuracy_results.json")
                doc = cf_patch.load(path)
                for entry in doc["accuracy_scores"]:
                    if entry.get("dataset_type") == "accuracy":
                        entry["dataset_name"] = "swe_bench"
                cf_patch.save(path, doc)
    elif name.startswith("points-"):
        build_points(root, int(name.split("-", 1)[1]))
    elif name in MODELS:
        build_model(root, name)
    else:
        raise ValueError(f"unknown base {name!r}")
