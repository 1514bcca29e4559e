"""``endpoints-checker schema KIND``: print one of the JSON Schemas in schemas/ (checker.lsp.schemas)."""
from __future__ import annotations


class UnknownKind(ValueError):
    """KIND names no schema: a usage error (exit 2) with a did-you-mean."""


def schema_text(kind: str) -> str:
    from checker.core.option_values import did_you_mean
    from checker.lsp.schemas import kinds, text_of

    known = kinds()
    if not known:
        raise UnknownKind("no schemas found: an installed package ships them as checker/schemas/, a source "
                          "checkout has schemas/")
    if kind not in known:
        raise UnknownKind(f"no schema {kind!r}.{did_you_mean(kind, known)} Known: {', '.join(known)}")
    return text_of(kind) or ""
