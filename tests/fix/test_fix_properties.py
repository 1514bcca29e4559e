"""Properties of --fix and --diff on generated packages (hypothesis).

A package is fixtures/valid with one point spoilt in several fixable ways at once (misspelt keys,
integral floats, YAML 1.1 booleans, quoted numbers, a model alias, a missing or wrong region, seeds
that misstate what ran, JSON spellings) and written in an unusual way (CRLF, comments after values,
a byte-order mark). For every such package:

- fixing never adds a finding: every FAIL after --fix was a FAIL before (rule and subject);
- a fixed file differs from the original only inside the fixed spans: replaying the recorded edits,
  round by round, every other character is the original's, and the result is the file on disk;
- ``--diff`` then applying the diff (``patch -p1``) gives byte for byte what ``--fix`` writes.
"""
import os
import re
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from casefixtures import FIXTURES, PLACEHOLDERS

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

CURVE = PLACEHOLDERS["{curve}"]
POINTS = ("r8", "r64", "r256")

#: name -> (file, pattern, replacement): each spoils one thing a fix can put right
SPOILS = {
    "key-case": ("point.yaml", r"^target_cohort:", "Target_Cohort:"),
    "key-nested": ("point.yaml", r"^  data_source:", "  datasource:"),
    "float": ("point.yaml", r"^concurrency: (\d+)$", r"concurrency: \1.0"),
    "float-nested": ("point.yaml", r"^  requests_issued: (\d+)$", r"  requests_issued: \1.0"),
    "yes": ("point.yaml", r"stream_all_chunks: true", "stream_all_chunks: yes"),
    "on": ("point.yaml", r"logs_retained: true", "logs_retained: on"),
    "quoted-int": ("point.yaml", r"^max_supported_concurrency: 1024$", "max_supported_concurrency: '1024'"),
    "quoted-float": ("point.yaml", r"^  duration_s: 180\.0$", '  duration_s: "180.0"'),
    "alias": ("point.yaml", r"^model_name: llama3_1-8b$", "model_name: llama3.1-8b"),
    "region-missing": ("point.yaml", r"^region: .*\n", ""),
    "region-wrong": ("point.yaml", r"^region: .*$", "region: low_latency"),
    "seed-run-used": ("point.yaml", r"sample_index_rng_seed: 586478644936801402", "sample_index_rng_seed: 42"),
    "seed-v07": ("point.yaml", r"scheduler_rng_seed:", "scheduler_random_seed:"),
    "seed-set-case": ("point.yaml", r"^seed_set: A$", "seed_set: a"),
    "json-quoted": ("system_desc.json", r'"host_processors_per_node": 2', '"host_processors_per_node": "2"'),
    "json-key": ("system_desc.json", r'"host_storage_type"', '"Host_Storage_Type"'),
    "json-float": ("system_desc.json", r'"system_node_ensemble_count": 1,', '"system_node_ensemble_count": 1.0,'),
}
EXCLUSIVE = [{"region-missing", "region-wrong"}]

packages = st.fixed_dictionaries({
    "point": st.sampled_from(POINTS),
    "spoils": st.lists(st.sampled_from(sorted(SPOILS)), min_size=1, max_size=5, unique=True),
    "crlf": st.booleans(),
    "comments": st.booleans(),
    "bom": st.booleans(),
})


def build(parent: str, spec: dict) -> None:
    """fixtures/valid under parent/pkg, spoilt as ``spec`` says."""
    root = os.path.join(parent, "pkg")
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    point = os.path.join(root, CURVE, spec["point"])
    chosen = list(spec["spoils"])
    for group in EXCLUSIVE:
        for extra in sorted(group & set(chosen))[1:]:
            chosen.remove(extra)
    for name in ("point.yaml", "system_desc.json"):
        path = os.path.join(point, name)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for s in chosen:
            file, pattern, repl = SPOILS[s]
            if file == name:
                text = re.sub(pattern, repl, text, count=1, flags=re.M)
        if name == "point.yaml":
            if spec["comments"]:
                text = re.sub(r"^([a-z_]+: [^\n#'\"]+)$", r"\1   # noted", text, flags=re.M)
            if spec["bom"]:
                text = "\ufeff" + text
        if spec["crlf"]:
            text = text.replace("\n", "\r\n")
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)


def _run(mode: str, parent: str):
    from checker.cli import fixing
    from checker.engine.pipeline import run_check
    from checker.fix import engine

    captured = {}
    original_rounds = engine.fix_rounds

    def rounds(check, roots):
        out = original_rounds(check, roots)
        captured["states"] = out[2]
        captured["first"] = out[0]
        return out

    here = os.getcwd()
    os.chdir(parent)
    engine.fix_rounds = rounds
    try:
        report, text = fixing.run(mode, lambda bundle, reads=None: run_check(["pkg"], reads=reads), ["pkg"], None)
    finally:
        engine.fix_rounds = original_rounds
        os.chdir(here)
    return report, text, captured["first"], captured["states"]


def _fails(report) -> set:
    return {(f.rule_id, f.subject.label()) for f in report.findings if f.status.value == "FAIL"}


def _replay(st) -> str:
    """The original text with each round's edits applied, asserting every character outside them is kept."""
    text = st.original
    for edits in st.rounds:
        out, pos = [], 0
        for e in sorted(edits, key=lambda e: (e.start, e.end)):
            assert e.start >= pos and text[e.start:e.end] == e.old
            out.append(text[pos:e.start])
            out.append(e.new)
            pos = e.end
        out.append(text[pos:])
        new = "".join(out)
        # outside the spans: the same characters, in the same order
        kept = []
        cur = 0
        for e in sorted(edits, key=lambda e: (e.start, e.end)):
            kept.append(text[cur:e.start])
            cur = e.end
        kept.append(text[cur:])
        rest, at = new, 0
        for e, piece in zip(sorted(edits, key=lambda e: (e.start, e.end)), kept):
            assert rest[at:at + len(piece)] == piece
            at += len(piece)
            assert rest[at:at + len(e.new)] == e.new
            at += len(e.new)
        assert rest[at:] == kept[-1]
        text = new
    return text


def _tree(root: str) -> dict:
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


@settings(max_examples=14, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(packages)
def test_fix_never_adds_a_finding_keeps_every_other_byte_and_equals_the_applied_diff(spec):
    with tempfile.TemporaryDirectory(prefix="ec-fixprop-") as tmp:
        fixed, diffed = os.path.join(tmp, "fix"), os.path.join(tmp, "diff")
        build(fixed, spec)
        build(diffed, spec)
        before_tree = _tree(os.path.join(fixed, "pkg"))

        after, _, first, states = _run("fix", fixed)
        before = _fails(first)
        assert before, "the spoilt package has no finding"
        assert _fails(after) <= before, f"fixing added {_fails(after) - before}"
        assert after.fixable() == 0, [f.rule_id for f in after.findings if f.edits]

        after_tree = _tree(os.path.join(fixed, "pkg"))
        changed = {k for k in after_tree if after_tree[k] != before_tree[k]}
        assert set(after_tree) == set(before_tree)  # nothing created, nothing removed
        by_rel = {os.path.relpath(s.real, os.path.realpath(os.path.join(fixed, "pkg"))): s for s in states.values()}
        assert changed == {k for k, s in by_rel.items() if s.written}
        for rel in changed:
            assert _replay(by_rel[rel]).encode("utf-8") == after_tree[rel]

        _, text, _, _ = _run("diff", diffed)
        assert _tree(os.path.join(diffed, "pkg")) == before_tree  # --diff writes nothing
        if text:
            proc = subprocess.run(["patch", "-p1", "--binary", "--no-backup-if-mismatch", "-s"],
                                  input=text.encode("utf-8"), cwd=diffed, capture_output=True, timeout=60)
            assert proc.returncode == 0, proc.stdout + proc.stderr
        assert _tree(os.path.join(diffed, "pkg")) == after_tree
