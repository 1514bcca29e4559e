"""The Week-0 verdict from the official checker itself, where it is installed (issue 34).

The official (``endpoints-submission-cli``, the Week-0 automated check) runs in a child process
(``child.py``) that imports it once and serves many submissions, each under a time limit and a memory
cap, with the network refused; ``client.py`` drives it and ``answers.py`` turns its answer into the
``checker.core.week0.Week0`` the report carries. Where it is not installed the model predicts.

Where it is found (``resolve``): the interpreter ``--official-python`` (or ``ENDPOINTS_CHECKER_OFFICIAL_PYTHON``)
names, else this interpreter when ``submission_checker`` is importable here (``pip install
'endpoints-checker[week0]'``). ``--week0 model`` never looks; ``--week0 official`` makes its absence a usage
error.
"""
from __future__ import annotations

import os
import sys

import msgspec

#: the environment variables naming the mode and the official's interpreter (the CLI options' envvars)
WEEK0_ENV = "ENDPOINTS_CHECKER_WEEK0"
OFFICIAL_PYTHON_ENV = "ENDPOINTS_CHECKER_OFFICIAL_PYTHON"
#: what pip installs for the official path (docs/usage.md)
INSTALL_HINT = "pip install 'endpoints-checker[week0]'"
#: per submission: the official's wall-time limit (s) and address-space cap (MiB); a package it takes longer
#: or more memory on is reported as the automated check failing on it (OFFICIAL-CHECKER.md §6.1: it hangs on
#: a FIFO and grows to 16 GB on a YAML alias bomb; a 20 MiB point.yaml takes it 12 s)
DEFAULT_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 1024
#: how long the child may take to import the official
IMPORT_TIMEOUT = 60.0


class OfficialUnavailable(ValueError):
    """``--week0 official`` and the official checker cannot be run here: a usage problem (exit 2)."""


class Spec(msgspec.Struct, frozen=True):
    """How to run the official: its interpreter, and the limits of one submission. ``required``: --week0
    official (an official that cannot run is then an error, never the model in its place)."""

    python: str
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    required: bool = False


def spec_for(config) -> Spec | None:
    """The official a RunConfig asks for (``resolve`` of its week0 fields), None for the model."""
    return resolve(config.week0, config.official_python, config.week0_timeout, config.week0_memory_mb)


def resolve(mode: str | None, python: str | None = None, timeout: float = DEFAULT_TIMEOUT,
            memory_mb: int = DEFAULT_MEMORY_MB) -> Spec | None:
    """The official to run for ``mode`` (auto | model | official; None: the environment variable, else auto),
    or None: the model predicts.

    ``python`` (else the environment variable) names a configured interpreter; without one, this interpreter
    when ``submission_checker`` is importable here. Whether that interpreter really holds the official is
    known once its child answers (``client.OfficialChild``)."""
    from checker.core.week0 import MODES

    mode = (mode or os.environ.get(WEEK0_ENV) or "auto").strip().lower()
    if mode not in MODES:
        raise OfficialUnavailable(f"--week0 {mode!r} is not one of {', '.join(MODES)}")
    if mode == "model":
        return None
    required = mode == "official"
    python = python or os.environ.get(OFFICIAL_PYTHON_ENV) or None
    if python:
        if os.path.isfile(python) and os.access(python, os.X_OK):
            return Spec(os.path.abspath(python), float(timeout), int(memory_mb), required)
        if mode == "official":
            raise OfficialUnavailable(f"--official-python {python}: no such interpreter (name the python of a "
                                      "virtual environment holding endpoints-submission-cli)")
        return None
    if _importable_here():
        return Spec(sys.executable, float(timeout), int(memory_mb), required)
    if mode == "official":
        raise OfficialUnavailable("--week0 official: the official checker (endpoints-submission-cli) is not "
                                  f"installed here: {INSTALL_HINT}, or name its interpreter with --official-python")
    return None


def _importable_here() -> bool:
    from importlib.util import find_spec

    try:
        return find_spec("submission_checker") is not None
    except (ImportError, ValueError):
        return False
