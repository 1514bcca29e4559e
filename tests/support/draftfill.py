"""Fill the placeholders of a drafted point.yaml as a submitter would (the draft tests' stand-in for a person)."""
from __future__ import annotations

import re

#: key -> the YAML text a submitter writes in place of its placeholder
ANSWERS = {
    "concurrency": "8",
    "region": "submitters_choice",
    "dataset": "cnn_dailymail",
    "dataset_name": "CNN/DailyMail 3.0.0 validation",
    "dataset_link": "https://huggingface.co/datasets/abisee/cnn_dailymail",
    "division": "Standardized",
    "max_supported_concurrency": "1024",
    "model_name": "llama3_1-8b",
    "model_precision": "FP8",
    "link_to_model": "https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct",
    "link_to_model_transformation": "https://example.org/acme/llama3_1-8b-fp8/calibration",
    "model_notes": "FP8 weights and activations of the canonical checkpoint",
    "seed_set": "A",
    "target_cohort": "2026-11-C0",
    "model_seed": "9315206023656308754",
    "duration_s": "180.0",
    "requests_issued": "256",
    "requests_completed": "256",
    "initialization_steps": "[TensorRT-LLM engine loaded, CUDA graphs captured]",
    "link_logs": "https://example.org/acme/logs/warmup.log",
    "logs_retained": "true",
    "source": "canonical",
    "checksum": "sha256:" + "5c1f0d3a9e7b2c4d6f8a0b1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4",
    "load_pattern": "concurrency",
    "precision": "BF16",
    "compression": "none",
}
_LINE = re.compile(r"^(?P<pad> *)(?P<hash># )?(?P<key>[a-z_]+): (?P<val>.*<FILL:.*)$")


def fill(text: str, answers: dict | None = None) -> str:
    """``text`` with every placeholder line answered (a commented field is uncommented)."""
    answers = {**ANSWERS, **(answers or {})}
    out = []
    for line in text.split("\n"):
        m = _LINE.match(line)
        if m:
            line = f"{m['pad']}{m['key']}: {answers[m['key']]}"
        out.append(line)
    return "\n".join(out)
