"""The Week-0 verdict from the official checker itself (issue 34): run in a child process beside our check, its
every ERROR a finding in every output, its crash, hang and memory blow-up reported as what they are, no network,
the gate --fail-on week0, and "predicted" wherever the model decided instead.

The official is ``endpoints-submission-cli`` installed in this environment (``make install`` installs the
``[week0]`` extra) or named by ENDPOINTS_CHECKER_OFFICIAL_PYTHON; without it these tests skip loudly (a
failure where ENDPOINTS_CHECKER_REQUIRE_OFFICIAL=1 or CI=true, as the conformance suite does).
"""
from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET

import pytest

from casefixtures import PLACEHOLDERS, materialise
from clirun import VALID, cli

CURVE = PLACEHOLDERS["{curve}"]
OFFICIAL = ["--week0", "official"]
#: an integer host_network_card_count: the official's schema wants a string and rejects it; our rules read the
#: loosely typed value (advice at most), so only the official reports it
INT_CARD_COUNT = [{"set": {"file": f"{CURVE}/{p}/system_desc.json", "path": ["node_types", 0, "host_network_card_count"],
                           "value": 8}} for p in ("r1", "r4", "r8", "r32", "r64", "r256", "r1024", "r13368")]


@pytest.fixture(scope="module")
def official():
    """The official checker's Spec (checker.engine.official), or a loud skip (a failure where required)."""
    from checker.engine.official import OfficialUnavailable, resolve

    try:
        return resolve("official")
    except OfficialUnavailable as exc:
        if os.environ.get("ENDPOINTS_CHECKER_REQUIRE_OFFICIAL", "") not in ("", "0") or os.environ.get("CI") == "true":
            pytest.fail(f"the official checker is required here: {exc}")
        pytest.skip(f"OFFICIAL CHECKER NOT INSTALLED: {exc} (make install installs it)")


@pytest.fixture(scope="module")
def card_count(tmp_path_factory):
    return materialise({"name": "cards", "patch": INT_CARD_COUNT}, str(tmp_path_factory.mktemp("cards")))


def _outputs(tmp_path, pkg, *extra):
    """Every output format of one check: {format: text}, and the exit code."""
    fmts = {"json": "r.json", "text": "r.txt", "sarif": "r.sarif", "markdown": "r.md", "html": "r.html",
            "junit": "r.xml", "github": "r.github"}
    args = ["check", pkg, *extra]
    for fmt, name in fmts.items():
        args += ["-f", fmt, "-o", str(tmp_path / name)]
    p = cli(*args)
    assert p.returncode in (0, 1), p.stderr
    return {fmt: (tmp_path / name).read_text(encoding="utf-8") for fmt, name in fmts.items()}, p.returncode


def test_an_error_only_the_official_reports_is_a_line_of_every_output(official, card_count, tmp_path):
    out, rc = _outputs(tmp_path, card_count, *OFFICIAL)
    assert rc == 1  # a week0-check flag fails --fail-on flag
    doc = json.loads(out["json"])
    w0 = doc["summary"]["week0"]
    assert (w0["source"], w0["version"], w0["verdict"]) == ("official", "1.5.3.0", "reject-points")
    assert w0["rules"] == ["system-description-valid"] and w0["points"] == ["H200-SXM-141GBx8_TRT/llama3_1-8b/r1"]
    fails = [f for f in doc["findings"] if f["status"] == "FAIL"]
    assert [f["rule_id"] for f in fails] == ["week0-check"]
    f = fails[0]
    assert f["week0"] is True and f["severity"] == "flag"
    assert f["subject"] == {"submission": "cards", "system": "H200-SXM-141GBx8_TRT", "model": "llama3_1-8b",
                            "point": "r1", "entry": "system-description-valid"}
    assert f["location"]["file"].endswith(f"{CURVE}/r1/system_desc.json") and f["location"]["line"]
    assert f["location"]["path"] == ["node_types", 0, "host_network_card_count"]
    assert f["extra"]["official_rule"] == "system-description-valid" and f["extra"]["source"] == "official"
    said = f["extra"]["official"]
    assert len(said) == 1 and "host_network_card_count" in said[0] and "string" in said[0]
    assert "host_network_card_count" in f["message"] and f["fix"]
    where = f"{CURVE}/r1/system_desc.json:{f['location']['line']}:{f['location']['column']}"
    # text: the problem line at file:line:col, its fix below it
    lines = out["text"].splitlines()
    i = next(i for i, ln in enumerate(lines) if " week0-check " in ln)
    assert where in lines[i] and ": flag week0-check " in lines[i] and "host_network_card_count" in lines[i]
    assert any(ln.startswith("    fix: ") for ln in lines[i + 1:i + 6])
    assert "Week-0 automated check (endpoints-submission-cli 1.5.3.0) would REJECT points" in out["text"]
    # SARIF, GitHub annotations, Markdown, HTML, JUnit: the same finding, its words and its place
    sarif = json.loads(out["sarif"])["runs"][0]
    res = [r for r in sarif["results"] if r["ruleId"] == "week0-check"]
    assert len(res) == 1 and "host_network_card_count" in res[0]["message"]["text"]
    assert res[0]["properties"]["official"] == said and res[0]["properties"]["week0"] is True
    assert sarif["properties"]["week0"]["source"] == "official"
    gh = [ln for ln in out["github"].splitlines() if ln.startswith("::warning ") and "week0-check" in ln]
    assert len(gh) == 1 and "host_network_card_count" in gh[0] and f"line={f['location']['line']}" in gh[0]
    md = out["markdown"].replace("\\", "")  # Markdown escapes the underscores
    assert "week0-check" in md and "host_network_card_count" in md and "endpoints-submission-cli 1.5.3.0" in md
    assert "week0-check" in out["html"] and "host_network_card_count" in out["html"]
    suite = ET.fromstring(out["junit"])
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["week0_source"] == "official" and props["week0_verdict"] == "reject-points"
    assert any("host_network_card_count" in (e.get("message") or "") + (e.text or "")
               for e in suite.iter() if e.tag in ("failure", "error"))


def test_the_model_alone_predicts_it_and_says_predicted(card_count, tmp_path):
    """The same package without the official: the model reads host_network_card_count through the official's
    schema table, predicts the same reject, and every output says it is a prediction."""
    out, rc = _outputs(tmp_path, card_count, "--week0", "model")
    doc = json.loads(out["json"])
    assert doc["summary"]["week0"]["source"] == "model" and rc == 1
    assert doc["summary"]["week0"]["points"] == ["H200-SXM-141GBx8_TRT/llama3_1-8b/r1"]
    assert "Week-0 automated check (predicted) would REJECT points: H200-SXM-141GBx8_TRT/llama3_1-8b/r1" in out["text"]
    assert [f["rule_id"] for f in doc["findings"] if f["status"] == "FAIL"] == ["week0-check"]
    assert "(predicted)" in out["markdown"] and "(predicted)" in out["html"]
    assert "(predicted)" in out["github"]
    props = {p.get("name"): p.get("value") for p in ET.fromstring(out["junit"]).iter("property")}
    assert props["week0_source"] == "model"
    assert json.loads(out["sarif"])["runs"][0]["properties"]["week0"]["source"] == "model"


def test_fail_on_week0_is_exactly_the_official_verdict(official, card_count):
    assert cli("check", card_count, "-q", "--fail-on", "week0", *OFFICIAL).returncode == 1
    ok = cli("check", VALID, "-q", "--fail-on", "week0", *OFFICIAL)
    assert ok.returncode == 0, ok.stdout
    assert "Week-0 automated check (endpoints-submission-cli 1.5.3.0) would accept." in ok.stdout
    # repeated and comma-separated: either trips it
    assert cli("check", card_count, "-q", "--fail-on", "reject", "--fail-on", "week0", *OFFICIAL).returncode == 1
    assert cli("check", card_count, "-q", "--fail-on", "reject,week0", *OFFICIAL).returncode == 1
    assert cli("check", card_count, "-q", "--fail-on", "reject", *OFFICIAL).returncode == 0


def test_an_error_we_also_report_is_said_once_with_the_officials_words(official, tmp_path):
    pkg = materialise({"name": "noreadme", "patch": [{"remove": "src/trtllm/README.md"}]}, str(tmp_path))
    doc = json.loads(cli("check", pkg, "-f", "json", *OFFICIAL).stdout)
    fails = [f for f in doc["findings"] if f["status"] == "FAIL"]
    readme = [f for f in fails if f["rule_id"] == "src-readme"]
    assert len(readme) == 1 and readme[0]["week0"] is True and readme[0]["extra"]["official"]
    assert not [f for f in fails if f["rule_id"] == "week0-check"]
    assert doc["summary"]["week0"]["rules"] == ["src-readme"] and doc["summary"]["week0"]["source"] == "official"
    out, _rc = _outputs(tmp_path, pkg, *OFFICIAL)
    words = readme[0]["extra"]["official"][0]
    for fmt in ("text", "markdown", "html", "junit", "github"):  # the official's words under our finding
        assert "the automated check says: " in out[fmt] and words[:30].replace("_", "") in out[fmt].replace(
            "\\", "").replace("_", ""), fmt
    res = next(r for r in json.loads(out["sarif"])["runs"][0]["results"] if r["ruleId"] == "src-readme")
    assert res["properties"]["official"] == [words]


def test_library_api_and_mcp_take_the_officials_verdict(official, card_count, monkeypatch):
    from checker import check

    model = check(card_count, week0="official", fail_on="week0")
    assert model.summary.week0.source == "official" and model.summary.exit_code == 1
    assert [f.rule_id for f in model.failed] == ["week0-check"]
    from checker.mcp.tools import check_submission

    monkeypatch.setenv("ENDPOINTS_CHECKER_WEEK0", "auto")  # a server finds the official as the CLI does
    res = check_submission([os.path.dirname(card_count)], card_count, fail_on="week0")
    assert res.week0 is not None and res.week0.source == "official" and res.verdict == "FAILED"
    assert res.fail_on == "week0" and [f.rule_id for f in res.findings] == ["week0-check"]


# --- the official's failures: crash, hang, memory ------------------------------------------------------------

def _run(pkg, **kw):
    from checker.engine.pipeline import run_check

    return run_check([pkg], week0="official", **kw)


def test_its_crash_is_a_finding_naming_the_exception(official, tmp_path):
    pkg = materialise({"name": "latin1", "patch": [{"append": {"file": f"{CURVE}/r64/point.yaml",
                                                               "bytes_hex": "2320e90a"}}]}, str(tmp_path))
    report = _run(pkg)
    assert report.week0["rules"] == ["crash"] and report.week0["verdict"] == "reject"
    w0 = [f for f in report.findings if f.rule_id == "week0-check" and f.status.value == "FAIL"]
    assert len(w0) == 1 and w0[0].subject.point == "" and w0[0].subject.entry == "crash"
    assert "crashes on this package" in w0[0].message and "UnicodeDecodeError" in w0[0].message
    assert w0[0].fix and w0[0].week0 is True


def test_its_hang_ends_at_the_time_limit(official, tmp_path):
    """A FIFO where point.yaml should be: the official blocks forever in its read; the child is killed."""
    pkg = materialise({"name": "fifo", "patch": [{"mkfifo": f"{CURVE}/r64/point.yaml"}]}, str(tmp_path))
    start = time.monotonic()
    report = _run(pkg, week0_timeout=3)
    assert time.monotonic() - start < 60
    assert report.week0["rules"] == ["timeout"]
    w0 = next(f for f in report.findings if f.rule_id == "week0-check" and f.status.value == "FAIL")
    assert "hangs on this package" in w0.message and "within 3 s" in w0.message


def test_its_memory_blow_up_ends_at_the_cap(official, tmp_path):
    """A YAML alias bomb in a typed field: the official's error message grows to gigabytes (OFFICIAL-CHECKER.md
    §6.1); under the cap it ends in MemoryError, and the next submission gets a fresh child."""
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(9)
    ) + "model_precision: *j\n"
    pkg = materialise({"name": "bomb", "patch": [{"write": {"file": f"{CURVE}/r64/point.yaml", "text": bomb}}]},
                      str(tmp_path))
    report = _run(pkg, week0_memory_mb=300, week0_timeout=120)
    assert report.week0["rules"] == ["memory"]
    w0 = next(f for f in report.findings if f.rule_id == "week0-check" and f.status.value == "FAIL")
    assert "runs out of memory" in w0.message and "MemoryError" in w0.message
    after = _run(VALID, week0_memory_mb=300)
    assert after.week0["verdict"] == "accept" and after.week0["source"] == "official"


# --- no network ---------------------------------------------------------------------------------------------

def test_the_real_official_never_asks_for_the_network(official):
    from checker.engine.official.client import OfficialChild

    child = OfficialChild(official)
    try:
        answer = child.collect(child.submit(VALID))
    finally:
        child.close()
    assert answer["errors"] == [] and answer["crash"] is None and answer["network"] == []


FAKE = '''
import socket


class SubmissionChecker:
    def __init__(self, path, seed_sets_path=None, approved_drafters_path=None):
        self.path = path

    def run(self):
        try:
            socket.getaddrinfo("pypi.org", 443)
        except PermissionError:
            pass
        s = socket.socket()
        s.settimeout(5)
        s.connect(("127.0.0.1", PORT))
        raise AssertionError("connected")
'''


def test_a_network_attempt_is_refused_and_recorded(tmp_path):
    """A stand-in official (in its own virtual environment) that looks up pypi.org and connects to a listening
    port: the child's audit hook refuses both, nothing reaches the port, and the attempt is in the report."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(0.2)
    port = server.getsockname()[1]
    accepted = []
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                continue
            accepted.append(conn)
            conn.close()

    t = threading.Thread(target=serve, daemon=True)
    t.start()
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    site = next((venv / "lib").glob("python*/site-packages"))
    (site / "submission_checker").mkdir()
    (site / "submission_checker" / "__init__.py").write_text(FAKE.replace("PORT", str(port)))
    dist = site / "endpoints_submission_cli-0.0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: endpoints-submission-cli\nVersion: 0.0.0\n")
    try:
        p = cli("check", VALID, "-f", "json", "--week0", "official", "--official-python", str(venv / "bin" / "python"))
    finally:
        stop.set()
        t.join(5)
        server.close()
    assert accepted == []
    doc = json.loads(p.stdout)
    assert doc["summary"]["week0"]["rules"] == ["crash"] and doc["summary"]["week0"]["version"] == "0.0.0"
    w0 = next(f for f in doc["findings"] if f["rule_id"] == "week0-check" and f["status"] == "FAIL")
    assert "NetworkRefused" in w0["message"] and "socket.connect" in w0["message"]


def test_an_interpreter_without_the_official_is_a_usage_error_or_the_model(tmp_path):
    bare = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True, timeout=120)
    python = str(bare / "bin" / "python")
    p = cli("check", VALID, "-q", "--week0", "official", "--official-python", python)
    assert p.returncode == 2 and "cannot run the official checker" in p.stderr
    p = cli("check", VALID, "-q", "--week0", "auto", "--official-python", python)
    assert p.returncode == 0 and "Week-0 automated check (predicted) would accept." in p.stdout
    p = cli("check", VALID, "-q", "--week0", "official", "--official-python", str(tmp_path / "nothing"))
    assert p.returncode == 2 and "no such interpreter" in p.stderr


def test_a_configured_interpreter_is_used(official):
    """ENDPOINTS_CHECKER_OFFICIAL_PYTHON names the python of another virtual environment holding the official."""
    other = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                         ".venv-official", "bin", "python")
    if not os.path.exists(other):
        pytest.skip("no .venv-official here (make official)")
    p = cli("check", VALID, "-f", "json", env={"ENDPOINTS_CHECKER_WEEK0": "auto",
                                                 "ENDPOINTS_CHECKER_OFFICIAL_PYTHON": other})
    assert json.loads(p.stdout)["summary"]["week0"]["source"] == "official"


# --- cohorts: every submission gets the official's verdict, without one child serialising them -------------

@pytest.mark.parametrize("how", [["-j", "1"], ["-j", "2"], ["--scheduler", "local:2"]], ids=["serial", "pool", "dask"])
def test_each_unit_of_a_cohort_gets_the_officials_verdict(official, tmp_path, how):
    """Each unit's worker (in-process, a local pool worker, a Dask worker) runs the official beside it."""
    import shutil

    if how[0] == "--scheduler":
        pytest.importorskip("distributed")
    root = tmp_path / "cohort"
    shutil.copytree(VALID, root / "acme" / "good")
    materialise({"name": "bad", "patch": INT_CARD_COUNT}, str(root / "globex"))
    p = cli("check", str(root), "-f", "json", *how, *OFFICIAL)
    doc = json.loads(p.stdout)
    rows = {r["label"]: r for r in doc["cohort"]["submissions"]}
    assert rows["acme/good"]["week0"]["verdict"] == "accept" and rows["acme/good"]["week0"]["source"] == "official"
    assert rows["globex/bad"]["week0"]["verdict"] == "reject-points"
    assert rows["globex/bad"]["week0"]["source"] == "official"
    assert doc["summary"]["week0"]["source"] == "official"
    w0 = [f for f in doc["findings"] if f["rule_id"] == "week0-check" and f["status"] == "FAIL"]
    assert [f["subject"]["submission"] for f in w0] == ["globex/bad"]
    assert re.search(r"\(endpoints-submission-cli 1\.5\.3\.0\) would REJECT 1 of 2",
                     cli("check", str(root), "-q", "-j", "2", *OFFICIAL).stdout)


def test_the_command_line_sends_the_submission_before_it_imports_the_engine(official, monkeypatch):
    """checker.cli.prestart starts the child and sends it the one submission root first thing; the pipeline
    collects that answer instead of sending the same request again (one request in all)."""
    from checker.cli import prestart
    from checker.engine.official import client, resolve
    from checker.engine.pipeline import run_check

    monkeypatch.setenv("ENDPOINTS_CHECKER_WEEK0", "auto")
    client.close_all()
    prestart.official(["endpoints-checker", "check", VALID, "-q"])
    child = client.child_for(resolve(None))
    assert len(child._early) == 1
    report = run_check([VALID])
    assert report.week0["source"] == "official" and report.week0["verdict"] == "accept"
    assert child._early == {} and next(child._ids) == 2  # the early ticket was the only request
    prestart.official(["endpoints-checker", "check", VALID, "--week0", "model"])  # left to check
    prestart.official(["endpoints-checker", "explain", "week0-check"])
    assert child._early == {} and next(child._ids) == 3
    client.close_all()
