"""A Linux libc function through ctypes, where the standard library has no wrapper (``prctl``,
``renameat2``): looked up once, None elsewhere or when this libc lacks it."""
from __future__ import annotations

import sys

_FOUND: dict[str, object] = {}


def function(name: str, restype, *argtypes):
    """``name`` from the C library with its signature (ctypes types; errno kept), or None."""
    if name not in _FOUND:
        fn = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                fn = getattr(ctypes.CDLL(None, use_errno=True), name)
                fn.restype = restype
                fn.argtypes = list(argtypes)
            except (OSError, AttributeError, ImportError):
                fn = None
        _FOUND[name] = fn
    return _FOUND[name]
