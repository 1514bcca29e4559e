"""One progress style for every long step (submissions of a cohort, run-folder log audits):
``label [#######.......] 3/8`` or, for logs, ``label [###....] 1.2 GB / 3.4 GB``, redrawn on one
line of a terminal's stderr and erased when done. Nothing at all when stderr is not a terminal.
"""
from __future__ import annotations

import sys

WIDTH = 30


def human_bytes(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if abs(n) < 1000 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"


class Progress:
    """``Progress(total, label)``; ``step(n)`` adds ``n`` done (items, or bytes with ``unit="bytes"``)."""

    def __init__(self, total: int, label: str, stream=None, enabled: bool | None = None, unit: str = "items"):
        self.total = total
        self.label = label
        self.unit = unit
        self.stream = stream if stream is not None else sys.stderr
        if enabled is None:
            isatty = getattr(self.stream, "isatty", None)
            enabled = bool(isatty and isatty())
        self.enabled = bool(enabled) and total > 0
        self.done = 0
        self._width = 0
        self.audited = 0  # bytes of logs audited inside the items (shown when any)

    def _count(self) -> str:
        if self.unit == "bytes":
            return f"{human_bytes(self.done)} / {human_bytes(self.total)}"
        audited = f", {human_bytes(self.audited)} audited" if self.audited else ""
        return f"{self.done}/{self.total}{audited}"

    def add_bytes(self, n: int) -> None:
        """Count log bytes audited inside an item (drawn with the next ``step``)."""
        self.audited += n

    def step(self, n: int = 1) -> None:
        self.done += n
        if self.enabled:
            filled = min(WIDTH, int(WIDTH * self.done / self.total)) if self.total else WIDTH
            text = f"\r{self.label} [{'#' * filled}{'.' * (WIDTH - filled)}] {self._count()}"
            self._width = max(self._width, len(text))
            self.stream.write(text)
            self.stream.flush()

    def advance(self, _index: int | None = None) -> None:
        """One item done (the ``on_done(i)`` callback of ``checker.engine.pool.run_isolated``)."""
        self.step(1)

    def close(self) -> None:
        if self.enabled and self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
