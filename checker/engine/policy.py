"""Versioned policy data (``rules/policy/<edition>/*.yaml``): load, validate, fail closed.

Each policy file has a pydantic model (``checker.core.models.StrictModel``) registered by the rule family that owns it
(``POLICIES`` in its ``__init__``); ``schemas/policy/<name>.schema.json`` is generated from that model
(``make schemas``) and the tests validate every bundled file against it with jsonschema. At run
time the same model validates the file, so an edited or swapped (``--policy DIR``) file that does
not fit is a ``policy-registry`` FAIL, and every rule that needs it SKIPs: never a silent pass.
"""
from __future__ import annotations

import os
from functools import lru_cache, partial

from checker.core.policy import DEFAULT_EDITION, Policy, PolicyProblem, PolicyUnavailable  # noqa: F401
from checker.engine.catalogue import family_table, policy_root
from checker.load.reader import DISK, read_file


def default_policy_dir() -> str:
    return os.path.join(policy_root(), DEFAULT_EDITION)


def load_policy(directory: str | None = None, overrides: dict[str, str] | None = None, reads=None) -> Policy:
    """Index every ``*.yaml`` in the policy directory (``overrides`` maps a name to a replacement file);
    ``index.yaml`` is read now, every other file the first time a rule asks for it (through ``reads``, the
    check's parse cache: ``checker.load.reader.Reads``)."""
    cat = family_table()  # which family owns which file: no rule module is imported here
    directory = directory or default_policy_dir()
    pol = Policy(directory=directory, edition=os.path.basename(os.path.normpath(directory)),
                 reporters=dict(cat.policy_reporters))
    files: dict[str, str] = {}
    try:
        for fn in sorted(os.listdir(directory)):
            if fn.endswith(".yaml"):
                files[fn[: -len(".yaml")]] = os.path.join(directory, fn)
    except OSError as exc:
        pol.problems["index"] = PolicyProblem(directory, f"policy directory cannot be read: {exc.strerror or exc}")
        return pol
    for name, path in (overrides or {}).items():
        files[name] = path
        pol.overrides[name] = path
    for name in cat.policy_models:
        files.setdefault(name, os.path.join(directory, f"{name}.yaml"))
    for name, path in sorted(files.items()):
        if name == "index":  # the edition and version every report names: read now
            _load_file(pol, cat, name, path, reads)
        else:  # the rest when a rule first asks (Policy.get / available / problem / load_all)
            pol.pending[name] = partial(_load_file, pol, cat, name, path, reads)
    return pol


@lru_cache(maxsize=None)
def _validator(name: str):
    """What completes a read policy file ``name``: its model and problems in ``lf.model``/``lf.field_errors``.
    One function per name, so a long-lived process's parse cache (``checker.load.parse_cache``) keeps the
    validated file with its bytes and an unchanged file is not validated again."""
    def validate(lf) -> None:
        from checker.load.models.lenient import validate_lenient

        model_cls = family_table().policy_model(name)
        if lf.ok and name != "index" and model_cls is not None:
            lf.model, lf.field_errors = validate_lenient(model_cls, lf.data, tries=1)
    return validate


def _load_file(pol: Policy, cat, name: str, path: str, reads=None) -> None:
    """Read and validate one policy file into ``pol.data``, or record why it cannot be used."""
    # an override is the user's own file: a symlink to it anywhere is fine
    root = "/" if name in pol.overrides else (os.path.realpath(os.path.dirname(path)) or "/")
    lf = read_file("policy", path, path, root, 1 << 22, post=_validator(name), reads=reads or DISK)
    if not lf.exists:
        pol.problems[name] = PolicyProblem(path, "file not found")
        return
    if lf.error is not None:
        pol.problems[name] = PolicyProblem(path, lf.error.message, lf.error.line, lf.error.column)
        return
    if name == "index":
        if isinstance(lf.data, dict):
            pol.version = str(lf.data.get("version", "unknown"))
            pol.edition = str(lf.data.get("edition", pol.edition))
            pol.provenance = {k: lf.data[k] for k in ("taken_from", "registries") if isinstance(lf.data.get(k), dict)}
        return
    model_cls = cat.policy_model(name)
    if model_cls is None:
        pol.problems[name] = PolicyProblem(path, "no schema is registered for this policy file")
        return
    model, problems = lf.model, lf.field_errors
    if model is None or problems:
        first = problems[0] if problems else None
        line, col = lf.position(first.path) if first else (None, None)
        msg = "; ".join(p.message for p in problems[:3]) or "invalid"
        pol.problems[name] = PolicyProblem(path, f"does not match its schema: {msg}", line, col)
        return
    pol.data[name] = model
