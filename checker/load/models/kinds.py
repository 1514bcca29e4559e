"""Which typed model each file kind validates into: (module, class), imported on first use; for a kind of
several shapes (system_power.json, results.json) the name is a function of the data returning the shape's
model. Every kind of ``checker.load.layout``'s file tables has an entry (tests/load/test_file_models.py)."""
from __future__ import annotations

#: typed model per file kind: (module, class or model chooser)
FILE_MODELS = {
    "accuracy": ("checker.load.models.accuracy", "AccuracyResults"),
    "point_yaml": ("checker.load.models.point", "PointYaml"),
    "result_summary": ("checker.load.models.summary", "ResultSummary"),
    "system_desc": ("checker.load.models.system_desc", "SystemDesc"),
    "power": ("checker.load.models.power", "power_model"),
    "config": ("checker.load.models.client_config", "ClientConfig"),
    "final_snapshot": ("checker.load.models.final_snapshot", "FinalSnapshot"),
    "steady_state_json": ("checker.load.models.detector", "DetectorOutput"),
    "accuracy_legacy": ("checker.load.models.legacy_results", "legacy_results_model"),
    # a flat run folder's top-level result_summary.json is the same file as performance/result_summary.json
    "flat_result_summary": ("checker.load.models.summary", "ResultSummary"),
}

#: the client's files, validated so that rules and reports can read typed values, whose problems no rule
#: reports as the file's own finding (each rule reading a field reports what it finds there, as before the
#: files were modelled) and whose loose spellings are read as before (``checker.load.models.spelling``:
#: config.yaml at the keys its model names in ``__respelled__``, results.json as accuracy entries, the
#: others not at all); a problem in them never makes a rule that needs the file SKIP (``checker.engine.evaluate``)
CLIENT_FILES = frozenset({"config", "final_snapshot", "accuracy_legacy", "flat_result_summary", "steady_state_json"})
#: the kinds whose loose spellings are not read as values (they never were): their values stay as written
NOT_RESPELLED = frozenset({"final_snapshot", "flat_result_summary", "steady_state_json"})

#: files the loader reads or accounts for without a model, and why: the run-folder entries not loaded whole
#: (``layout.UNREAD_ENTRIES``) and a submission's cli_metadata.json
NOT_MODELLED = {
    "cli_metadata.json": "the official tool's record of the bundle it built, carried as written: no rule reads a "
                         "key of it (cli-metadata-valid only checks that it is a JSON object)",
    "events.jsonl": "streamed line by line and accounted for by the events audit (checker.load.events_lines)",
    "sample_idx_map.json": "grows with the samples: streamed into the sample map (checker.load.sample_map)",
    "report.txt": "the client's text report for people; only its presence is recorded (run-folder-files)",
    "run_meta.json": "the run's metadata later clients write beside steady_state.json: only its presence is "
                     "recorded (run-folder-recognised names it); no rule reads a key of it",
}
