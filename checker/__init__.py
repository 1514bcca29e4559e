"""endpoints-checker: the submission checker for MLPerf Endpoints packages and run folders."""

__version__ = "0.1.0"

import os as _os

# Third-party pydantic plugins must not change how submitter files validate, and scanning for
# them (importlib.metadata) costs ~20 ms of start-up; the user can still opt in explicitly.
_os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
if _os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__":
    # pydantic's plugin loader imports importlib.metadata at module level even when every plugin is
    # disabled; answer its one question ourselves so that import is never paid.
    import sys as _sys
    import types as _types

    if "pydantic.plugin._loader" not in _sys.modules:
        _stub = _types.ModuleType("pydantic.plugin._loader")
        _stub.get_plugins = lambda: ()  # type: ignore[attr-defined]
        _sys.modules["pydantic.plugin._loader"] = _stub
