"""endpoints-checker: the submission checker for MLPerf Endpoints packages and run folders."""

__version__ = "0.1.0"

import os as _os

# Third-party pydantic plugins must not change how submitter files validate, and scanning for
# them (importlib.metadata) costs ~20 ms of start-up; the user can still opt in explicitly.
_os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
