"""Conformance against the official checker: every disagreement is a reviewed decision or a listed bug.

Builds the variants (variants.yaml + cf_variants.py families) under pytest's temporary directory,
runs endpoints-checker and the official checker (endpoints-submission-cli 1.5.3.0) on each, and
checks that disagreements.yaml lists exactly the variants where the two verdicts differ or ours
differs from what the rules say, with the verdicts and rule ids that occur now.
"""
from __future__ import annotations

import os
import shutil
import time

import pytest

import cf_run
import cf_table
import cf_variants

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

VARIANTS = cf_variants.all_variants()
BY_NAME = {v["name"]: v for v in VARIANTS}
ENTRIES = cf_table.load_table()

#: brief of issue 15: the families the variants must cover (name prefix -> what it stands for)
FAMILIES = {
    "power-declared-tdp": "power method declared_tdp", "power-bandwidth-estimate": "bandwidth_estimate",
    "power-published-system": "published_system", "power-node-scaling": "node_scaling",
    "power-combined-cpu-accelerator": "combined CPU+accelerator", "power-value-kw": "sourced value_kw",
    "power-mlc-default": "sourced mlc_default", "accuracy-mapping-shape": "accuracy mapping",
    "accuracy-fractions": "accuracy fractions", "offline-elected": "Offline elected",
    "base-valid": "Offline dedicated", "agentic-": "agentic benchmarks", "division-": "divisions",
    "availability-": "availability statuses", "spec-": "speculative decoding", "nodes-used-": "nodes_used",
    "points-32": "32 points", "systems-two": "several systems", "model-": "several models",
    "style-point-yaml-json-syntax": "JSON spelling of YAML", "style-system-desc": "JSON styles",
    "spell-": "value spellings",
}


def test_enough_variants_of_each_kind():
    kinds = {e: sum(v["expect"] == e for v in VARIANTS) for e in cf_variants.EXPECT}
    assert len(VARIANTS) >= 150, kinds
    assert kinds["accept"] >= 100 and kinds["reject"] >= 60, kinds


@pytest.mark.parametrize("prefix", sorted(FAMILIES))
def test_family_is_covered(prefix):
    assert [v for v in VARIANTS if v["name"].startswith(prefix)], f"no variant for {FAMILIES[prefix]} ({prefix}*)"


def test_table_is_well_formed():
    assert cf_table.table_problems(ENTRIES, set(BY_NAME)) == []


def test_table_status_follows_expectation():
    """known-bug exactly where our listed verdict is not what the rules say."""
    wrong = [e["variant"] for e in ENTRIES if e["variant"] in BY_NAME
             and cf_table.status_of({"expect": BY_NAME[e["variant"]]["expect"], "ours": e["ours"]}) != e["status"]]
    assert wrong == []


def test_docs_page_shows_the_table():
    assert cf_table.docs_block() == cf_table.render_docs(ENTRIES), (
        "docs/conformance.md is out of date: run `python tests/conformance/update_table.py docs`")


@pytest.fixture(scope="module")
def conformance(official_python, tmp_path_factory):
    """Build every variant and run both checkers once: (results, built paths, seconds)."""
    workdir = str(tmp_path_factory.mktemp("conformance"))
    start = time.monotonic()
    built = cf_variants.build_all(VARIANTS, workdir)
    # fewer processes, each pays its start-up; the official inside ours on every 4th variant (it passes the
    # official's result through: a sample of 229 proves that, at a quarter of the cost of all 913)
    results = cf_run.run_all(built, official_python, workdir, batch=40, inside_every=4)
    seconds = time.monotonic() - start
    cf_run.STATS["line"] = f"conformance: {len(built)} variants built and checked by both tools in {seconds:.0f} s"
    yield results, built, seconds
    shutil.rmtree(workdir, ignore_errors=True)  # ~300 KB a variant: do not leave them in the temp dir


def test_every_run_completed(conformance):
    results, _built, _s = conformance
    broken = {n: (r["ours"].get("error"), r["official"].get("error")) for n, r in results.items()
              if r["ours"]["verdict"] == "error" or r["official"]["verdict"] == "error"
              or r["ours"].get("error") or r["official"].get("error")}
    assert broken == {}


def test_disagreement_table_is_true(conformance):
    """Unlisted disagreements and listed ones that no longer occur both fail (update_table.py helps)."""
    results, _built, _s = conformance
    problems = cf_table.compare(ENTRIES, cf_table.current(VARIANTS, results))
    assert problems == [], ("disagreements.yaml is not true any more; review with "
                            "`python tests/conformance/update_table.py`:\n" + "\n".join(problems))


def test_bases_accepted_by_both(conformance):
    results, _built, _s = conformance
    bases = ("base-valid", "base-agentic", "model-gpt-oss-120b", "model-deepseek-r1", "points-32", "offline-elected")
    assert {n: (results[n]["ours"]["verdict"], results[n]["official"]["verdict"]) for n in bases} == \
        {n: ("accept", "accept") for n in bases}


def test_violations_are_caught_by_someone(conformance):
    """A variant meant to break a Reject rule that neither tool rejects tests nothing: fix the variant."""
    results, _built, _s = conformance
    silent = [n for n, v in BY_NAME.items() if v["expect"] == "reject"
              and results[n]["ours"]["verdict"] == "accept" and results[n]["official"]["verdict"] == "accept"
              and not any(e["variant"] == n and e["status"] == "known-bug" for e in ENTRIES)]
    assert silent == []


@pytest.mark.parametrize("name", ["base-valid", "structure-org-directory", "structure-docs-missing", "power-liquid-cooling"])
def test_batched_run_equals_single_run(conformance, name, tmp_path):
    """Ours checks variants several per process; one package per process must give the same reduction."""
    results, built, _s = conformance
    single = cf_run.run_ours(built[name], str(tmp_path / "single.json"))
    keys = ("verdict", "rules", "flags", "warns")
    assert {k: single[k] for k in keys} == {k: results[name]["ours"][k] for k in keys}


def test_week0_prediction_is_the_official_verdict(conformance):
    """summary.week0 (the Week-0 prediction) equals what the official tool decides, on every variant:
    a mismatch is a failure here, never an entry in disagreements.yaml."""
    results, _built, _s = conformance
    wrong = {n: cf_run.week0_problem(r["ours"], r["official"]) for n, r in results.items()}
    assert {n: why for n, why in wrong.items() if why} == {}
    assert sum(r["ours"]["week0"]["verdict"] != "accept" for r in results.values()) >= 60
    assert {r["ours"]["week0"]["source"] for r in results.values()} == {"model"}  # --week0 model: predicted


def test_week0_with_the_official_inside_is_the_officials_own_result(conformance):
    """With the official installed (--week0 official), summary.week0 is what the official decides on its own,
    on every variant, by construction, and each of its ERRORs is a finding marked week0."""
    results, _built, _s = conformance
    inside = {n: r for n, r in results.items() if r["ours_official"] is not None}
    assert len(inside) >= len(results) // 4 and sum(r["official"]["verdict"] != "accept" for r in inside.values()) >= 40
    wrong = {n: cf_run.official_problem(r["ours_official"], r["official"]) for n, r in inside.items()}
    assert {n: why for n, why in wrong.items() if why} == {}
    rules = {n: (r["ours_official"]["verdict"], r["ours_official"]["rules"]) for n, r in inside.items()}
    assert rules == {n: (r["ours"]["verdict"], r["ours"]["rules"]) for n, r in inside.items()}, \
        "the rules' own verdict does not depend on who gives the Week-0 verdict"


CORPUS = os.path.join(cf_run.REPO, "fixtures", "official-corpus")
CORPUS_PACKAGES = sorted(d for d in os.listdir(CORPUS) if os.path.isdir(os.path.join(CORPUS, d)))
#: what the official 1.5.3.0 decides on its own fixture corpus (measured; the test re-measures it)
CORPUS_OFFICIAL = {"invalid_submission": "reject", "sub_a": "accept", "sub_c": "reject", "sub_e": "reject",
                   "sub_g": "reject", "valid_standardized": "accept"}


@pytest.fixture(scope="module")
def corpus(official_python, tmp_path_factory):
    """Both checkers on the six packages of the official checker's fixture corpus (fixtures/official-corpus)."""
    workdir = str(tmp_path_factory.mktemp("corpus"))
    return cf_run.run_all({n: os.path.join(CORPUS, n) for n in CORPUS_PACKAGES}, official_python, workdir, batch=1)


def test_corpus_is_the_shared_copy():
    assert CORPUS_PACKAGES == sorted(CORPUS_OFFICIAL)


@pytest.mark.parametrize("name", sorted(CORPUS_OFFICIAL))
def test_week0_prediction_on_the_official_corpus(corpus, name):
    ours, official = corpus[name]["ours"], corpus[name]["official"]
    assert official["verdict"] == CORPUS_OFFICIAL[name]
    assert cf_run.week0_problem(ours, official) == ""


@pytest.mark.parametrize("name", sorted(CORPUS_OFFICIAL))
def test_week0_with_the_official_inside_on_the_official_corpus(corpus, name):
    assert cf_run.official_problem(corpus[name]["ours_official"], corpus[name]["official"]) == ""
