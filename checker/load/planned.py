"""Client configs given before the runs (``check point-c64.yaml …``): recognised by their keys, loaded once.

A planned config is held as a run folder that has only its config.yaml, so the run-folder context
helpers (C_max, seed set, dataset size) read it unchanged; the ``preflight`` rules check what the
binding run constraints decide before anything runs (R§6, RUN-FOLDER.md §2).
"""
from __future__ import annotations

import os

import msgspec

from checker.core.findings import Subject
from checker.load.models.attach import validate_only
from checker.load.package_tree import RunFolder
from checker.load.reader import DISK, read_file

CONFIG_SUFFIXES = (".yaml", ".yml")
#: BenchmarkConfig keys (RUN-FOLDER.md §2) that, beside model_params, mark a client config
_CLIENT_KEYS = ("settings", "datasets", "endpoint_config")


class PlannedSet(msgspec.Struct):
    """The configs of one pre-flight: the curve they are meant to measure."""

    configs: list = msgspec.field(default_factory=list)  # [RunFolder] with files={"config": LoadedFile}
    display: str = "."  # the directory given, or the configs' common parent

    @property
    def subject(self) -> Subject:
        return Subject()


def is_client_config(data) -> bool:
    """A mapping with ``model_params`` and at least one of settings/datasets/endpoint_config."""
    return isinstance(data, dict) and isinstance(data.get("model_params"), dict) \
        and any(k in data for k in _CLIENT_KEYS)


def load_config(path: str, display: str, max_bytes: int, reads=None) -> RunFolder | None:
    """The config at ``path`` as a planned run, or None when the file is not a client config."""
    rf, _why = read_config(path, display, max_bytes, reads)
    return rf


def read_config(path: str, display: str, max_bytes: int, reads=None) -> tuple[RunFolder | None, str]:
    """(the planned run, "") or (None, why the file is not a client config)."""
    if not path.endswith(CONFIG_SUFFIXES):
        return None, "not a directory, and not a .yaml client config"
    abspath = os.path.abspath(path)
    lf = read_file("config", display, abspath, os.path.realpath(os.path.dirname(abspath)), max_bytes,
                   reads=reads or DISK)
    if not lf.ok:
        return None, f"not a directory, and not readable as a client config: {lf.error.message if lf.error else 'missing'}"
    if not is_client_config(lf.data):
        return None, "not a directory, and not a client config (no model_params with settings, datasets or " \
                     "endpoint_config)"
    validate_only(lf)  # typed values for the rules; a plan is read as written (no spelling walk)
    return RunFolder(name=os.path.basename(abspath), rel=display, abspath=abspath, dir_error=None, junk=[],
                                     files={"config": lf}, layout="planned", refused=[], context={}), ""


def configs_in(path: str, display: str, max_bytes: int, reads=None) -> list:
    """Client configs directly inside directory ``path`` (sorted by name); other files are ignored."""
    try:
        with os.scandir(path) as it:
            names = sorted(e.name for e in it if e.is_file(follow_symlinks=False))
    except OSError:
        return []
    out = []
    for n in names:
        cfg = load_config(os.path.join(path, n), os.path.join(display, n), max_bytes, reads)
        if cfg is not None:
            out.append(cfg)
    return out
