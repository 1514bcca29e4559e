"""One progress style for every long step; bytes for the run-folder log audit (issue 16)."""
from __future__ import annotations

import io


def test_progress_counts_bytes_for_logs():
    from checker.engine.progress import Progress, human_bytes

    class Tty(io.StringIO):
        def isatty(self):
            return True

    tty = Tty()
    bar = Progress(3_400_000_000, "auditing run-folder logs", stream=tty, unit="bytes")
    bar.step(1_200_000_000)
    assert "auditing run-folder logs [##########" in tty.getvalue() and "1.2 GB / 3.4 GB" in tty.getvalue()
    bar.close()
    assert tty.getvalue().endswith("\r")
    assert human_bytes(999) == "999 B" and human_bytes(1_500_000) == "1.5 MB"


def test_one_progress_class():
    from checker.engine import pool
    from checker.engine.progress import Progress

    assert pool.Progress is Progress
    assert not hasattr(pool, "_RichProgress")
