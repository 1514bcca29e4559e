"""Every kind of file the loader reads whole, in one table: where it sits (a point, a system, a run folder), the
typed model it validates into, and how the engine and the rules treat it. ``checker.load.layout``'s file tables
are views of it. No project imports: the loader, the models and the engine read it.
"""
from __future__ import annotations

import msgspec


class FileKind(msgspec.Struct, frozen=True):
    """One kind of file the loader reads whole: where it sits, the typed model it validates into, and how the
    engine and the rules treat it. ``FILE_KINDS`` holds every kind; the other tables here are views of it."""

    #: its name in a point directory (r<N>/), in a system directory (results/<system>/)
    point: str | None = None
    system: str | None = None
    #: where the client writes it in a run folder: the first is read there; each is where a point's file of this
    #: kind may sit when a run folder is pasted into a point (``placement``)
    run_folder: tuple = ()
    #: its typed model, (module, class), imported on first use; for a kind of several shapes (system_power.json,
    #: results.json) the name is a function of the data returning the shape's model (``models.attach.model_of``)
    model: tuple | None = None
    #: the client's file: validated so that rules and reports read typed values, but no rule reports its problems
    #: as the file's own finding (each rule reading a field reports what it finds there), and a problem in it never
    #: makes a rule that needs it SKIP
    client: bool = False
    #: its loose spellings are read as their value (``models.spelling``); the kinds that never were keep theirs
    respelled: bool = True
    #: a rule needing it SKIPs (input-not-valid) while it does not validate into its model (``engine.evaluate``)
    valid_to_read: bool = False


_M = "checker.load.models."
#: every kind of file the loader reads whole, in the order a point's files are read
FILE_KINDS: dict[str, FileKind] = {
    "point_yaml": FileKind(point="point.yaml", run_folder=("point.yaml",), model=(_M + "point", "PointYaml"),
                           valid_to_read=True),
    "system_desc": FileKind(point="system_desc.json", run_folder=("system_desc.json",),
                            model=(_M + "system_desc", "SystemDesc"), valid_to_read=True),
    "result_summary": FileKind(point="result_summary.json",
                               run_folder=("performance/result_summary.json", "result_summary.json"),
                               model=(_M + "summary", "ResultSummary"), valid_to_read=True),
    "accuracy": FileKind(point="accuracy_results.json", run_folder=("accuracy/accuracy_results.json",),
                         model=(_M + "accuracy", "AccuracyResults")),
    "accuracy_legacy": FileKind(point="results.json", model=(_M + "legacy_results", "legacy_results_model"),
                                client=True),
    "config": FileKind(point="config.yaml", run_folder=("config.yaml",), model=(_M + "client_config", "ClientConfig"),
                       client=True),
    "final_snapshot": FileKind(run_folder=("metrics/final_snapshot.json",),
                               model=(_M + "final_snapshot", "FinalSnapshot"), client=True, respelled=False),
    "steady_state_json": FileKind(run_folder=("steady_state.json",), model=(_M + "detector", "DetectorOutput"),
                                  client=True, respelled=False),
    "power": FileKind(system="system_power.json", run_folder=("system_power.json",),
                      model=(_M + "power", "power_model")),
    # a flat run folder's top-level result_summary.json is the same file as performance/result_summary.json
    "flat_result_summary": FileKind(run_folder=("result_summary.json",), model=(_M + "summary", "ResultSummary"),
                                    client=True, respelled=False),
}

#: the client's files (``FileKind.client``)
CLIENT_FILES = frozenset(kind for kind, k in FILE_KINDS.items() if k.client)
