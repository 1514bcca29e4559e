"""Run-folder rules end to end on the real run folders (RUN-FOLDER.md §6), the CLI context and parallelism."""
import io
import json
import os
import shutil

import pytest
from click.testing import CliRunner

from casefixtures import REAL_RUNS, make_writable
from checker.engine.pipeline import run_check
from checker.cli.main import main
from checker.engine.pool import Progress, run_parallel

RUNS = ("echo_accuracy_only", "var_concurrency_allchunks", "var_poisson_perf")


def _statuses(report, name):
    return {f.rule_id: f.status.value for f in report.findings
            if f.subject.point == name and f.family == "run-folder"}


def _copy(name, tmp_path):
    dest = os.path.join(str(tmp_path), name)
    shutil.copytree(os.path.join(REAL_RUNS, name), dest)
    make_writable(dest)
    return dest


@pytest.fixture(scope="module")
def real_report():
    return run_check([os.path.join(REAL_RUNS, n) for n in RUNS], jobs=1)


def test_concurrency_run_fails_what_run_folder_md_predicts(real_report):
    st = _statuses(real_report, "var_concurrency_allchunks")
    fails = sorted(k for k, v in st.items() if v == "FAIL")
    # 20 s run (duration), 8 in-flight requests dropped by the max_duration cap (complete), 650 of a 1k dataset
    assert fails == ["run-folder-complete", "run-folder-duration", "run-folder-sample-count"]
    for rid in ("run-folder-events-counts", "run-folder-events-duration", "run-folder-events-latency",
                "run-folder-events-log", "run-folder-events-chunks", "run-folder-snapshot-agreement",
                "run-folder-streaming", "run-folder-load-pattern", "run-folder-files", "run-folder-config"):
        assert st[rid] == "PASS", rid
    assert st["run-folder-concurrency-target"] == "SKIP" and st["run-folder-seeds"] == "SKIP"


def test_poisson_run_fails_pattern_and_duration(real_report):
    st = _statuses(real_report, "var_poisson_perf")
    assert sorted(k for k, v in st.items() if v == "FAIL") == ["run-folder-duration", "run-folder-load-pattern"]
    assert st["run-folder-events-warmup"] == "PASS"  # warmup from the perf prompts, but salted
    assert st["run-folder-warmup"] == "PASS"
    msg = next(f.message for f in real_report.findings
               if f.rule_id == "run-folder-duration" and f.subject.point == "var_poisson_perf")
    assert "30.9 s < 600 s" in msg and "whole tracked run" in msg


def test_accuracy_only_run_is_recognised_and_refused_as_runs_create_refuses_it(real_report):
    st = _statuses(real_report, "echo_accuracy_only")
    # checked on its own (not assembled), the folder gets `runs create`'s requirements: duration_ns null refuses it
    assert [k for k, v in st.items() if v == "FAIL"] == ["run-folder-files"]
    files = next(f for f in real_report.findings
                 if f.rule_id == "run-folder-files" and f.subject.point == "echo_accuracy_only")
    assert files.severity.value == "reject" and "duration_ns is None" in files.message
    assert "--mode both" in files.fix
    rec = next(f for f in real_report.findings
               if f.rule_id == "run-folder-recognised" and f.subject.point == "echo_accuracy_only")
    assert "accuracy-only run" in rec.message
    assert st["run-folder-accuracy"] == "PASS" and st["run-folder-complete"] == "PASS"
    assert st["run-folder-duration"] == "SKIP" and st["run-folder-events-counts"] == "SKIP"


def test_every_skip_names_its_reason(real_report):
    for f in real_report.findings:
        if f.family == "run-folder" and f.status.value == "SKIP":
            assert f.reason and f.message


def test_context_skips_name_the_flag(real_report):
    msgs = {f.rule_id: f.message for f in real_report.findings if f.subject.point == "var_concurrency_allchunks"}
    assert "--point" in msgs["run-folder-concurrency-target"]
    assert "--seed-set" in msgs["run-folder-seeds"]


@pytest.mark.slow
def test_parallel_output_identical_to_serial():
    paths = [os.path.join(REAL_RUNS, n) for n in RUNS]
    serial = run_check(paths, jobs=1).to_dict()
    parallel = run_check(paths, jobs=3).to_dict()
    for d in (serial, parallel):
        d.pop("generated_at")
    assert serial == parallel


def test_run_parallel_keeps_order_and_falls_back():
    assert run_parallel(abs, [-3, 2, -1, 0], jobs=2) == [3, 2, 1, 0]
    assert run_parallel(abs, [], jobs=4) == []
    assert run_parallel(abs, [-5], jobs=4) == [5]


def test_progress_bar_only_on_a_tty():
    quiet = io.StringIO()
    bar = Progress(3, "x", stream=quiet)
    bar.step()
    bar.close()
    assert quiet.getvalue() == ""

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = Progress(2, "auditing", stream=tty)
    bar.step()
    assert "auditing [" in tty.getvalue() and "1/2" in tty.getvalue()


def test_secret_value_never_printed(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "config.yaml")
    with open(p, encoding="utf-8") as fh:
        text = fh.read()
    secret = "sk-live-SECRET-0123456789"
    text = text.replace("  api_type: openai", f"  api_type: openai\n  api_key: {secret}\n"
                        f"  auth_url: https://user:{secret}@example.com/v1")
    with open(p, "w", encoding="utf-8") as fh:
        fh.write(text)
    res = CliRunner().invoke(main, ["check", d, "-f", "json", "--select", "run-folder-config"])
    out = res.output
    assert secret not in out
    finding = next(f for f in json.loads(out)["findings"] if f["rule_id"] == "run-folder-config")
    assert finding["status"] == "FAIL" and "endpoint_config.api_key" in finding["message"]
    text_out = CliRunner().invoke(main, ["check", d, "--select", "run-folder-config"]).output
    assert secret not in text_out


def test_cli_context_options(tmp_path):
    d = os.path.join(REAL_RUNS, "var_concurrency_allchunks")
    point = tmp_path / "point.yaml"
    point.write_text("concurrency: 8\nseed_set: A\n")
    res = CliRunner().invoke(main, ["check", d, "-f", "json", "--point", str(point), "--dataset-size", "325",
                                    "--max-concurrency", "1024", "-j", "2"])
    st = {f["rule_id"]: f for f in json.loads(res.output)["findings"]}
    assert st["run-folder-concurrency-target"]["status"] == "PASS"
    assert st["run-folder-seeds"]["status"] == "FAIL" and "point.yaml seed_set" in st["run-folder-seeds"]["message"]
    assert st["run-folder-sample-count"]["status"] == "PASS"  # 650 = 2 x 325
    assert "ultra_low (concurrency 8 <= 32)" in st["run-folder-duration"]["message"]


def test_point_option_window_never_outlasts_the_run(tmp_path):
    """--point with a 700 s steady-state window cannot make a 20 s tracked run pass: a contradiction FAIL."""
    d = os.path.join(REAL_RUNS, "var_concurrency_allchunks")
    point = tmp_path / "point.yaml"
    point.write_text("concurrency: 8\nsteady_state: {status: windowable, window: {duration_s: 700}}\n")
    res = CliRunner().invoke(main, ["check", d, "-f", "json", "--point", str(point), "--select", "run-folder-duration"])
    f = next(x for x in json.loads(res.output)["findings"] if x["rule_id"] == "run-folder-duration")
    assert f["status"] == "FAIL" and f["severity"] == "flag"
    assert "longer than this run's own tracked duration 20.0 s" in f["message"]


def test_region_named_above_32(tmp_path):
    d = _copy("var_concurrency_allchunks", tmp_path)
    for rel in ("config.yaml",):
        p = os.path.join(d, rel)
        with open(p, encoding="utf-8") as fh:
            text = fh.read().replace("target_concurrency: 8", "target_concurrency: 64")
        with open(p, "w", encoding="utf-8") as fh:
            fh.write(text)
    msg = lambda r: next(f.message for f in r.findings if f.rule_id == "run-folder-duration")  # noqa: E731
    assert "1200 s minimum for med_concurrency of C_max 1024, C_min assumed 1" in msg(
        run_check([d], options={"max_concurrency": 1024}))
    assert "give --max-concurrency to name the region" in msg(run_check([d]))


def test_no_events_skips_the_audit():
    d = os.path.join(REAL_RUNS, "var_concurrency_allchunks")
    res = CliRunner().invoke(main, ["check", d, "-f", "json", "--no-events"])
    st = {f["rule_id"]: f for f in json.loads(res.output)["findings"]}
    for rid, f in st.items():
        if rid.startswith("run-folder-events-"):
            assert f["status"] == "SKIP" and "--no-events" in f["message"], rid


def test_missing_events_log_is_a_finding(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    os.unlink(os.path.join(d, "events.jsonl"))
    st = _statuses(run_check([d]), "var_poisson_perf")
    assert st["run-folder-files"] == "FAIL" and st["run-folder-events-log"] == "SKIP"


def test_wrong_types_become_findings(tmp_path):
    d = _copy("var_poisson_perf", tmp_path)
    p = os.path.join(d, "performance", "result_summary.json")
    with open(p, encoding="utf-8") as fh:
        s = json.load(fh)
    s.update(n_samples_issued="many", duration_ns=float("nan"), complete="yes", ttft=[1, 2])
    with open(p, "w", encoding="utf-8") as fh:
        json.dump(s, fh)
    report = run_check([d])
    for f in report.findings:
        assert "internal error" not in f.message, (f.rule_id, f.message)


def test_run_parallel_falls_back_in_process_when_pickling_fails():
    offset = 10
    assert run_parallel(lambda x: x + offset, [1, 2, 3], jobs=2, progress=False) == [11, 12, 13]


HOSTILE = [
    ("config.yaml", "settings: []\nmodel_params: x\ndatasets: y\nendpoint_config: {endpoints: [5]}\n"),
    ("config.yaml", "settings: {load_pattern: {type: 5, target_concurrency: '8'}, runtime: {scheduler_random_seed: x},"
                    " client: {stream_all_chunks: yes}, warmup: {enabled: 1}}\nmodel_params: {streaming: 1}\n"
                    "datasets: [{type: accuracy, accuracy_config: 3}, 7]\n"),
    ("config.yaml", "- a\n- b\n"),
    ("point.yaml", "concurrency: '8'\noffline: [1]\nseed_set: 5\nsteady_state: {window: {duration_s: nan}}\n"),
    ("point.yaml", "[1, 2]\n"),
    ("metrics/final_snapshot.json", '{"metrics": {"a": 1}, "state": 5, "n_pending_tasks": "x"}'),
    ("metrics/final_snapshot.json", '{"metrics": [1, {"type": "counter"}, {"type": "counter", "name": [1]}]}'),
    ("accuracy/accuracy_results.json", '{"accuracy_scores": [1, {"dataset_type": "accuracy", "response_counts": [1],'
                                       ' "unit_samples": "x", "complete": true}]}'),
    ("accuracy/accuracy_results.json", '[]'),
    ("performance/result_summary.json", '{"run_config": [], "n_samples_issued": true, "finish_reason_counts": [1],'
                                        ' "latency": {"percentiles": [1]}, "ttft": {"percentiles": {"90.0": "x"}}}'),
    ("sample_idx_map.json", '{"performance": {"a": 1.5}}'),
    ("events.jsonl", '{"event_type": "sample.issued", "timestamp_ns": 1, "sample_uuid": 5}\n[1,2]\n"x"\n'),
]


@pytest.mark.parametrize("rel,text", HOSTILE, ids=[f"{r}-{i}" for i, (r, _) in enumerate(HOSTILE)])
def test_hostile_values_never_crash(tmp_path, rel, text):
    for base in ("var_poisson_perf", "echo_accuracy_only"):
        d = _copy(base, tmp_path / rel.replace("/", "_"))
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)
        report = run_check([d], options={"seed_set": "A", "dataset_size": 100, "max_concurrency": 64})
        bad = [(f.rule_id, f.message) for f in report.findings if "internal error" in f.message]
        assert not bad
