"""Hostile input, round two (issue 17): symlinks, names and memory.

Nothing outside the checked roots is ever opened, at any depth, in packages and run folders alike, and
each escape is reported; names are data (Unicode digits, non-UTF-8 bytes, NUL in a path value); the
cost of a package is bounded by its shape with stated constants (docs/robustness.md).
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import assert_valid_report
from hostile_gen import (CURVE, EXT, FORMATS, REAL_RUNS, VALID, OpenRecorder, hostile_str, internal_errors, slow,
                         name_bytes, run_cli)

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

SYSTEM = os.path.dirname(CURVE)

#: where a symlink leaving the root can sit: (relative link path, what it replaces: "dir" or "file")
PACKAGE_LINKS = {
    "results": "results", "system": SYSTEM, "curve": CURVE, "point": f"{CURVE}/r64",
    "point-file": f"{CURVE}/r64/point.yaml", "power": f"{SYSTEM}/system_power.json", "docs": "docs",
    "src-impl": "src/trtllm", "summary": f"{CURVE}/r32/result_summary.json",
}
RUN_LINKS = {
    "performance": "performance", "metrics": "metrics", "accuracy": "accuracy", "events": "events.jsonl",
    "sample-map": "sample_idx_map.json", "config": "config.yaml",
}


def _escape(root: str, rel: str, outside: str) -> None:
    """Move ``root/rel`` outside the tree and leave a symlink to it in its place."""
    src = os.path.join(root, rel)
    dest = os.path.join(outside, rel.replace("/", "__"))
    shutil.move(src, dest)
    os.symlink(dest, src)


def _check_recorded(paths, **kw):
    from checker.engine.pipeline import run_check

    with OpenRecorder() as rec:
        rep = run_check(paths, jobs=1, **kw)
    return rep, rec


@slow(12)
@given(st.sets(st.sampled_from(sorted(PACKAGE_LINKS)), min_size=1, max_size=3), st.booleans())
def test_package_symlinks_never_followed_out(tmp_path, links, in_org):
    base = tempfile.mkdtemp(dir=tmp_path)
    outside = os.path.join(base, "OUTSIDE")
    os.mkdir(outside)
    org = os.path.join(base, "org")
    root = os.path.join(org, "sub-1")
    shutil.copytree(VALID, root)
    # nested links (a point inside a linked curve) are only escapes once: keep the outermost
    for name in sorted(links, key=lambda n: PACKAGE_LINKS[n].count("/")):
        rel = PACKAGE_LINKS[name]
        if os.path.lexists(os.path.join(root, rel)) and not any(
                os.path.islink(os.path.join(root, *rel.split("/")[:i])) for i in range(1, rel.count("/") + 1)):
            _escape(root, rel, outside)
    if in_org:  # a whole submission beside it that is a symlink out of the organisation directory
        shutil.copytree(VALID, os.path.join(outside, "sub-2"))
        os.symlink(os.path.join(outside, "sub-2"), os.path.join(org, "sub-2"))
    rep, rec = _check_recorded([org if in_org else root])
    assert not rec.under(outside), sorted(set(rec.under(outside)))[:5]
    escapes = [f for f in rep.findings if f.rule_id == "symlink-escape" and f.status.value == "FAIL"]
    n_links = sum(1 for dp, dn, fn in os.walk(root) for x in dn + fn if os.path.islink(os.path.join(dp, x)))
    assert len(escapes) >= n_links + in_org, [f.message for f in escapes]
    assert not internal_errors(rep.findings)


@slow(10)
@given(st.sets(st.sampled_from(sorted(RUN_LINKS)), min_size=1, max_size=3),
       st.sampled_from(["echo_accuracy_only", "var_poisson_perf"]))
def test_run_folder_symlinks_never_followed_out(tmp_path, links, run):
    """Issue 17: a run folder's performance/, metrics/ or accuracy/ symlinked out was read (and passed)."""
    base = tempfile.mkdtemp(dir=tmp_path)
    outside = os.path.join(base, "OUTSIDE")
    os.mkdir(outside)
    root = os.path.join(base, "run")
    shutil.copytree(os.path.join(REAL_RUNS, run), root)
    placed = []
    for name in sorted(links):
        rel = RUN_LINKS[name]
        if os.path.lexists(os.path.join(root, rel)):
            _escape(root, rel, outside)
            placed.append(rel)
    rep, rec = _check_recorded([root])
    assert not rec.under(outside), sorted(set(rec.under(outside)))[:5]
    escapes = [f for f in rep.findings if f.rule_id == "symlink-escape" and f.status.value == "FAIL"]
    for rel in placed:
        if rel in ("events.jsonl", "sample_idx_map.json"):  # streamed: the audit says it cannot be read
            continue
        assert [f for f in escapes if rel in f.subject.entry or rel in f.message], (rel, [f.message for f in escapes])
    assert rep.exit_code() != 0
    assert not internal_errors(rep.findings)


def test_symlinked_accuracy_dir_no_longer_passes(tmp_path):
    """The issue's example: accuracy/ symlinked out of an accuracy-only run folder made the run pass."""
    root = str(tmp_path / "run")
    shutil.copytree(os.path.join(REAL_RUNS, "echo_accuracy_only"), root)
    _escape(root, "accuracy", str(tmp_path))
    rep, rec = _check_recorded([root])
    assert not rec.under(str(tmp_path / "accuracy"))
    assert rep.exit_code() == 1
    assert [f for f in rep.findings if f.rule_id == "symlink-escape" and f.status.value == "FAIL"
            and "accuracy" in f.subject.entry]


# ---------------------------------------------------------------------------------------------------------
# names


@slow(10)
@given(st.lists(name_bytes, min_size=1, max_size=3, unique=True))
def test_point_names_are_data(tmp_path, names):
    """Issue 17: a run folder or point named r² crashed the sort key; any name sorts, prints and compares."""
    from checker.cli.main import _is_dir_output
    from checker.cli.output import emit

    root = tempfile.mkdtemp(dir=tmp_path)
    shutil.copytree(VALID, os.path.join(root, "sub"), dirs_exist_ok=True)
    curve = os.path.join(root, "sub", CURVE)
    for n in names:
        shutil.copytree(os.path.join(curve, "r64"), os.fsdecode(os.path.join(os.fsencode(curve), n)))
    rep, _ = _check_recorded([os.path.join(root, "sub")])
    rep2, _ = _check_recorded([os.path.join(root, "sub")])
    assert [f.subject for f in rep.findings] == [f.subject for f in rep2.findings]  # deterministic order
    assert not internal_errors(rep.findings), internal_errors(rep.findings)
    done = emit(rep, [(fmt, os.path.join(root, f"r.{EXT[fmt]}")) for fmt in FORMATS], {}, _is_dir_output)
    assert done.ok, done.problems
    assert_valid_report(json.load(open(os.path.join(root, "r.json"), "rb")))


def test_unicode_digit_run_folder_name(tmp_path):
    from checker.core.findings import point_sort_key

    for name in ("r²", "r١", "r７", "r" + "9" * 5000, "r", "", "r\udcff"):
        point_sort_key(name)
    root = tmp_path / "r²"
    shutil.copytree(os.path.join(REAL_RUNS, "var_poisson_perf"), root)
    other = tmp_path / "r١"
    shutil.copytree(os.path.join(REAL_RUNS, "echo_accuracy_only"), other)
    rep, _ = _check_recorded([str(root), str(other)])
    assert not internal_errors(rep.findings)
    assert {f.subject.point for f in rep.findings if f.subject.point} >= {"r²", "r١"}


def test_unicode_digits_are_not_point_numbers(tmp_path):
    """r١ (an Arabic-Indic 1) is no r1: a name that is not r<ASCII digits> is an unexpected entry."""
    from checker.engine.pipeline import run_check

    root = tmp_path / "sub"
    shutil.copytree(VALID, root)
    shutil.copytree(root / CURVE / "r64", root / CURVE / "r١")
    rep = run_check([str(root)])
    assert "r١" not in {f.subject.point for f in rep.findings}
    assert [f for f in rep.findings if f.rule_id == "unexpected-entry" and f.subject.entry == "r١"]


@slow(12)
@given(st.sampled_from(["shared_src", "shared_docs", "target_cohort", "seed_set"]),
       hostile_str | st.sampled_from(["src/\x00x", "\x00", "src/trtllm\x00", "../" * 50, "src/" + "a/" * 3000,
                                      "２０２６-11-C0", "\udcff/src"]))
def test_path_and_id_values_are_data(tmp_path, key, value):
    """Issue 17: a NUL in shared_src became an internal-error finding."""
    import yaml

    from checker.engine.pipeline import run_check

    root = tempfile.mkdtemp(dir=tmp_path)
    sub = os.path.join(root, "sub")
    shutil.copytree(VALID, sub)
    py = os.path.join(sub, CURVE, "r64", "point.yaml")
    with open(py, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    doc[key] = value
    with open(py, "w", encoding="utf-8", errors="surrogatepass") as fh:
        fh.write(json.dumps(doc, ensure_ascii=True))
    rep = run_check([sub])
    assert not internal_errors(rep.findings), internal_errors(rep.findings)


def test_nul_in_shared_src_is_a_finding(tmp_path):
    import yaml

    from checker.engine.pipeline import run_check

    sub = tmp_path / "sub"
    shutil.copytree(VALID, sub)
    py = sub / CURVE / "r64" / "point.yaml"
    doc = yaml.safe_load(py.read_text())
    doc["shared_src"] = "src/trtllm\x00"
    py.write_text(json.dumps(doc))
    rep = run_check([str(sub)])
    f = [f for f in rep.findings if f.rule_id == "shared-path-resolution" and f.subject.point == "r64"][0]
    assert f.status.value == "FAIL" and "NUL" in f.message


def test_fullwidth_cohort_id_is_not_a_cohort():
    from checker.domain.cohort_ids import CohortError, parse

    with pytest.raises(CohortError):
        parse("２０２６-11-C0")
    assert parse("2026-11-C0")


# ---------------------------------------------------------------------------------------------------------
# memory and time: bounded by the package's size and shape


def _points(curve: str, n: int, full: bool, start: int = 100_000) -> None:
    for i in range(n):
        d = os.path.join(curve, f"r{start + i}")
        if full:
            shutil.copytree(os.path.join(curve, "r64"), d)
        else:
            os.mkdir(d)


@pytest.fixture(scope="module")
def big_curve(tmp_path_factory):
    """A 2,000-point curve (every point a full copy of r64): about 10 MB."""
    root = str(tmp_path_factory.mktemp("big") / "sub")
    shutil.copytree(VALID, root)
    _points(os.path.join(root, CURVE), 2000, full=True)
    return root


def test_two_thousand_point_curve_through_every_renderer(big_curve, tmp_path):
    args = ["check", big_curve]
    for fmt in FORMATS:
        args += ["-f", fmt, "-o", str(tmp_path / f"r.{EXT[fmt]}")]
    args += ["-f", "html", "-o", str(tmp_path / "site") + "/"]
    rc, _, stderr, cpu, rss = run_cli(args, timeout=300)
    assert "Traceback" not in stderr and rc == 1, stderr
    assert rss < 500, f"{rss:.0f} MB"
    doc = json.loads((tmp_path / "r.json").read_text())
    cap = [f for f in doc["findings"] if f["rule_id"] == "point-cap" and f["status"] == "FAIL"]
    assert cap and "were not checked" in cap[0]["message"] and "2008 points" in cap[0]["message"], cap
    assert len({f["subject"]["point"] for f in doc["findings"] if f["subject"]["point"]}) <= 64


@pytest.mark.parametrize("shape", ["10000-empty-points", "3000-empty-systems", "10000-empty-curves",
                                   "2560-points-in-40-curves", "10000-junk-files"])
def test_many_directories_bounded(tmp_path, shape):
    root = str(tmp_path / "sub")
    shutil.copytree(VALID, root)
    if shape == "10000-empty-points":
        _points(os.path.join(root, CURVE), 10_000, full=False)
    elif shape == "3000-empty-systems":
        for i in range(3000):
            os.mkdir(os.path.join(root, "results", f"s{i}"))
    elif shape == "10000-empty-curves":
        for i in range(10_000):
            os.mkdir(os.path.join(root, SYSTEM, f"m{i}"))
    elif shape == "2560-points-in-40-curves":
        for c in range(40):
            for i in range(64):
                os.makedirs(os.path.join(root, SYSTEM, f"m{c}", f"r{i + 1}"))
    else:
        for i in range(10_000):
            open(os.path.join(root, CURVE, "r64", f"junk{i}"), "w").close()
    out = tmp_path / "r.json"
    rc, _, stderr, cpu, rss = run_cli(["check", root, "-f", "json", "-o", str(out)], timeout=300)
    assert "Traceback" not in stderr and rc in (0, 1), stderr
    assert rss < 250, f"{shape}: {rss:.0f} MB"
    doc = json.loads(out.read_text())
    assert len(doc["findings"]) < 200_000
    assert not internal_errors(doc["findings"])


def test_eight_mib_list_in_one_field(tmp_path):
    """Issue 17: an 8 MiB list in one field cost about 1 GB (a position per item) and minutes. A file of
    more than 250,000 values is refused (file-too-large) after a bounded parse; a smaller big list gets
    its finding with a position, found without a position map."""
    root = tmp_path / "sub"
    shutil.copytree(VALID, root)
    rs = root / CURVE / "r64" / "result_summary.json"
    doc = json.loads(rs.read_text())
    doc["duration_ns"] = [1] * 4_000_000
    rs.write_text(json.dumps(doc, separators=(",", ":")))
    py = root / CURVE / "r32" / "point.yaml"
    py.write_text(py.read_text().replace("concurrency: 32", "concurrency: [" + ",".join(["1"] * 4_000_000) + "]"))
    rs8 = root / CURVE / "r8" / "result_summary.json"
    doc8 = json.loads(rs8.read_text())
    doc8["duration_ns"] = list(range(200_000))  # 1.3 MB, under the value cap
    rs8.write_text(json.dumps(doc8))
    out = tmp_path / "r.json"
    rc, _, stderr, cpu, rss = run_cli(["check", str(root), "-f", "json", "-o", str(out)], timeout=300)
    assert "Traceback" not in stderr and rc == 1, stderr
    assert rss < 300, f"{rss:.0f} MB"
    assert cpu < 30, f"{cpu:.1f} s"
    doc = json.loads(out.read_text())
    big = {f["subject"]["point"] for f in doc["findings"] if f["rule_id"] == "file-too-large" and f["status"] == "FAIL"}
    assert big == {"r64", "r32"}, big
    hit = [f for f in doc["findings"] if f["status"] == "FAIL" and f["subject"]["point"] == "r8"
           and (f.get("location") or {}).get("path") == ["duration_ns"]]
    assert hit and hit[0]["location"]["line"] == 1 and hit[0]["location"]["column"] > 1
