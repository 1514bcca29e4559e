"""Lines said at the very end of a pytest run, where nobody can miss them (the conformance suite's timing, or
its loud skip without the official checker). Under pytest-xdist a worker's lines travel to the controller,
which prints them all (tests/conftest.py)."""
from __future__ import annotations

#: (text, terminal markup such as {"red": True, "bold": True}), in the order they were added
LINES: list[tuple[str, dict]] = []


def add(text: str, **markup: bool) -> None:
    LINES.append((text, markup))
