"""Every file kind the loader reads has a typed model (issue 24 item 1), the client's files included:
config.yaml, metrics/final_snapshot.json, a point's results.json and a flat run folder's result_summary.json.

Real run folders (fixtures/real-runs, written by the reference client) and the generated ones
(fixtures/runs) validate without a problem; a wrong type is a problem located by its data path and line;
the client's files keep the loose-spelling walk they had before they were modelled.
"""
from __future__ import annotations

import glob
import json
import os

import pytest

from conftest import REPO

from checker.load import layout
from checker.load.models.attach import attach_model, model_of
from checker.load.file_kinds import CLIENT_FILES, FILE_KINDS
from checker.load.layout import NOT_MODELLED
from checker.load.reader import read_file
from treepaths import tree_paths

FIXTURES = os.path.join(REPO, "fixtures")
RUN_FOLDERS = sorted(glob.glob(os.path.join(FIXTURES, "real-runs", "*")) + glob.glob(os.path.join(FIXTURES, "runs", "*")))


FILE_MODELS = {kind for kind, k in FILE_KINDS.items() if k.model is not None}


def _layout_kinds() -> set[str]:
    return set(layout.POINT_FILES.values()) | set(layout.RUN_FOLDER_FILES.values()) | set(layout.RUN_FOLDER_SOURCES)


def test_every_kind_the_loader_reads_has_a_model():
    missing = sorted(_layout_kinds() - FILE_MODELS)
    assert not missing, f"file kinds in checker/load/layout.py without a model in layout.FILE_KINDS: {missing}"


def test_the_file_tables_are_views_of_the_one_kind_table():
    """Every kind that sits in a run folder is read there, and every point file of a run folder is a source."""
    assert set(layout.RUN_FOLDER_FILES.values()) == {k for k, fk in FILE_KINDS.items() if fk.run_folder}
    assert set(layout.RUN_FOLDER_SOURCES) == {k for k, fk in FILE_KINDS.items() if fk.run_folder and fk.point}


def test_every_file_the_loader_reads_has_a_model_or_says_why_not():
    """Each name the loader reads whole or accounts for: its kind has a model, or NOT_MODELLED says why not."""
    kind_of = {name.rsplit("/", 1)[-1]: kind for table in (layout.POINT_FILES, layout.RUN_FOLDER_FILES)
               for name, kind in table.items()} | {k.system: kind for kind, k in FILE_KINDS.items() if k.system}
    names = set(layout.loader_names()) | set(layout.UNREAD_ENTRIES)
    unexplained = sorted(n for n in names if kind_of.get(n) not in FILE_MODELS and n not in NOT_MODELLED)
    assert not unexplained, f"files the loader reads with neither a model nor a reason in layout.NOT_MODELLED: {unexplained}"
    stale = sorted(n for n in NOT_MODELLED if n not in names or kind_of.get(n) in FILE_MODELS)
    assert not stale, f"layout.NOT_MODELLED lists files that are modelled or no longer read: {stale}"
    assert all(len(why) > 20 for why in NOT_MODELLED.values())
    assert CLIENT_FILES <= FILE_MODELS


def _load(kind: str, path: str):
    return read_file(kind, os.path.relpath(path, REPO), path, os.path.realpath(os.path.dirname(path)), post=attach_model)


def _write(tmp_path, name: str, text: str) -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


@pytest.mark.parametrize("folder", RUN_FOLDERS, ids=lambda p: os.path.relpath(p, FIXTURES))
def test_the_files_of_real_run_folders_validate(folder):
    seen = 0
    for rel, kind in layout.RUN_FOLDER_FILES.items():
        path = os.path.join(folder, rel)
        if not os.path.isfile(path):
            continue
        lf = _load(kind, path)
        assert lf.ok, (rel, lf.error)
        assert lf.model is not None and not lf.field_errors, (rel, [p.message for p in lf.field_errors])
        seen += 1
    assert seen >= 3


def test_real_config_reads_typed_values_and_keeps_the_clients_other_keys():
    lf = _load("config", os.path.join(FIXTURES, "real-runs", "var_concurrency_allchunks", "config.yaml"))
    cfg = lf.model
    assert cfg.settings.load_pattern.type == "concurrency" and cfg.settings.load_pattern.target_concurrency == 8
    assert cfg.settings.runtime.scheduler_random_seed == 42 and cfg.model_params.streaming == "on"
    assert cfg.datasets[0].type == "performance"
    assert cfg.settings.client.model_extra["transport"]["type"] == "zmq"  # kept, not refused
    assert "verbose" in cfg.model_extra


def test_real_final_snapshot_counters():
    lf = _load("final_snapshot", os.path.join(FIXTURES, "real-runs", "var_concurrency_allchunks", "metrics",
                                              "final_snapshot.json"))
    counters = lf.model.counters()
    assert counters["total_samples_issued"] == 650 and lf.model.state == "complete"
    raw = {m["name"]: m["value"] for m in lf.data["metrics"] if m["type"] == "counter"}
    assert counters == raw


def test_a_wrong_type_in_config_is_located(tmp_path):
    path = _write(tmp_path, "config.yaml", "model_params:\n  name: m\nsettings:\n  load_pattern:\n"
                                           "    type: concurrency\n    target_concurrency: eight\n"
                                           "  client:\n    stream_all_chunks: maybe\n")
    lf = _load("config", path)
    assert lf.model is not None  # the bad values are dropped, the rest is read
    assert lf.model.settings.load_pattern.type == "concurrency"
    got = {p.path: p for p in lf.field_errors}
    assert set(got) == {("settings", "load_pattern", "target_concurrency"), ("settings", "client", "stream_all_chunks")}
    p = got[("settings", "load_pattern", "target_concurrency")]
    assert p.observed == "eight" and p.type == "int_type"
    assert lf.position(p.path) == (6, 25)
    assert lf.data["settings"]["load_pattern"]["target_concurrency"] == "eight"  # the rules still see what is written


def test_a_wrong_type_in_final_snapshot_is_located(tmp_path):
    doc = {"state": "complete", "n_pending_tasks": "0",
           "metrics": [{"type": "counter", "name": "tracked_samples_issued", "value": 10},
                       {"type": "counter", "name": "tracked_duration_ns", "value": "12"}, 7]}
    lf = _load("final_snapshot", _write(tmp_path, "final_snapshot.json", json.dumps(doc, indent=1)))
    paths = {p.path for p in lf.field_errors}
    assert paths == {("n_pending_tasks",), ("metrics", 1, "value"), ("metrics", 2)}
    assert lf.model.counters() == {"tracked_samples_issued": 10, "tracked_duration_ns": None}


def test_results_json_is_accuracy_results_only_when_it_carries_scores(tmp_path):
    from checker.load.models.accuracy import AccuracyResults
    from checker.load.models.legacy_results import OtherResults

    assert model_of("accuracy_legacy", {"accuracy_scores": []}) is AccuracyResults
    assert model_of("accuracy_legacy", {"results": {"x": 1}}) is OtherResults
    lf = _load("accuracy_legacy", _write(tmp_path, "results.json", json.dumps(
        {"accuracy_scores": [{"dataset_name": "d", "score": 1.0, "unit_samples": "ten"}]})))
    assert [p.path for p in lf.field_errors] == [("accuracy_scores", 0, "unit_samples")]
    (tmp_path / "other").mkdir()
    other = _load("accuracy_legacy", _write(tmp_path / "other", "results.json", '{"anything": [1]}'))
    assert isinstance(other.model, OtherResults) and not other.field_errors


def test_flat_result_summary_is_a_result_summary(tmp_path):
    from checker.load.models.summary import ResultSummary

    lf = _load("flat_result_summary", _write(tmp_path, "result_summary.json", json.dumps(
        {"n_samples_issued": 5, "duration_ns": 1.5e9, "state": "complete"})))
    assert isinstance(lf.model, ResultSummary) and lf.model.n_samples_issued == 5
    # the flat file keeps the spelling walk it had (none): no value-spelling note, the float is a problem
    assert not lf.spellings and [p.path for p in lf.field_errors] == [("duration_ns",)]


def test_config_spellings_are_read_as_before_the_model(tmp_path):
    """Only the keys read as numbers or booleans before (the models' __respelled__) are respelled: a quoted
    temperature (a number in ClientConfig) stays a string and is a problem, not a value-spelling note."""
    path = _write(tmp_path, "config.yaml", "model_params:\n  temperature: '0.0'\n  max_new_tokens: 128.0\n"
                                           "settings:\n  warmup:\n    warmup_random_seed: 7.0\n")
    lf = _load("config", path)
    assert [s.path for s in lf.spellings] == [("model_params", "max_new_tokens")]
    assert {p.path for p in lf.field_errors} == {("model_params", "temperature"),
                                                  ("settings", "warmup", "warmup_random_seed")}


def test_a_planned_config_is_validated_as_written(tmp_path):
    from checker.load.planned import read_config

    path = _write(tmp_path, "plan.yaml", "model_params:\n  name: m\n  max_new_tokens: 128.0\n"
                                         "settings:\n  load_pattern:\n    target_concurrency: 4\n")
    rf, why = read_config(path, "plan.yaml", 1 << 20)
    lf = rf.files["config"]
    assert not lf.spellings and lf.data["model_params"]["max_new_tokens"] == 128.0
    assert lf.model.settings.load_pattern.target_concurrency == 4
    assert [p.path for p in lf.field_errors] == [("model_params", "max_new_tokens")]


@pytest.mark.parametrize("kind,rel", [("config", "config.yaml"), ("final_snapshot", "metrics/final_snapshot.json")])
@pytest.mark.slow
def test_one_wrong_value_anywhere_never_costs_the_model(kind, rel):
    """Whatever single value of a real file is replaced by a wrong-typed one, the file still has a model (the
    value is dropped and named), so the rules reading the other fields read them typed."""
    from checker.load.models.lenient import validate_lenient

    src = os.path.join(FIXTURES, "real-runs", "var_concurrency_allchunks", rel)
    data = _load(kind, src).data
    cls = model_of(kind, data)

    def replaced(node, path, wrong):
        """``node`` with the value at ``path`` replaced: the containers on the path copied, the rest shared
        (validation reads its input only; a deep copy of the whole file each time cost most of the test)."""
        if not path:
            return wrong
        head, rest = path[0], path[1:]
        out = list(node) if isinstance(node, list) else dict(node)
        out[head] = replaced(node[head], rest, wrong)
        return out

    for path in list(tree_paths(data))[1:]:
        for wrong in ("x", 5, [5], {"k": 5}):
            bad = replaced(data, tuple(path), wrong)
            model, _problems = validate_lenient(cls, bad)
            assert model is not None, (path, wrong, [p.message for p in _problems])
    assert data == _load(kind, src).data  # nothing shared was changed by validation


def test_typed_config_reads_match_the_data_as_written():
    """The typed helpers the rules read agree with the data wherever it has the client's types."""
    from checker.load.models.client_config import config_load_pattern, config_model_name, config_warmup

    for folder in RUN_FOLDERS:
        lf = _load("config", os.path.join(folder, "config.yaml"))
        lp, w = config_load_pattern(lf), config_warmup(lf)
        raw_lp = lf.get("settings", "load_pattern") or {}
        raw_w = lf.get("settings", "warmup") or {}
        assert (lp.type, lp.target_concurrency) == (raw_lp.get("type"), raw_lp.get("target_concurrency")), folder
        assert (w.enabled, w.salt) == (raw_w.get("enabled"), raw_w.get("salt")), folder
        assert config_model_name(lf) == lf.get("model_params", "name"), folder
    assert config_warmup(None) is None and config_load_pattern(None) is None and config_model_name(None) is None
