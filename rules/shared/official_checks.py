"""The named checks of the Week-0 schema table (week0_schemas.yaml): what the official checker does to a
value besides its type, each in our own words.

A check raises ``OfficialProblem`` (a ValueError, so pydantic keeps it as the error's cause) with the
official rule id when it is not the file's own, what the file holds, what the check wants, and a fix.
Field checks take ``(value, params)`` and return the value; model checks ``(data or model, params)``.
"""
from __future__ import annotations

import datetime
import json
import math
import re
from typing import Any

from checker.core.values import show as _show


def spell(value: Any) -> str:
    """A value as the JSON or YAML file writes it: "text" in double quotes, true/false, null."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value if len(value) <= 60 else value[:60] + "...")
    return _show(value)


def dotted(path: tuple) -> str:
    """A data path as a person reads it: node_types[0].host_network_card_count."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out or "the document"


class OfficialProblem(ValueError):
    """One problem the official reports: its rule id (None: the file's), words, fix, and the key it is at."""

    def __init__(self, why: str, fix: str = "", rule: str | None = None, at: tuple = ()):
        super().__init__(why)
        self.why, self.fix, self.rule, self.at = why, fix, rule, tuple(at)


def _fold(value: Any, vocab: list, field: str) -> Any:
    if not isinstance(value, str):
        return value
    for word in vocab:
        if value.strip().lower() == word.lower():
            return word
    raise OfficialProblem(f"{field} {spell(value)} is not one of {', '.join(vocab)}",
                          f"write {field} as one of {', '.join(vocab)}")


def fold_division(value, params):
    return _fold(value, params["division_vocab"], "division")


def fold_availability(value, params):
    return _fold(value, params["availability_vocab"], "system_availability_status")


def blank_to_none(value, params):
    return None if isinstance(value, str) and not value.strip() else value


def empty_to_none(value, params):
    return None if value == "" else value


def text_to_float(value, params):
    if isinstance(value, str) and value:
        try:
            return float(value)
        except ValueError:
            return value
    return value


def text_to_int(value, params):
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return value
    return value


def c_min_override(value, params):
    """Only a JSON integer in range, written as such (no bool, float, string or null)."""
    low, high = params["c_min_override_range"]
    if type(value) is not int or not low <= value <= high:
        raise OfficialProblem(f"c_min_override is {spell(value)}; the automated check wants a whole number "
                              f"from {low} to {high} written without quotes or decimals",
                              f"write c_min_override as an integer from {low} to {high}, or leave it out",
                              rule="c-min-override")
    return value


def shortened_name(value, params):
    limit = params["shortened_name_max"]
    if not value.strip():
        raise OfficialProblem("shortened_system_name is blank; the automated check wants a name",
                              "write a short system name")
    if len(value) > limit:
        raise OfficialProblem(f"shortened_system_name {spell(value)} has {len(value)} characters; the automated "
                              f"check wants {limit} or fewer", f"shorten it to {limit} characters or fewer")
    return value


_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


def iso_date(value, params):
    if value is None:
        return value
    ok = _ISO_DATE.fullmatch(value) is not None
    if ok:
        try:
            datetime.date.fromisoformat(value)
        except ValueError:
            ok = False
    if not ok:
        raise OfficialProblem(f"target_availability_date {spell(value)} is not a calendar date YYYY-MM-DD",
                              "write the date as YYYY-MM-DD, e.g. 2027-03-31")
    return value


def percentile_keys(value, params):
    """Percentile keys are numbers 0..100; two spellings of one percentile (50 and 50.0) must agree."""
    seen: dict[str, Any] = {}
    for key, v in value.items():
        try:
            p = float(key)
        except ValueError:
            p = math.nan
        if not math.isfinite(p) or not 0 <= p <= 100:
            raise OfficialProblem(f"percentile key {spell(key)} is not a number from 0 to 100",
                                  "key each percentile by its number, e.g. \"90\"", at=(key,))
        canon = str(int(p)) if p.is_integer() else str(p)
        if canon in seen and seen[canon] != v:
            raise OfficialProblem(f"percentile {canon} is written twice with different values",
                                  "keep one spelling of each percentile", at=(key,))
        seen[canon] = v
    return value


def availability_spellings(data, params):
    """The legacy spellings of system_availability_status are read when the new one is absent; two that
    disagree are a problem."""
    if not isinstance(data, dict):
        return data
    present = {k: data[k] for k in params["availability_spellings"] if data.get(k) not in (None, "")}
    if not present:
        return data
    if len({str(v).strip().lower() for v in present.values()}) > 1:
        listed = ", ".join(f"{k} {spell(v)}" for k, v in sorted(present.items()))
        raise OfficialProblem(f"the availability spellings disagree ({listed})",
                              "keep system_availability_status alone")
    if data.get(params["availability_spellings"][0]) in (None, ""):
        data = {**data, params["availability_spellings"][0]: next(iter(present.values()))}
    return data


def lift_accelerators(data, params):
    """A node written in the v0.7 shape (accelerator fields on the node) is read as one accelerator_info entry."""
    if not isinstance(data, dict) or data.get("accelerator_info"):
        return data
    flat = {k: data[k] for k in params["accelerator_fields"] if data.get(k) is not None}
    return {**data, "accelerator_info": [flat]} if flat else data


def core_or_vcpu(model, params):
    if model.host_processor_core_count is None and model.host_processor_vcpu_count is None:
        raise OfficialProblem("the node type states neither host_processor_core_count nor host_processor_vcpu_count; "
                              "the automated check wants one of them", "add host_processor_core_count",
                              at=("host_processor_core_count",))
    return model


def availability_details(model, params):
    status = model.system_availability_status
    if status == "Available" and model.availability_url is None:
        raise OfficialProblem("system_availability_status is Available but availability_url is missing or blank; "
                              "the automated check wants the URL", "add availability_url", at=("availability_url",))
    if status == "Preview" and model.target_availability_date is None:
        raise OfficialProblem("system_availability_status is Preview but target_availability_date is missing or "
                              "blank; the automated check wants the date", "add target_availability_date (YYYY-MM-DD)",
                              at=("target_availability_date",))
    return model


def warmup_counts(model, params):
    if model.requests_completed > model.requests_issued:
        raise OfficialProblem(f"warmup.requests_completed {model.requests_completed} exceeds requests_issued "
                              f"{model.requests_issued}", "record the warmup's real counts",
                              at=("requests_completed",))
    disabled = model.duration_s == 0 and model.requests_issued == 0 and model.requests_completed == 0
    if model.concurrency == 0 and not disabled:
        raise OfficialProblem("warmup.concurrency is 0 while the warmup ran requests", "record the warmup concurrency",
                              at=("concurrency",))
    return model


def sourced_value(model, params):
    values = [v for v in (model.value_w, model.value_kw, model.value_pj) if v is not None]
    if len(values) != 1:
        raise OfficialProblem(f"a sourced value has {len(values)} of value_w, value_kw, value_pj; the automated check "
                              "wants exactly one", "keep exactly one of value_w, value_kw, value_pj")
    if model.source_type == "mlc_default":
        if model.source not in params["mlc_default_sources"]:
            raise OfficialProblem(f"an mlc_default value names source {spell(model.source)}; the automated check wants "
                                  f"one of {', '.join(params['mlc_default_sources'])}",
                                  "name the Appendix D subsection", at=("source",))
    elif not model.source.startswith(tuple(params["url_prefixes"])):
        raise OfficialProblem(f"a {model.source_type} value names source {spell(model.source)}; the automated check "
                              "wants an http(s) URL", "give the URL of the public source", at=("source",))
    return model


def native_accuracy(data, params):
    """The client's list of scores (or a report holding accuracy_scores) is read as a mapping by dataset_name."""
    at: tuple = ()
    if isinstance(data, dict) and "accuracy_scores" in data:
        data, at = data["accuracy_scores"], ("accuracy_scores",)
        if not isinstance(data, (dict, list)):
            raise OfficialProblem(f"accuracy_scores is {spell(data)}; the automated check wants a list or a mapping",
                                  "write accuracy_scores as the client writes it (a list)", at=at)
    if not isinstance(data, list):
        return data
    out: dict[str, dict] = {}
    for i, entry in enumerate(data):
        where = at + (i,)
        if not isinstance(entry, dict):
            raise OfficialProblem(f"entry {i} is {spell(entry)}, not a mapping", "make each entry a mapping", at=where)
        name = entry.get("dataset_name")
        if not isinstance(name, str) or not name.strip():
            raise OfficialProblem(f"entry {i} has no dataset_name", "name the entry's dataset", at=where)
        if name in out:
            raise OfficialProblem(f"dataset {spell(name)} is listed twice", "keep one entry per dataset", at=where)
        if "score" not in entry:
            raise OfficialProblem(f"entry {spell(name)} has no score", "add the entry's score", at=where)
        norm = dict(entry)
        for native, canon in params["accuracy_aliases"].items():
            if native in entry:
                if canon in entry and entry[canon] != entry[native]:
                    raise OfficialProblem(f"entry {spell(name)} gives {native} {spell(entry[native])} and {canon} "
                                          f"{spell(entry[canon])}", f"keep {native} alone", at=where)
                norm[canon] = entry[native]
        out[name] = norm
    return out


def accuracy_not_empty(model, params):
    if not model.root:
        raise OfficialProblem("the file holds no accuracy result", "add the accuracy results the client wrote")
    return model


def performance_once(model, params):
    kind = params["performance_dataset_type"]
    typed = [name for name, entry in model.root.items() if entry.get("dataset_type") == kind]
    if len(typed) > 1:
        raise OfficialProblem(f"{len(typed)} entries say dataset_type {kind} ({', '.join(typed)}); the automated check "
                              "wants one", f"keep one {kind} entry")
    return model


#: name -> (where it runs, function): field-before, field-after, model-before, model-after
CHECKS = {name: fn for name, fn in globals().items()
          if callable(fn) and not name.startswith("_") and name not in ("spell", "dotted", "OfficialProblem")
          and getattr(fn, "__module__", "") == __name__}
