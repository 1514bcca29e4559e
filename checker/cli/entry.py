"""The console script ``endpoints-checker`` (and ``python -m checker``): the click command line, then a
quick exit.

A check is a short process that ends holding thousands of objects and ~300 modules; tearing them
down one by one (interpreter finalization) costs about 5 % of a 32-point check and changes
nothing: every output file is written and closed inside the command, and worker pools are shut
down by their ``with`` blocks. So once the command has finished and standard output and error
are flushed, the process exits at once with the command's exit code. Anything unusual (an exit
message instead of a code, a flush that fails) takes Python's normal exit.
"""
from __future__ import annotations

import os
import sys


def run() -> None:
    from checker.cli import prestart

    prestart.official(sys.argv)  # the official checker's child imports it while we import the rest
    from checker.core.models import without_plugins

    without_plugins()
    try:
        from checker.cli.main import main

        main()
    except SystemExit as exc:
        code = exc.code
        if code is None:
            code = 0
        if isinstance(code, bool) or not isinstance(code, int) or not 0 <= code <= 255:
            raise
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:  # None: the process started with that descriptor closed
                    stream.flush()
        except (OSError, ValueError):
            raise exc from None
        official = sys.modules.get("checker.engine.official.client")
        if official is not None:  # the official checker's child: reaped, never left behind (atexit is skipped)
            official.close_all()
        os._exit(code)
    # click's standalone mode always raises SystemExit; reaching here is Python's normal exit
