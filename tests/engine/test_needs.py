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


def _refused(lf, code="file-too-large", message="larger than the cap"):
    from checker.load.reader import LoadError

    return LoadedFile(kind=lf.kind, rel=lf.rel, abspath=lf.abspath, exists=True, error=LoadError(code, message))


def test_read_lets_a_parse_error_through_and_skips_a_refusal(point_ctx):
    point, ctx = point_ctx
    lf = point.files["point_yaml"]
    point.files["point_yaml"] = _refused(lf, "parse-error", "line 3: mapping values are not allowed here")
    assert _status(_rule("read:point_yaml"), point, ctx)[0] == "PASS"
    assert _status(_rule("maybe-read:point_yaml"), point, ctx)[0] == "PASS"
    assert _status(_rule("maybe-loaded:point_yaml"), point, ctx)[:2] == ("SKIP", "input-not-loaded")
    point.files["point_yaml"] = _refused(lf)
    for kind in ("read", "maybe-read", "maybe-loaded"):
        status, reason, message = _status(_rule(f"{kind}:point_yaml"), point, ctx)
        assert (status, reason) == ("SKIP", "input-not-loaded") and "larger than the cap" in message, kind
    point.files["point_yaml"] = LoadedFile(kind="point_yaml", rel=lf.rel, abspath=lf.abspath)  # absent
    assert _status(_rule("read:point_yaml"), point, ctx)[:2] == ("SKIP", "missing-input")
    assert _status(_rule("maybe-read:point_yaml"), point, ctx)[0] == "PASS"
    assert _status(_rule("maybe-loaded:point_yaml"), point, ctx)[0] == "PASS"


def test_has_dir_skips_a_point_whose_directory_was_not_listed(point_ctx):
    from checker.load.reader import LoadError

    point, ctx = point_ctx
    assert _status(_rule("has:dir"), point, ctx)[0] == "PASS"
    point.dir_error = LoadError("file-unreadable", "permission denied")
    status, reason, message = _status(_rule("has:dir"), point, ctx)
    assert (status, reason) == ("SKIP", "input-not-loaded") and message == f"input not loaded: {point.rel}/ (permission denied)"


def test_has_points_and_maybe_loaded_on_a_curve(point_ctx):
    point, ctx = point_ctx
    curve = point.curve

    @rule(id="needs-curve-probe", title="probe", clause="-", severity="warn", scope="curve",
          needs=("has:points", "maybe-loaded:point_yaml"))
    def probe(c, ctx):
        return Pass("ran")

    r = probe.__rule__.bind("test", probe)
    assert _status(r, curve, ctx)[0] == "PASS"
    curve.points[-1].files["point_yaml"] = _refused(curve.points[-1].files["point_yaml"])
    status, reason, message = _status(r, curve, ctx)
    assert (status, reason) == ("SKIP", "input-not-loaded") and curve.points[-1].name in message
    curve.points = []
    assert _status(r, curve, ctx) == ("SKIP", "missing-input", "the curve has no point directories (see point-dirs)")


def test_a_rule_or_its_helper_raising_skipped_is_the_rules_skip(point_ctx):
    from checker.core.rule import Skipped

    point, ctx = point_ctx

    def helper(p):
        raise Skipped("the curve's regions are unknown (see region-basis)", reason="missing-input")

    @rule(id="needs-skipped-probe", title="probe", clause="-", severity="warn", scope="point")
    def probe(p, ctx):
        helper(p)
        return Pass("never")

    r = probe.__rule__.bind("test", probe)
    assert _status(r, point, ctx) == ("SKIP", "missing-input", "the curve's regions are unknown (see region-basis)")
