"""Cooling words in classes (liquid, air, passive, unknown): what both power shapes' overhead reads.

The system description's free-text cooling is classified by the policy's ``cooling_classes``; the
Appendix E arithmetic and the flat shape's overhead both read it from here.
"""
from __future__ import annotations

from rules.power.policy import PowerPolicy


def classify_cooling(word, pol: PowerPolicy) -> str | None:
    """'liquid' | 'air' | 'passive' | 'unknown' for free-text cooling, or None when empty."""
    if not isinstance(word, str) or not word.strip():
        return None
    w = word.strip().lower()
    for cls, words in pol.cooling_classes.items():
        if any(x in w for x in words):
            return cls
    return "unknown"


def sysdesc_cooling(sysdesc) -> list[str]:
    """The cooling words of the system description: each node type's, else the system's."""
    if sysdesc is None:
        return []
    words = [n.cooling or sysdesc.cooling for n in sysdesc.nodes]
    if not words and sysdesc.cooling:
        words = [sysdesc.cooling]
    return list(dict.fromkeys(w for w in words if isinstance(w, str) and w.strip()))
