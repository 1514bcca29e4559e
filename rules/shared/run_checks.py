"""Run-constraint kernels (R§6) shared by a finished run's checks and a planned config's pre-flight.

One copy of each decision: the run-folder rules apply it to what the client wrote, the preflight
rules to the config before it runs. Each takes plain values (or a LoadedFile) and returns a verdict
or an Outcome; none reads anything beyond what it is given, except the seed-set registry on ``ctx``.
"""
from __future__ import annotations

import math
from typing import Any, Optional

from checker.core.placeholders import MARK
from checker.core.rule import Fail, Outcome, Pass
from checker.core.values import is_int

#: fixed-concurrency load patterns: `concurrency`, and `agentic_inference` for agentic benchmarks (R§6.1)
FIXED_PATTERNS = ("concurrency", "agentic_inference")
#: config.yaml seed key -> seed-set key (RULES.md §2.9 name mapping)
SEED_KEYS = {"scheduler_random_seed": "scheduler_rng_seed", "dataloader_random_seed": "sample_index_rng_seed"}
#: the client's sample-count rule assumes this rate for concurrency and max_throughput patterns (RUN-FOLDER.md §2)
CLIENT_ASSUMED_QPS = 10.0


def pattern_verdict(kind: Any) -> str:
    """R§6.1: "fixed" (a Pareto point), "offline" (max_throughput: only the dedicated Offline point),
    "invalid" (poisson and the rest), "missing"."""
    if kind is None:
        return "missing"
    if kind in FIXED_PATTERNS:
        return "fixed"
    return "offline" if kind == "max_throughput" else "invalid"


def invalid_pattern(kind: Any, file, path) -> Outcome:
    return Fail(f"load pattern {kind!r} is not valid for a Pareto point", file=file, path=path, observed=kind,
                expected="concurrency")


def streaming_value(config: dict) -> tuple[Any, str]:
    """(model_params.streaming as the client resolves it, note): `auto` is on for online runs, off for offline."""
    mp = config.get("model_params") if isinstance(config, dict) else None
    raw = mp.get("streaming") if isinstance(mp, dict) else None
    if raw == "auto":
        on = config.get("type") != "offline"
        return ("on" if on else "off"), f" (auto, resolved {'on' if on else 'off'} for a {config.get('type')!r} run)"
    return raw, ""


def seeds_outcome(lf, set_id: str, where: str, ctx) -> Outcome:
    """The config's RNG seeds equal the bound set's values (R§2.1.1), read from the seed-set registry."""
    from rules.shared.seed_values import adoption_cohorts, usable_registry

    reg = usable_registry(ctx)  # the same seed-set registry (and --seed-sets override) as the package rules
    sets = reg.bound_sets(adoption_cohorts(ctx))
    if MARK in set_id:  # a draft's placeholder (draft-placeholder reports it): judge the seeds that ran, never echo it
        return _unbound_seeds(lf, sets, where)
    if set_id not in sets:
        return Fail(f"seed set {set_id!r} ({where}) is not a published set", file=lf, observed=set_id,
                    expected=sorted(sets))
    bound = sets[set_id]
    for key, skey in SEED_KEYS.items():
        have, want = lf.get("settings", "runtime", key), bound.seeds[skey]
        if have != want:
            return Fail(f"{key} is {have!r}, seed set {set_id} ({where}) has {skey} {want}", file=lf,
                        path=("settings", "runtime", key), observed=have, expected=want)
    return Pass(f"seeds equal seed set {set_id} ({where})")


def _unbound_seeds(lf, sets: dict, where: str) -> Outcome:
    """No set is bound yet ({where} is a draft placeholder): the run's seeds PASS when they are one published set's;
    else only a re-run with the bound set's seeds fixes them."""
    have = {key: lf.get("settings", "runtime", key) for key in SEED_KEYS}
    match = [sid for sid, bs in sorted(sets.items()) if all(have[k] == bs.seeds[sk] for k, sk in SEED_KEYS.items())]
    if match:
        return Pass(f"the run's seeds are seed set {match[0]}'s ({where} is still a draft placeholder)")
    shown = ", ".join(f"{k} {v!r}" for k, v in have.items())
    return Fail(f"the run's seeds ({shown}) are no published set's: only a re-run with the bound set's seeds fixes "
                f"it ({where} is still to fill in)", file=lf, path=("settings", "runtime", next(iter(SEED_KEYS))),
                observed=have, expected=f"the seeds of one published set ({', '.join(sorted(sets))})",
                fix="Re-run the point with the seeds of the set your submission binds, then fill in seed_set.")


def passes_problem(issued: int, completed: int, size: int, noun: str = "completed") -> tuple[Optional[str], str]:
    """R§6.4: at least one full pass, and a whole multiple of the dataset. (which count fails or None, text)."""
    if completed < size:
        return "completed", f"{completed} samples {noun} < one pass of {size}"
    if issued % size:
        return "issued", f"{issued} samples issued is not a whole multiple of {size}"
    return None, f"{issued} issued = {issued // size} full pass(es) of {size}"


def planned_samples(runtime: dict, size: int, fmt: str = "older") -> tuple[Optional[int], str]:
    """How many samples the client issues for ``settings.runtime`` (RUN-FOLDER.md §2), and why.

    n_samples_to_issue when set. Otherwise the config's format decides (``checker.load.models.client_config.
    config_format``): the newer client issues the dataset once; the older one the whole dataset when
    min_duration_ms is 0, else ceil(QPS x min_duration_s x 1.1) padded up to a multiple of the dataset, with
    10 QPS assumed for the concurrency and max_throughput patterns (min_duration_ms defaults to 600,000). A
    config that names neither format and sets neither key: None (the count depends on the client version).
    """
    runtime = runtime if isinstance(runtime, dict) else {}
    n = runtime.get("n_samples_to_issue")
    if is_int(n):
        return n, "settings.runtime.n_samples_to_issue"
    if fmt == "newer":
        return size, "the whole dataset once (no n_samples_to_issue: the newer client format issues the dataset once)"
    if fmt != "older" and "min_duration_ms" not in runtime:
        return None, ("no n_samples_to_issue, and the config names neither client format: the older client sizes the "
                      "run from its default min_duration_ms, the newer one issues the dataset once")
    md = runtime.get("min_duration_ms", 600000)
    if not isinstance(md, (int, float)) or isinstance(md, bool):
        return None, f"settings.runtime.min_duration_ms is {md!r}"
    if md == 0:
        return size, "the whole dataset once (min_duration_ms 0, no n_samples_to_issue)"
    raw = math.ceil(CLIENT_ASSUMED_QPS * md / 1000 * 1.1)
    total = -(-raw // size) * size
    src = "" if "min_duration_ms" in runtime else "; min_duration_ms is the older client's default"
    return total, (f"the client's default: ceil({CLIENT_ASSUMED_QPS:g} QPS x {md / 1000:g} s x 1.1) = {raw}, padded to "
                   f"a multiple of {size} (no n_samples_to_issue{src})")
