"""The needs the engine enforces: each kind SKIPs (or not) exactly as checker.core.rule.NEED_KINDS says."""
from __future__ import annotations

import os

import pytest

from casefixtures import FIXTURES
from checker.core.policy import PolicyProblem
from checker.core.rule import Pass, rule
from checker.engine.catalogue import load_catalogue
from checker.engine.evaluate import Context, evaluate
from checker.engine.policy import load_policy
from checker.load.discovery import discover
from checker.load.reader import LoadedFile


def _rule(*needs):
    @rule(id="needs-probe", title="probe", clause="-", severity="warn", scope="point", needs=needs)
    def probe(point, ctx):
        return Pass(f"ran with {point.files['point_yaml'].rel}")

    return probe.__rule__.bind("test", probe)


@pytest.fixture
def point_ctx():
    pkg = discover([os.path.join(FIXTURES, "valid")])
    point = pkg.submissions[0].points()[0]
    return point, Context(package=pkg, policy=load_policy())


def _status(rule_, point, ctx):
    (f,) = evaluate(rule_, point, ctx)
    return f.status.value, f.reason, f.message


def test_a_file_need_skips_an_invalid_file_and_loaded_runs_on_it(point_ctx):
    point, ctx = point_ctx
    lf = point.files["point_yaml"]
    assert _status(_rule("point_yaml"), point, ctx)[0] == "PASS"
    lf.model = None  # parsed, but not valid against its model
    assert _status(_rule("point_yaml"), point, ctx)[:2] == ("SKIP", "input-not-valid")
    assert _status(_rule("loaded:point_yaml"), point, ctx)[0] == "PASS"
    assert _status(_rule("maybe:point_yaml"), point, ctx)[0] == "PASS"


def test_loaded_skips_a_missing_file_or_one_that_is_not_a_mapping(point_ctx):
    point, ctx = point_ctx
    lf = point.files["point_yaml"]
    lf.data = ["a", "list"]
    assert _status(_rule("loaded:point_yaml"), point, ctx)[:2] == ("SKIP", "input-not-valid")
    point.files["point_yaml"] = LoadedFile(kind="point_yaml", rel=lf.rel, abspath=lf.abspath)
    status, reason, message = _status(_rule("loaded:point_yaml"), point, ctx)
    assert (status, reason) == ("SKIP", "missing-input") and lf.rel in message


def test_an_unusable_registry_skips_naming_its_reporting_rule(point_ctx):
    point, ctx = point_ctx
    assert ctx.policy.reporters["seed_sets"] == "seed-set-registry"
    assert _status(_rule("registry:seed_sets"), point, ctx)[0] == "PASS"
    ctx.policy.problems["seed_sets"] = PolicyProblem("seeds.yaml", "file not found")
    status, reason, message = _status(_rule("registry:seed_sets"), point, ctx)
    assert (status, reason) == ("SKIP", "registry-unusable")
    assert "file not found" in message and "see seed-set-registry" in message
    # the reporting rule itself still runs: it is the one that says what is wrong
    reporter = load_catalogue().rule("seed-set-registry")
    (f,) = evaluate(reporter, ctx.package, ctx)
    assert f.status.value == "FAIL" and "file not found" in f.message


def test_an_unknown_need_kind_fails_when_the_rule_is_declared():
    with pytest.raises(ValueError, match="unknown need"):
        _rule("optional:point_yaml")
