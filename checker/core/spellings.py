"""The one table of boolean words and the one did-you-mean helper every reader and the CLI share.

``BOOL_WORDS`` are PyYAML's (YAML 1.1) boolean words exactly as its resolver matches them: the tool
that gates submission reads YAML with PyYAML, so an unquoted ``yes`` means true there. The stricter
readings (JSON's ``true``/``false``, a quoted ``"yes"`` in system_power.json) are subsets of it
(``bool_words``). ``near`` is difflib's closest matches with the cutoff of the kind of word: a key
in a file is suggested only for a close typo, a command-line value more freely.
"""
from __future__ import annotations

BOOL_WORDS = {**{w: True for w in ("yes", "Yes", "YES", "on", "On", "ON", "true", "True", "TRUE")},
              **{w: False for w in ("no", "No", "NO", "off", "Off", "OFF", "false", "False", "FALSE")}}

#: words (lower-cased) a string must not be written as plainly: a YAML reader takes them for a
#: boolean or null (``y``/``n`` are YAML 1.1 booleans too, though PyYAML does not resolve them)
PLAIN_UNSAFE_WORDS = frozenset({w.lower() for w in BOOL_WORDS} | {"null", "~", "y", "n"})

#: difflib ratios: a key of a file (``unknown-key``, system_power.json's missing fields) is suggested
#: only for a close typo; a command-line value (--select, --family, ...) more freely
FILE_KEY_CUTOFF = 0.8
COMMAND_LINE_CUTOFF = 0.6


def bool_words(*meanings: str, fold_case: bool = False) -> dict:
    """The part of ``BOOL_WORDS`` spelling ``meanings`` (e.g. "true", "false"), keys lowered with ``fold_case``."""
    wanted = set(meanings)
    return {(w.lower() if fold_case else w): b for w, b in BOOL_WORDS.items() if w.lower() in wanted}


def near(word: str, choices, n: int = 3, cutoff: float = FILE_KEY_CUTOFF) -> list[str]:
    """The ``choices`` ``word`` most likely meant, best first (at most ``n``; none below ``cutoff``)."""
    import difflib  # only when a suggestion is needed

    return difflib.get_close_matches(word, list(choices), n=n, cutoff=cutoff)
