"""The model-equivalence family: docstring examples run as tests, the block parser, the schema.

Each rule's ``Example:`` section holds ``Passing:`` / ``Failing:`` (/ ``Skipping:``) point.yaml
snippets. A snippet becomes point r8 of fixtures/valid: its top-level keys replace r8's, and its
``model_equivalence`` (or the lack of one) replaces r8's block; the other points keep the valid
fixture's block. The rule is then evaluated through the runner on r8 (point rules) or on the
curve (curve rules) and must PASS, FAIL or SKIP accordingly.
"""
from __future__ import annotations

import copy
import glob
import json
import math
import os
import textwrap

import pytest
import yaml

from checker.load.discovery import discover
from checker.core.models import keys_of as fields_of
from checker.load.models.lenient import validate_lenient
from checker.load.models.model_equivalence import norm_name, parse_block
from checker.load.models.point import PointYaml
from checker.core.findings import Status
from checker.engine.policy import load_policy
from checker.engine.catalogue import all_rules
from checker.engine.evaluate import Context, evaluate

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VALID = os.path.join(REPO, "fixtures", "valid")
SCHEMA = os.path.join(REPO, "schemas", "point.schema.json")
FAMILY = "model-equivalence"
MARKERS = {"Passing:": "PASS", "Failing:": "FAIL", "Skipping:": "SKIP"}


def family_rules():
    return sorted((r for r in all_rules() if r.family == FAMILY), key=lambda r: r.id)


def examples(doc: str) -> list[tuple[str, str]]:
    """[(expected status, yaml text)] from a docstring's Example: section."""
    lines = textwrap.dedent(doc).splitlines()
    out: list[tuple[str, list[str]]] = []
    inside, cur_indent = False, None
    for ln in lines:
        s, ind = ln.strip(), len(ln) - len(ln.lstrip())
        if s == "Example:":
            inside, base = True, ind
            continue
        if not inside:
            continue
        if s and ind <= base:
            break  # the next section
        if s in MARKERS:
            out.append((MARKERS[s], []))
            cur_indent = ind
            continue
        if out and (not s or ind > cur_indent):
            out[-1][1].append(ln)
    return [(status, textwrap.dedent("\n".join(body)).strip() + "\n") for status, body in out]


_BASE: dict = {}


def _point_with(snippet: dict, name: str = "r8", keep_block: bool = False, fresh: bool = False):
    """fixtures/valid with ``snippet`` applied to point ``name`` (discovered once; caches reset per call)."""
    if fresh or not _BASE:
        pkg = discover([VALID])
        originals = {p.name: copy.deepcopy(p.files["point_yaml"].data) for p in pkg.submissions[0].points()}
        if fresh:
            return _apply(pkg, originals, snippet, name, keep_block)
        _BASE.update(pkg=pkg, originals=originals)
    return _apply(_BASE["pkg"], _BASE["originals"], snippet, name, keep_block)


def _apply(pkg, originals, snippet, name, keep_block):
    curve = pkg.submissions[0].curves()[0]
    for p in curve.points:
        p._cache.clear()
        lf = p.files["point_yaml"]
        data = copy.deepcopy(originals[p.name])
        if p.name == name:
            data = {k: v for k, v in data.items() if keep_block or k != "model_equivalence"}
            data.update(copy.deepcopy(snippet))
        if data != lf.data:
            lf.data = data
            lf.text = yaml.safe_dump(data, sort_keys=False)
            lf._positions = None
            lf.model, lf.field_errors = validate_lenient(PointYaml, data)
    point = next(p for p in curve.points if p.name == name)
    return pkg, curve, point


CASES = [(r.id, i, status, text) for r in family_rules() for i, (status, text) in enumerate(examples(r.doc))]


@pytest.mark.parametrize("rule_id,index,status,text", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in CASES])
def test_docstring_example(rule_id, index, status, text):
    rule = next(r for r in all_rules() if r.id == rule_id)
    snippet = yaml.safe_load(text)
    assert isinstance(snippet, dict), "an example must be a point.yaml mapping"
    pkg, curve, point = _point_with(snippet)
    ctx = Context(package=pkg, policy=load_policy())
    subject = point if rule.scope == "point" else curve
    findings = evaluate(rule, subject, ctx)
    assert len(findings) == 1
    f = findings[0]
    assert f.status.value == status, f"{rule_id} example {index}: {f.status.value} ({f.message})\n{text}"
    if f.status is Status.FAIL:
        assert f.location is not None and f.location.line, "a FAIL names the file and line"
        assert f.observed is not None or f.expected is not None
        assert f.fix
        assert "internal error" not in f.message
    if f.status is Status.SKIP:
        assert f.reason


@pytest.mark.parametrize("rule", family_rules(), ids=lambda r: r.id)
def test_every_rule_documents_a_passing_and_failing_example(rule):
    statuses = [s for s, _ in examples(rule.doc)]
    assert "PASS" in statuses and "FAIL" in statuses, rule.id
    for section in ("What it checks", "Why", "How to fix"):
        assert rule.section(section), f"{rule.id}: no {section} section"
    assert "R§2.9" in rule.clause or "R§2.9" in rule.doc, f"{rule.id} does not cite the clause it enforces"
    assert '"' in rule.section("What it checks") + rule.section("Why") + rule.doc, "quote the clause"


def test_family_has_the_nine_items():
    ids = {r.id for r in family_rules()}
    assert {"me-disallowed-technique", "me-quantization-disclosed", "me-calibration-set", "me-checkpoint-provenance",
            "me-kv-cache-disclosed", "me-sparsity-disclosed", "me-sparsity-calibration", "me-fixed-sampling",
            "me-chat-template-flags", "me-softmax-elision", "me-checkpoint-consistency",
            "me-disclosure-present"} <= ids
    sev = {r.id: r.severity.value for r in family_rules()}
    assert sev["me-disclosure-present"] == "warn"
    assert sev["me-disallowed-technique"] == "reject-points"


# ---- division gating -------------------------------------------------------------------------

def _run(rule_id: str, snippet: dict):
    rule = next(r for r in all_rules() if r.id == rule_id)
    pkg, curve, point = _point_with(snippet)
    ctx = Context(package=pkg, policy=load_policy())
    return evaluate(rule, point if rule.scope == "point" else curve, ctx)[0]


@pytest.mark.parametrize("div", ["Serviced", "RDI"])
def test_disclosure_only_divisions_skip_the_equivalence_rules(div):
    me = {"quantization": {"method": "GPTQ", "formats": ["INT4"], "calibration_set": "cnn_dailymail",
                           "description_url": "https://example.org/q"},
          "runtime_sparsity": {"method": "x", "calibration": "cnn_dailymail"},
          "chat_template_flags": {"enable_thinking": True}, "softmax_elision": True,
          "sampling": {"temperature": 0.8}}
    for rid in ("me-calibration-set", "me-sparsity-calibration", "me-chat-template-flags", "me-softmax-elision"):
        f = _run(rid, {"division": div, "model_equivalence": me})
        assert f.status is Status.SKIP and f.reason == "not-applicable", (rid, f.message)
    f = _run("me-fixed-sampling", {"division": div, "model_equivalence": me})
    assert f.status is Status.PASS
    f = _run("me-fixed-sampling", {"division": div, "model_equivalence": {"techniques": []}})
    assert f.status is Status.FAIL and f.severity.value == "flag"


def test_disclosed_augmentation_passes_in_serviced():
    t = {"name": "LoRA", "description": "rank-16 adapters", "disclosure_url": "https://example.org/lora"}
    f = _run("me-disallowed-technique", {"division": "Serviced", "model_equivalence": {"techniques": [t]}})
    assert f.status is Status.PASS
    f = _run("me-disallowed-technique", {"division": "Standardized", "model_equivalence": {"techniques": [t]}})
    assert f.status is Status.FAIL and f.severity.value == "reject-points"


def test_unknown_division_gets_the_full_rules():
    f = _run("me-disallowed-technique", {"division": "Closed", "model_equivalence": {"techniques": ["pruning"]}})
    assert f.status is Status.FAIL and "Standardized rules apply" in f.message


def test_serviced_stripped_checkpoint_needs_declared_removal():
    ck = {"source": "derived", "components_retained": False}
    f = _run("me-checkpoint-provenance", {"division": "RDI", "model_equivalence": {"checkpoint": ck}})
    assert f.status is Status.FAIL and f.severity.value == "flag"
    t = {"name": "expert removal", "disclosure_url": "https://example.org/experts"}
    f = _run("me-checkpoint-provenance", {"division": "RDI", "model_equivalence": {"checkpoint": ck, "techniques": [t]}})
    assert f.status is Status.PASS


# ---- policy-dependent SKIPs --------------------------------------------------------------------

def test_benchmark_without_policy_values_skips():
    me = {"sampling": {"temperature": 0.6}, "chat_template_flags": {"enable_thinking": True},
          "quantization": {"method": "FP8", "formats": ["FP8"], "calibration_set": "something"}}
    for rid in ("me-fixed-sampling", "me-chat-template-flags", "me-calibration-set"):
        f = _run(rid, {"model_name": "deepseek-r1", "model_equivalence": me})
        assert f.status is Status.SKIP and f.reason == "not-in-policy", (rid, f.message)
        assert "deepseek-r1" in f.message


def test_calibrating_on_the_benchmark_dataset_fails_even_without_a_published_set():
    me = {"runtime_sparsity": {"method": "x", "calibration": "deepseek_r1"}}
    f = _run("me-sparsity-calibration", {"model_name": "deepseek-r1", "model_equivalence": me})
    assert f.status is Status.FAIL and "input-based optimization" in f.message


def test_config_yaml_model_params_are_compared():
    pkg, curve, point = _point_with({}, keep_block=True, fresh=True)
    cf = point.files["config"]
    cf.data = copy.deepcopy(cf.data)
    cf.data["model_params"]["temperature"] = 0.7
    cf.text = yaml.safe_dump(cf.data, sort_keys=False)
    cf._positions = None
    rule = next(r for r in all_rules() if r.id == "me-fixed-sampling")
    f = evaluate(rule, point, Context(package=pkg, policy=load_policy()))[0]
    assert f.status is Status.FAIL and f.location.file.endswith("config.yaml")
    assert f.location.path == ("model_params", "temperature") and f.location.line


def test_missing_block_is_skip_for_point_rules_and_one_warn_per_curve():
    f = _run("me-disallowed-technique", {})
    assert f.status is Status.SKIP and f.reason == "missing-input"
    f = _run("me-disclosure-present", {})
    assert f.status is Status.FAIL and f.severity.value == "warn" and "r8" in f.message


# ---- the parser never raises; wrong types become problems --------------------------------------

@pytest.mark.parametrize("raw", [
    [], "fp8", 3, {"checkpoint": []}, {"techniques": "pruning"}, {"techniques": [None, 3, {}, {"name": 5}]},
    {"sampling": {"temperature": math.nan, "top_k": "1"}}, {"runtime_sparsity": {"value": math.inf}},
    {"quantization": {"formats": ["FP8", 8]}}, {"kv_cache": {"precision": True}}, {"softmax_elision": "yes"},
])
def test_parse_block_reports_bad_types(raw):
    parsed = parse_block(raw)
    assert parsed.present and parsed.problems
    assert all(p.path[0] == "model_equivalence" for p in parsed.problems)


def test_parse_block_absent():
    assert not parse_block(None).present


def test_norm_name():
    assert norm_name(" Query_Coalescing ") == "query-coalescing"
    assert norm_name("LoRA") == "lora" and norm_name(3) is None and norm_name("  ") is None


def test_every_point_rule_survives_hostile_blocks():
    hostile = [{"checkpoint": {"source": "derived", "components_retained": None}},
               {"sampling": {"temperature": True, "top_k": 1.5, "stop": "eos"}},
               {"chat_template_flags": ["enable_thinking"]}, {"runtime_sparsity": None},
               {"kv_cache": {"precision": "fp8", "compression": "none"}}, {"techniques": [{"name": "LoRA"}] * 3}]
    for me in hostile:
        for rule in family_rules():
            f = _run(rule.id, {"model_equivalence": me})
            assert "internal error" not in f.message, (rule.id, me, f.message)


# ---- schema ----------------------------------------------------------------------------------

def _validator():
    import jsonschema

    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_valid_fixture_point_yaml_files_match_the_schema():
    v = _validator()
    files = sorted(glob.glob(os.path.join(VALID, "results", "*", "*", "*", "point.yaml")))
    assert files
    for f in files:
        with open(f, encoding="utf-8") as fh:
            errors = [e.message for e in v.iter_errors(yaml.safe_load(fh))]
        assert not errors, (f, errors)


def test_schema_documents_every_field_of_the_models():
    from checker.load.models import model_equivalence as m

    with open(SCHEMA, encoding="utf-8") as fh:
        schema = json.load(fh)
    assert set(fields_of(PointYaml)) <= set(schema["properties"])
    from checker.lsp.hover import field_schema  # resolves the generated schema's $defs

    keys = lambda *path: set(_object(schema, field_schema(schema, path)[1])["properties"])  # noqa: E731
    assert set(fields_of(m.ModelEquivalence)) == keys("model_equivalence")
    sub = {"checkpoint": m.Checkpoint, "quantization": m.Quantization, "kv_cache": m.KvCache,
           "sampling": m.Sampling, "runtime_sparsity": m.RuntimeSparsity}
    for key, cls in sub.items():
        assert set(fields_of(cls)) == keys("model_equivalence", key), key


def _object(root: dict, node: dict) -> dict:
    """The object member of an Optional[...] schema, its $ref resolved."""
    from checker.lsp.hover import _resolve

    for alt in node.get("anyOf") or (node,):
        alt = _resolve(root, alt)
        if "properties" in alt:
            return alt
    raise AssertionError(node)


def test_passing_examples_match_the_schema():
    v = _validator()
    for rule_id, _i, status, text in CASES:
        if status == "PASS":
            errors = [e.message for e in v.iter_errors(yaml.safe_load(text))]
            assert not errors, (rule_id, errors)


def test_unknown_keys_are_reported():
    parsed = parse_block({"quantisation": {}, "kv_cache": {"precison": "FP8"},
                          "techniques": [{"name": "lora", "url": "x"}]})
    paths = {p.path for p in parsed.problems}
    assert ("model_equivalence", "quantisation") in paths
    assert ("model_equivalence", "kv_cache", "precison") in paths
    assert ("model_equivalence", "techniques", 0, "url") in paths


# ---- property: arbitrary YAML-shaped blocks never crash a rule ----------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_KEYS = ["checkpoint", "quantization", "kv_cache", "runtime_sparsity", "techniques", "sampling",
         "chat_template_flags", "softmax_elision", "source", "checksum", "components_retained", "method", "formats",
         "calibration_set", "precision", "compression", "value", "calibration", "schedule", "temperature", "top_k",
         "logprobs", "name", "enable_thinking"]
_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 2**70), st.floats(allow_nan=True),
                     st.sampled_from(["derived", "fixed", "FP8", "lora", "cnn_dailymail", "https://x.org/a", ""]))
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                         st.dictionaries(st.sampled_from(_KEYS), inner, max_size=4)),
                       max_leaves=12)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(block=st.dictionaries(st.sampled_from(_KEYS), _values, max_size=6), division=st.sampled_from(
    ["Standardized", "Serviced", "RDI", None, 3]))
@pytest.mark.slow
def test_rules_never_crash_on_arbitrary_blocks(block, division):
    pkg, curve, point = _point_with({"division": division, "model_equivalence": block})
    ctx = Context(package=pkg, policy=load_policy())
    for rule in family_rules():
        f = evaluate(rule, point if rule.scope == "point" else curve, ctx)[0]
        assert "internal error" not in f.message, (rule.id, block, f.message)
        if f.status is Status.FAIL:
            assert f.location is not None and f.location.line
