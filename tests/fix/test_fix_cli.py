"""``check --fix`` / ``--diff`` as a user runs them: the marks, the diff, the reports, the usage errors."""
import json
import os
import shutil

import pytest

from casefixtures import FIXTURES
from clirun import CURVE, cli

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


@pytest.fixture()
def pkg(tmp_path):
    """fixtures/valid with r64 spoilt three fixable ways (an integral float, a misspelt key, no region): five
    findings, three edits."""
    root = tmp_path / "pkg"
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    path = root / CURVE / "r64" / "point.yaml"
    text = path.read_text()
    text = text.replace("concurrency: 64\n", "concurrency: 64.0\n", 1).replace("seed_set: A", "seedset: A")
    path.write_text(text.replace("region: submitters_choice\n", ""))
    return tmp_path


def test_text_marks_fixable_problems_and_counts_them(pkg):
    proc = cli("check", "pkg", "-q", cwd=str(pkg))
    lines = proc.stdout.splitlines()
    assert any(" unknown-key [*] " in ln for ln in lines)
    assert any(" value-spelling [*] " in ln for ln in lines)
    assert "[*] 5 fixable with --fix (--diff shows the changes first)" in lines
    assert proc.returncode == 1


def test_diff_prints_the_changes_and_writes_nothing(pkg):
    path = pkg / "pkg" / CURVE / "r64" / "point.yaml"
    before = path.read_bytes()
    proc = cli("check", "pkg", "--diff", cwd=str(pkg))
    assert proc.stdout.startswith(f"--- a/pkg/{CURVE}/r64/point.yaml\n+++ b/pkg/{CURVE}/r64/point.yaml\n")
    for change in ("-concurrency: 64.0\n+concurrency: 64\n", "+region: med_concurrency\n", "-seedset: A\n+seed_set: A\n"):
        assert change in proc.stdout
    assert "would fix 5 problem(s) in 1 file(s)" in proc.stderr
    assert path.read_bytes() == before
    assert proc.returncode == 1  # the package as it is: the missing seed_set rejects


def test_fix_writes_and_reports_what_remains(pkg):
    proc = cli("check", "pkg", "--fix", "-q", cwd=str(pkg))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "--fix: fixed 5 problems in 1 file" in proc.stdout
    assert "no problems" in proc.stdout and "[*]" not in proc.stdout
    again = cli("check", "pkg", "--fix", "-q", cwd=str(pkg))
    assert "--fix: nothing to fix" in again.stdout and again.returncode == 0


def test_json_and_sarif_carry_the_fix(pkg):
    from jsonschema import Draft202012Validator, validate

    proc = cli("check", "pkg", "-f", "json", "-o", "r.json", "-f", "sarif", "-o", "r.sarif", cwd=str(pkg))
    assert proc.returncode == 1
    doc = json.loads((pkg / "r.json").read_text())
    with open(os.path.join(os.path.dirname(FIXTURES), "schemas", "report.schema.json")) as fh:
        Draft202012Validator(json.load(fh)).validate(doc)
    fixable = {f["rule_id"]: f for f in doc["findings"] if f.get("edits")}
    assert set(fixable) == {"unknown-key", "value-spelling", "region-declared", "point-disclosure-complete",
                            "seed-set-consistency"}
    edit, = fixable["unknown-key"]["edits"]
    assert (edit["old"], edit["new"], edit["start"]["line"], edit["start"]["column"]) == ("seedset", "seed_set", 14, 1)
    assert edit["end"]["offset"] - edit["start"]["offset"] == len("seedset")
    assert len(edit["file_sha256"]) == 64
    sarif = json.loads((pkg / "r.sarif").read_text())
    with open(os.path.join(os.path.dirname(FIXTURES), "schemas", "sarif-2.1.0.schema.json")) as fh:
        validate(sarif, json.load(fh))
    fixes = {r["ruleId"]: r["fixes"] for r in sarif["runs"][0]["results"] if "fixes" in r}
    rep, = fixes["region-declared"][0]["artifactChanges"][0]["replacements"]
    assert rep["insertedContent"]["text"] == "region: med_concurrency\n"
    assert rep["deletedRegion"]["startLine"] == rep["deletedRegion"]["endLine"] == 2


def test_the_fix_section_of_the_json_report(pkg):
    proc = cli("check", "pkg", "--fix", "-f", "json", "-o", "r.json", cwd=str(pkg))
    assert proc.returncode == 0
    doc = json.loads((pkg / "r.json").read_text())
    assert doc["fix"]["mode"] == "fix" and doc["fix"]["fixable_before"] == 5 and doc["fix"]["findings"] == 5
    entry, = doc["fix"]["files"]
    assert entry == {"file": f"pkg/{CURVE}/r64/point.yaml", "status": "fixed", "edits": 3, "findings": 5,
                     "rules": ["point-disclosure-complete", "region-declared", "seed-set-consistency", "unknown-key",
                               "value-spelling"]}
    assert "fixed 5 problem(s) in 1 file(s)" in proc.stderr


@pytest.mark.parametrize("args, says", [
    (["--fix", "--diff"], "give one"),
    (["--diff", "-f", "text"], "--diff prints the diff on standard output"),
    (["--diff", "--write-bundle", "out"], "--diff writes nothing"),
    (["--fix", "--executor", "dask"], "drop --executor dask"),
])
def test_usage_errors(pkg, args, says):
    proc = cli("check", "pkg", *args, cwd=str(pkg))
    assert proc.returncode == 2 and says in proc.stderr, proc.stderr


def test_remote_inputs_are_not_fixed(tmp_path):
    proc = cli("check", "s3://bucket/pkg", "--fix", cwd=str(tmp_path))
    assert proc.returncode == 2 and "edit local files only" in proc.stderr
