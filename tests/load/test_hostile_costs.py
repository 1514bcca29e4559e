"""Cost linear in the input with small constants (issue 28), each bound of docs/robustness.md held on a
generated input at that bound, in a child process (CPU seconds and the child's own peak memory).

The bounds (docs/robustness.md "Memory and time"): a fixed start of about 40 MB and 0.3 s, plus per kind
- events.jsonl: at most 0.15 s per MB whatever the lines (newlines only, CRLF, two-byte junk lines);
- sample_idx_map.json: at most 1,024 phases (more: refused, never counted); 0.1 s per MB;
- --baseline: at most 5 bytes of memory per byte of the file and 0.15 s per MB;
- YAML/JSON package files: at most 2,000,000 values per unit, 500,000 of them YAML, whatever the number of
  files near the size cap (here the cap is 1 MiB: the unit's bounds do not depend on it).
The margins below are about twice the measured cost on a quiet machine; on a loaded one every CPU budget
scales by the `load_factor` measured at the start (a small check's CPU over its quiet figure).
"""
import json
import os
import shutil

import pytest

from hostile_gen import CURVE, REAL_RUNS, VALID, copy_valid, run_cli

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)

MB = 1 << 20
START_MB, QUIET_START_S = 60, 0.6  # a check of a small input on a quiet machine: interpreter, imports, policy
QUIET_CALIBRATION_S = 0.36  # the calibration check below on a quiet machine (measured: 0.36-0.37 s CPU)


@pytest.fixture(scope="module")
def load_factor(tmp_path_factory):
    """How much slower than a quiet machine this one is now: a small check's CPU over the quiet figure.

    The bounds are per MB of input on a quiet machine; under load (other processes sharing the cores and
    caches) every CPU second stretches alike, so the start and the per-MB budget scale by this factor."""
    tmp = tmp_path_factory.mktemp("calibrate")
    cpu = min(_check([_run_folder(tmp, f"r{i}")], tmp)[1] for i in range(2))
    return max(1.0, cpu / QUIET_CALIBRATION_S)


def _run_folder(tmp_path, name="run"):
    rf = str(tmp_path / name)
    shutil.copytree(os.path.join(REAL_RUNS, "var_poisson_perf"), rf)
    return rf


def _check(args, tmp_path):
    out = tmp_path / "r.json"
    rc, _o, stderr, cpu, mb = run_cli(["check", *args, "-f", "json", "-o", str(out)], timeout=120)
    assert "Traceback" not in stderr, stderr
    doc = json.loads(out.read_text())
    assert rc == doc["summary"]["exit_code"], (rc, stderr)
    print(f"cost: {cpu:.2f} s CPU, {mb:.0f} MB peak")  # shown with pytest -s
    return doc, cpu, mb


def _fails(doc, rule):
    return [f for f in doc["findings"] if f["rule_id"] == rule and f["status"] == "FAIL"]


@pytest.mark.parametrize("unit", [b"\n", b"\r\n", b"x\n"])
def test_events_log_of_blank_or_tiny_lines(tmp_path, unit, load_factor):
    """Before: 32 MB of newlines took 28 s (an exception per line); now what any log of its size takes."""
    rf = _run_folder(tmp_path)
    size = 16 * MB
    with open(os.path.join(rf, "events.jsonl"), "wb") as fh:
        fh.write(unit * (size // len(unit)))
    doc, cpu, mb = _check([rf], tmp_path)
    log = _fails(doc, "run-folder-events-log")
    assert log and ("blank" in log[0]["message"] or "malformed" in log[0]["message"]), log
    assert cpu < load_factor * (QUIET_START_S + 0.15 * size / MB), cpu
    assert mb < START_MB + 40, mb


def test_sample_map_of_millions_of_phases(tmp_path, load_factor):
    """Before: a 36 MB map of 2.6 million phases took 717 MB and 6.3 s; now it is refused at 1,025 phases."""
    rf = _run_folder(tmp_path)
    n = 1_300_000  # 18 MB: decoded by the scan
    with open(os.path.join(rf, "sample_idx_map.json"), "w") as fh:
        fh.write("{" + ",".join(f'"p{i:07d}":{{}}' for i in range(n)) + "}")
    doc, cpu, mb = _check([rf], tmp_path)
    msg = " ".join(f["message"] for f in _fails(doc, "run-folder-files"))
    assert "more than 1,024 phases" in msg, msg
    assert cpu < load_factor * (QUIET_START_S + 1) and mb < START_MB + 30, (cpu, mb)


def test_sample_map_small_file_of_many_phases_and_a_long_one(tmp_path, load_factor):
    """Under the whole-decode size, many phases still go to the scan; a long map of one phase is fine."""
    rf = _run_folder(tmp_path)
    with open(os.path.join(rf, "sample_idx_map.json"), "w") as fh:
        fh.write("{" + ",".join(f'"p{i}":{{"u":1}}' for i in range(200_000)) + "}")  # 3 MB
    doc, cpu, mb = _check([rf], tmp_path)
    assert "more than 1,024 phases" in " ".join(f["message"] for f in _fails(doc, "run-folder-files"))
    assert mb < START_MB + 30
    rf2 = _run_folder(tmp_path, "run2")
    rows = 500_000
    with open(os.path.join(rf2, "sample_idx_map.json"), "w") as fh:
        fh.write('{"performance":{' + ",".join(f'"{i:032x}":{i % 13368}' for i in range(rows)) + "}}")
    size = os.path.getsize(os.path.join(rf2, "sample_idx_map.json"))  # 20 MB: scanned in chunks
    doc, cpu, mb = _check([rf2], tmp_path)
    assert not [f for f in _fails(doc, "run-folder-files") if "phases" in f["message"]]
    assert cpu < load_factor * (QUIET_START_S + 0.1 * size / MB) and mb < START_MB + 40, (cpu, mb, size)


def test_a_large_baseline(tmp_path, load_factor):
    """Before: a 64 MiB baseline took 963 MB and 12.6 s; the bound is now 5 bytes a byte and 0.15 s a MB."""
    f = {"rule_id": "unknown-key", "status": "FAIL", "severity": "warn", "family": "parsing",
         "subject": {"submission": "s", "system": "x", "model": "m", "point": "r8", "entry": ""},
         "message": "1 unknown key(s) in point.yaml", "location": {"file": "f", "line": 1, "column": 1, "path": ["a"]}}
    items = []
    for i in range(70_000):
        f["subject"]["point"] = f"r{i}"
        f["message"] = f"finding number {i}"
        items.append(json.dumps(f, separators=(",", ":")))
    path = tmp_path / "baseline.json"
    path.write_text('{"schema_version":"1.0","findings":[' + ",".join(items) + "]}")
    size = path.stat().st_size / MB
    doc, cpu, mb = _check([VALID, "--baseline", str(path)], tmp_path)
    assert doc["baseline"]["counts"]["resolved"] == 70_000
    assert len(doc["baseline"]["resolved"]) == 1000 and doc["baseline"]["resolved_not_listed"] == 69_000
    assert mb < START_MB + 5 * size and cpu < load_factor * (QUIET_START_S + 0.15 * size), (mb, cpu, size)


@pytest.mark.parametrize("kind", ["json-strings", "yaml-numbers"])
def test_32_files_near_the_size_cap(tmp_path, kind, load_factor):
    """Before: 32 YAML files near the value cap took 17.5 s, 32 JSON lists of strings 921 MB; the unit's
    value budget bounds both, whatever the cap (1 MiB here)."""
    root = copy_valid(str(tmp_path / "sub"))
    curve = os.path.join(root, CURVE)
    points = sorted(os.listdir(curve))
    for i in range(32 - len(points)):
        shutil.copytree(os.path.join(curve, points[i % len(points)]), os.path.join(curve, f"r{5000 + i}"))
    for p in sorted(os.listdir(curve)):
        if kind == "json-strings":
            rs = os.path.join(curve, p, "result_summary.json")
            d = json.load(open(rs))
            d["padding"] = ["abcdefgh"] * 80_000  # 0.9 MiB: 80,000 values
            open(rs, "w").write(json.dumps(d, separators=(",", ":")))
        else:
            py = os.path.join(curve, p, "point.yaml")
            with open(py, "a") as fh:
                fh.write("padding: [" + ",".join(["1"] * 240_000) + "]\n")  # 0.5 MiB: 240,000 values
    doc, cpu, mb = _check([root, "--max-file-size", str(MB)], tmp_path)
    refused = _fails(doc, "file-too-large")
    assert refused and all("in all" in f["message"] for f in refused), refused[:2]
    assert cpu < load_factor * 4 and mb < START_MB + 200, (cpu, mb)
