"""Run-procedure, warmup, steady-state and consistency rules: arithmetic and curve-level behaviour."""
import json
import math
import os
import sys
from types import SimpleNamespace

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from checker.load.models.lenient import validate_lenient
from checker.load.models.point import PointYaml
from checker.load.models.summary import ResultSummary
from checker.load.reader import LoadedFile
from checker.engine.policy import load_policy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "fixtures"))

import rules  # noqa: E402,F401  (registers the policy schemas)
from rules.procedure import run as procedure  # noqa: E402
from rules.steady_state import window as steady_state
from rules.warmup import warmup
from rules.procedure.policy import minimum_duration  # noqa: E402

MY_RULES = {
    "load-pattern", "streaming-config", "point-duration", "min-query-count", "samples-whole-multiple", "run-complete",
    "samples-dropped", "warmup-present", "warmup-logs-retained", "warmup-salt", "warmup-max-duration",
    "warmup-data-source", "steady-state-valid", "steady-state-consistency", "steady-state-basis",
    "config-consistency-dataset", "config-consistency-model", "harness-consistency", "model-name-valid",
    "model-name-consistency", "point-disclosure-complete", "point-system-desc-agreement", "point-config-agreement",
}


@pytest.fixture(scope="module")
def ctx():
    return SimpleNamespace(policy=load_policy(), options={})


def _lf(kind, data, model_cls=None):
    lf = LoadedFile(kind=kind, rel=f"r/{kind}", abspath=f"/r/{kind}", exists=True, data=data)
    if model_cls is not None:
        lf.model, lf.field_errors = validate_lenient(model_cls, data)
    return lf


class _Curve(SimpleNamespace):
    def cached(self, key, compute):
        return compute()


def fake_point(c=64, point=None, summary=None, offline="none", agentic=False, model=None):
    """A point alone on its curve; ``agentic``: an agentic benchmark (kimi-k3, agentic_inference)."""
    model = model or ("kimi-k3" if agentic else "llama3_1-8b")
    y = {"concurrency": c, "offline": offline, "dataset": "cnn_dailymail", "model_name": model,
         "runtime_settings": {"load_pattern": "agentic_inference" if agentic else "concurrency"}}
    y.update(point or {})
    files = {"point_yaml": _lf("point_yaml", y, PointYaml),
             "result_summary": _lf("result_summary", summary or {}, ResultSummary)}
    curve = _Curve(name=model, points=[])
    yml = files["point_yaml"].model
    p = SimpleNamespace(files=files, yaml=yml, summary=files["result_summary"].model, concurrency=c,
                        is_dedicated_offline=offline == "dedicated", curve=curve, name=f"r{c}",
                        load_pattern=yml.load_pattern if yml is not None else None)
    curve.points.append(p)
    return p


@pytest.mark.parametrize("c,agentic,offline,expected", [
    (1, False, "none", 600), (32, False, "none", 600), (33, False, "none", 1200), (1127, False, "none", 1200),
    (13368, False, "dedicated", 1200), (32, True, "none", 600), (33, True, "none", 2400), (512, True, "none", 2400),
])
def test_minimum_duration(ctx, c, agentic, offline, expected):
    assert minimum_duration(fake_point(c, agentic=agentic, offline=offline), ctx)[0] == expected


def test_agentic_model_gets_2400_whatever_its_load_pattern(ctx):
    p = fake_point(64, model="kimi-k3")  # the `concurrency` pattern: the model's type decides
    assert minimum_duration(p, ctx)[0] == 2400


def test_single_turn_model_stays_single_turn_on_agentic_patterns(ctx):
    """checker.domain.benchmark: the model's type first (RULES.md §11); before, either made it agentic."""
    p = fake_point(64, model="llama3_1-8b", point={"runtime_settings": {"load_pattern": "agentic_inference"}})
    assert minimum_duration(p, ctx)[0] == 1200
    assert steady_state.steady_state_valid(p, ctx).message != "agentic point: exempt"


def test_unknown_model_is_agentic_by_load_pattern(ctx):
    p = fake_point(64, model="not-a-model", point={"runtime_settings": {"load_pattern": "agentic_inference"}})
    assert minimum_duration(p, ctx)[0] == 2400
    assert minimum_duration(fake_point(64, model="not-a-model"), ctx)[0] == 1200


@pytest.mark.parametrize("seconds,status", [(1199.9, "FAIL"), (1200.0, "PASS"), (float("nan"), "FAIL"),
                                            (float("inf"), "FAIL"), (-1.0, "FAIL"), ("1300", "FAIL")])
def test_point_duration_window(ctx, seconds, status):
    p = fake_point(64, point={"steady_state": {"status": "windowable", "window": {"duration_s": seconds}}})
    out = procedure.point_duration(p, ctx)
    assert out.status == status
    assert "steady-state window" in out.message


def test_point_duration_whole_run_basis(ctx):
    p = fake_point(64, summary={"duration_ns": 1_300 * 10**9})
    out = procedure.point_duration(p, ctx)
    assert out.status == "PASS" and "whole-run" in out.message


@settings(max_examples=200, deadline=None)
@given(issued=st.integers(min_value=-5, max_value=10**7))
def test_whole_multiple_property(ctx, issued):
    size = 13368
    p = fake_point(64, summary={"n_samples_issued": issued, "n_samples_completed": 0, "n_samples_failed": 0,
                                "duration_ns": 1})
    out = procedure.samples_whole_multiple(p, ctx)
    if issued < 0:
        assert out.status == "SKIP"
    else:
        assert (out.status == "PASS") == (issued > 0 and issued % size == 0)


@settings(max_examples=200, deadline=None)
@given(issued=st.integers(0, 10**6), completed=st.integers(0, 10**6), failed=st.integers(0, 10**6))
def test_run_complete_and_dropped_property(ctx, issued, completed, failed):
    summ = {"n_samples_issued": issued, "n_samples_completed": completed, "n_samples_failed": failed,
            "complete": True, "state": "complete", "duration_ns": 1}
    p = fake_point(64, summary=summ)
    ok = failed <= completed <= issued
    assert procedure.run_complete(p, ctx).status == "PASS"
    dropped = procedure.samples_dropped(p, ctx)
    if ok:
        assert (dropped.status == "FAIL") == (issued > completed)
    else:
        assert dropped.status == "SKIP"
        assert procedure.min_query_count(p, ctx).status == "SKIP"
        assert procedure.samples_whole_multiple(p, ctx).status == "SKIP"


@settings(max_examples=100, deadline=None)
@given(completed=st.integers(0, 40000), failed=st.integers(0, 40000))
def test_min_query_count_counts_successes(ctx, completed, failed):
    p = fake_point(64, summary={"n_samples_issued": 40000, "n_samples_completed": completed, "n_samples_failed": failed,
                                "duration_ns": 1})
    out = procedure.min_query_count(p, ctx)
    if failed > completed:
        assert out.status == "SKIP"
    else:
        assert (out.status == "PASS") == (completed - failed >= 13368)


def test_ultra_low_subset_counts_only_at_low_concurrency(ctx):
    summ = {"n_samples_issued": 2000, "n_samples_completed": 2000, "n_samples_failed": 0, "duration_ns": 1}
    low = fake_point(4, point={"n_samples_from_dataset": 1000}, summary=summ)
    high = fake_point(64, point={"n_samples_from_dataset": 1000}, summary=summ)
    assert procedure.samples_whole_multiple(low, ctx).status == "PASS"
    assert procedure.samples_whole_multiple(high, ctx).status == "FAIL"


@pytest.mark.parametrize("value,status", [(86400, "PASS"), (86400.5, "FAIL"), (float("inf"), "FAIL"),
                                          (-3, "FAIL"), (True, "FAIL"), ([1], "FAIL")])
def test_warmup_max_duration(ctx, value, status):
    p = fake_point(point={"warmup": {"duration_s": value}})
    assert warmup.warmup_max_duration(p, ctx).status == status


def test_steady_state_exempt_for_agentic_and_offline(ctx):
    for p in (fake_point(64, agentic=True), fake_point(13368, offline="dedicated")):
        assert steady_state.steady_state_basis(p, ctx).status == "PASS"
        assert steady_state.steady_state_valid(p, ctx).status == "PASS"


def _check(tmp_path, points):
    import make_valid
    from checker.engine.pipeline import run_check

    root = os.path.join(str(tmp_path), "pkg")
    make_valid.build(root, points=points)
    return root, run_check([root])


@pytest.mark.parametrize("n", [7, 8, 32])
def test_curves_of_7_8_32_points_pass_these_rules(tmp_path, n):
    import make_valid

    pts = make_valid.spread_points(n)
    if n == 7:
        pts = {c: s for c, s in pts.items() if s[1] != "dedicated"}
    _root, rep = _check(tmp_path, pts)
    bad = [f"{f.rule_id} {f.subject.label()}: {f.message}" for f in rep.findings
           if f.rule_id in MY_RULES and f.status.value == "FAIL"]
    assert not bad, bad


def _set(path, keys, value):
    with open(path) as fh:
        data = yaml.safe_load(fh)
    cur = data
    for k in keys[:-1]:
        cur = cur.setdefault(k, {})
    cur[keys[-1]] = value
    with open(path, "w") as fh:
        yaml.safe_dump(data, fh, sort_keys=False)


def test_agentic_curve_needs_2400_s_above_32(tmp_path):
    """An agentic benchmark's curve (kimi-k3, no Offline point): 2,400 s above 32, 600 s at or below."""
    import make_agentic
    from checker.engine.pipeline import run_check

    root = os.path.join(str(tmp_path), "pkg")
    make_agentic.build(root)
    curve = os.path.join(root, "results", make_agentic.make_valid.SYSTEM, make_agentic.MODEL)
    for r in ("r32", "r64"):  # a 2,000 s whole run (the agentic official result is the whole-run total)
        path = os.path.join(curve, r, "result_summary.json")
        with open(path) as fh:
            data = json.load(fh)
        data["duration_ns"] = 2000 * 10**9
        with open(path, "w") as fh:
            json.dump(data, fh, indent=2)
    rep = run_check([root])
    dur = {f.subject.point: f for f in rep.findings if f.rule_id == "point-duration"}
    assert dur["r64"].status.value == "FAIL" and "2,400" in dur["r64"].message
    assert dur["r32"].status.value == "PASS" and "600" in dur["r32"].message
    basis = {f.subject.point: f.status.value for f in rep.findings if f.rule_id == "steady-state-basis"}
    assert set(basis.values()) == {"PASS"}


def test_messages_never_crash_on_wrong_types(ctx):
    weird = [None, "x", [1, 2], {"a": 1}, float("nan"), True, -1]
    for v in weird:
        p = fake_point(64, point={"warmup": v, "steady_state": v, "model_name": v},
                       summary={"n_samples_issued": v, "complete": v, "state": v, "duration_ns": v})
        for fn in (procedure.point_duration, procedure.run_complete, procedure.samples_dropped,
                   warmup.warmup_present, warmup.warmup_max_duration, steady_state.steady_state_valid,
                   steady_state.steady_state_consistency, steady_state.steady_state_basis):
            out = fn(p, ctx)
            assert out.status in ("PASS", "FAIL", "SKIP")
            assert isinstance(out.message, str)
    assert math.isnan(float("nan"))


@pytest.mark.parametrize("weird", [[1, 2], {"a": 1}, "text", -7, 1e308, True, None])
@pytest.mark.slow
def test_no_internal_errors_on_wrong_types(tmp_path, weird):
    """Every field these rules read, replaced by a wrong-typed value: findings, never an internal error."""
    import json

    import make_valid
    from checker.engine.pipeline import run_check

    root = os.path.join(str(tmp_path), "pkg")
    make_valid.build(root)
    pdir = os.path.join(root, "results", make_valid.SYSTEM, make_valid.MODEL, "r64")
    for keys in (["dataset"], ["model_name"], ["division"], ["max_supported_concurrency"], ["warmup", "duration_s"],
                 ["warmup", "data_source"], ["warmup", "logs_retained"], ["steady_state", "status"],
                 ["steady_state", "window", "super_pass_end"], ["steady_state", "state"],
                 ["runtime_settings", "load_pattern"], ["runtime_settings", "warmup"], ["n_samples_from_dataset"]):
        _set(os.path.join(pdir, "point.yaml"), keys, weird)
    _set(os.path.join(pdir, "config.yaml"), ["model_params", "streaming"], weird)
    _set(os.path.join(pdir, "config.yaml"), ["settings", "load_pattern"], weird)
    with open(os.path.join(pdir, "result_summary.json")) as fh:
        summ = json.load(fh)
    for k in ("n_samples_issued", "n_samples_completed", "n_samples_failed", "complete", "state", "version",
              "git_sha", "duration_ns"):
        summ[k] = weird
    with open(os.path.join(pdir, "result_summary.json"), "w") as fh:
        json.dump(summ, fh)
    rep = run_check([root])
    errors = [f"{f.rule_id}: {f.message}" for f in rep.findings if f.reason == "rule-error"]
    assert not errors, errors
    mine = [f for f in rep.findings if f.rule_id in MY_RULES and f.subject.point == "r64"]
    assert all(f.status.value != "FAIL" or f.location is not None for f in mine)


@pytest.mark.parametrize("name,canon", [("llama3_1-8b", "llama3_1-8b"), ("llama3.1-8b", "llama3_1-8b"),
                                        ("LLAMA3_1-8B", "llama3_1-8b"), ("meta-llama/Llama-3.1-8B-Instruct", "llama3_1-8b"),
                                        ("Qwen3.6-35B-A3B", "qwen3_6-35b-a3b"), ("deepseek_r1", "deepseek-r1"),
                                        ("mixtral-8x7b", None), ("", None)])
def test_spelling_of(ctx, name, canon):
    from rules.consistency.harness import _spelling_of

    assert _spelling_of(ctx.policy.get("models"), name) == canon
