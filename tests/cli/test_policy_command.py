"""``endpoints-checker policy``: the rules text the policy was taken from, each registry's source, date and age."""
from __future__ import annotations

import json
import os

from casefixtures import REPO
from clirun import cli

NEWER = os.path.join(REPO, "fixtures", "overrides", "seed_sets", "published-2026-12-C0.yaml")


def test_the_bundled_policy_says_where_it_was_taken_from_and_how_old_it_is():
    p = cli("policy", "--today", "2026-12-20")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    assert out.startswith("policy v1.0 (2026-10-02) from bundled rules/policy/v1.0\n")
    assert "taken from the rules text d2d9da6 of 2026-10-02" in out
    assert "seed_sets: bundled rules/policy/v1.0/seed_sets.yaml: mlcommons/endpoints_policies seedset.yaml" in out
    assert "taken 2026-10-02, 79 days old on 2026-12-20" in out
    assert "set A: adoptable 2026-10-C1 .. 2026-12-C0 (window closed; closes at 2026-12-C1)" in out
    assert "no bundled set is adoptable on 2026-12-20: the published registry is newer; pass it with --seed-sets " \
           "FILE or MLPERF_ENDPOINTS_SEED_SETS=FILE" in out
    assert "9 entries, newest approval 2026-09-C1" in out


def test_a_given_registry_is_shown_as_that_file_with_its_windows():
    p = cli("policy", "--today", "2026-12-20", "--format", "json", env={"MLPERF_ENDPOINTS_SEED_SETS": NEWER})
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["taken_from"]["rules_commit"] == "d2d9da6"
    seeds = next(r for r in doc["registries"] if r["name"] == "seed_sets")
    assert seeds["source"] == NEWER and seeds["bundled"] is False and seeds["age_days"] is None
    assert seeds["contents"]["adoptable_today"] == ["B"]
    drafters = next(r for r in doc["registries"] if r["name"] == "approved_drafters")
    assert drafters["bundled"] and drafters["taken"] == "2026-10-02" and drafters["age_days"] == 79


def test_an_unusable_registry_and_a_bad_date():
    p = cli("policy", "--seed-sets", os.path.join(REPO, "fixtures", "overrides", "seed_sets", "not-yaml.yaml"))
    assert p.returncode == 0 and "cannot be used:" in p.stdout
    p = cli("policy", "--today", "20-12-2026")
    assert p.returncode == 2 and "--today '20-12-2026' is not a date" in p.stderr


def test_write_bundle_implies_the_assembly_and_contradicts_point(tmp_path):
    run = os.path.join(REPO, "fixtures", "runs", "c4")
    p = cli("check", run, "--write-bundle", str(tmp_path / "out"), "--point", os.path.join(run, "point.yaml"))
    assert p.returncode == 2 and "--write-bundle (which assembles the run folders) and --point contradict" in p.stderr
    p = cli("check", run, "--write-bundle", str(tmp_path / "out"), "-q")
    assert "wrote the assembled bundle to" in p.stderr and (tmp_path / "out" / "results").is_dir()
