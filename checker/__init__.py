"""endpoints-checker: the submission checker for MLPerf Endpoints packages and run folders.

``from checker import check`` is the library API (``checker.api``, docs/api.md): it is imported on first
use, so the command line does not pay for it.
"""

from checker.core.version import __version__  # noqa: F401  (the package's public version)


def __getattr__(name: str):
    if name in ("check", "ReportModel"):
        from checker import api

        return getattr(api, name)
    raise AttributeError(f"module 'checker' has no attribute {name!r}")
