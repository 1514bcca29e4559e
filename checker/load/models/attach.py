"""Validate a loaded file into its kind's typed model, after reading loose spellings as their value."""
from __future__ import annotations

from checker.load.file_kinds import FILE_KINDS
from checker.load.models.lenient import validate_lenient


def model_of(kind: str, data) -> type | None:
    """The model a file of ``kind`` holding ``data`` validates into, or None for a kind without one."""
    fk = FILE_KINDS.get(kind)
    spec = fk.model if fk is not None else None
    if spec is None:
        return None
    import importlib

    mod, cls = spec
    model_cls = getattr(importlib.import_module(mod), cls)
    if not isinstance(model_cls, type):  # a kind of several shapes names a chooser (checker.load.models.power)
        model_cls = model_cls(data)
    return model_cls


def attach_model(lf) -> None:
    """Validate a loaded file into its kind's typed model (when the kind has one), keeping the problems.

    Unambiguous non-plain spellings (``64.0`` for a count, YAML 1.1 ``yes``) are first read as the
    value they spell and noted in ``lf.spellings`` (``checker.load.models.spelling``), except in the kinds
    whose spellings were never read so (``file_kinds.FileKind.respelled``)."""
    if not lf.ok:
        return
    from checker.load.models.spelling import normalise

    model_cls = model_of(lf.kind, lf.data)
    fk = FILE_KINDS.get(lf.kind)
    normalise(lf, model_cls if fk is None or fk.respelled else None)
    if model_cls is not None:
        lf.model, lf.field_errors = validate_lenient(model_cls, lf.data)


def validate_only(lf) -> None:
    """Attach the model without reading spellings (a planned client config, read as the user wrote it)."""
    model_cls = model_of(lf.kind, lf.data) if lf.ok else None
    if model_cls is not None:
        lf.model, lf.field_errors = validate_lenient(model_cls, lf.data)
