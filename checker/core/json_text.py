"""JSON text exactly as ``json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)`` writes it,
encoded by msgspec (checker.render.json_report says how the two are kept byte-identical).

It lives in core because two layers encode findings: the JSON report (render) and the cohort worker
that encodes its unit's findings where they were found (engine), and the engine never imports a renderer.
"""
from __future__ import annotations

import re

import msgspec

_ENCODE = msgspec.json.Encoder().encode
_FORMAT = msgspec.json.format
#: a float token in msgspec's indented output: a whole line's value (a list item, or after a key),
#: ending its line. A JSON string never holds a raw newline, so such a token is never inside one.
_FLOAT = re.compile(rb'(\A|\n *|": )(-?[0-9]+(?:\.[0-9]+(?:[eE][-+]?[0-9]+)?|[eE][-+]?[0-9]+))(?=,?\n|\Z)')


def _py_float(m: re.Match) -> bytes:
    return m.group(1) + float.__repr__(float(m.group(2))).encode("ascii")


def encode_indented(v, ind: str = "") -> str:
    """``json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)``, same text and same errors,
    with every line after the first indented by ``ind``."""
    odd: list[str] = []

    def seen_float(token: str) -> float:
        x = float(token)
        if float.__repr__(x) != token:
            odd.append(token)
        return x

    try:
        raw = _ENCODE(v)
        same = msgspec.json.Decoder(float_hook=seen_float).decode(raw) == v
    except (TypeError, ValueError, UnicodeError, OverflowError, msgspec.MsgspecError, RecursionError):
        same = False
    if not same:
        import json

        text = json.dumps(v, indent=2, ensure_ascii=False, allow_nan=False)
    else:
        out = _FORMAT(raw, indent=2)
        if odd:  # rare (a float from 1e16 up or below 1e-4): the slower rewrite
            out = _FLOAT.sub(_py_float, out)
        text = out.decode("utf-8")
    return text.replace("\n", "\n" + ind) if ind else text


def findings_block(findings) -> str:
    """Consecutive findings (at least one) as they sit in the JSON report's findings list: items at depth 2
    separated by ``,`` and a newline, without the list's brackets. Encoded at once: the list indented by two
    spaces is ``[``, a newline and four spaces, this text, then a newline, two spaces and ``]``."""
    return encode_indented([f.as_dict() for f in findings], "  ")[6:-4]
