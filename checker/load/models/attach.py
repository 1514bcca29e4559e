"""Validate a loaded file into its kind's typed model, after reading loose spellings as their value."""
from __future__ import annotations

from checker.load.models.kinds import FILE_MODELS
from checker.load.models.lenient import validate_lenient


def attach_model(lf) -> None:
    """Validate a loaded file into its kind's typed model (when the kind has one), keeping the problems.

    Unambiguous non-plain spellings (``64.0`` for a count, YAML 1.1 ``yes``) are first read as the
    value they spell and noted in ``lf.spellings`` (``checker.load.models.spelling``)."""
    if not lf.ok:
        return
    from checker.load.models.spelling import normalise

    if lf.kind not in FILE_MODELS:
        normalise(lf)
        return
    import importlib

    mod, cls = FILE_MODELS[lf.kind]
    model_cls = getattr(importlib.import_module(mod), cls)
    if not isinstance(model_cls, type):  # a kind of several shapes names a chooser (checker.load.models.power)
        model_cls = model_cls(lf.data)
    normalise(lf, model_cls)
    lf.model, lf.field_errors = validate_lenient(model_cls, lf.data)
