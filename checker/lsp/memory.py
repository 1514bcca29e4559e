"""Hand the heap pages a check freed back to the system (glibc's ``malloc_trim``), so a server that checks
for hours stays flat in resident memory.

Measured on the 32-point bench package, 2,500 in-process checks: Python's objects and allocated blocks and
glibc's in-use bytes (``mallinfo2``) are flat from about check 1,000, yet glibc's main heap grows by about
0.8 KB a check, all of it free space it keeps (the freed chunks are not reused for the next check's
allocations, and the pages above them stay resident). ``malloc_trim(0)`` returns every whole free page to
the system. The server's threads (the loop, the check's worker, the stdin reader) share one heap
(``one_heap``, glibc's M_ARENA_MAX = 1): a thread's own arena, created the first time two threads allocate
at once, is another heap that fills and fragments on its own (a step of 3-4 MB somewhere after 2,500
edits of the bench). Both are no-ops where the C library lacks them (musl, macOS, Windows). What a check
builds is freed by reference counting the moment it ends (it leaves no reference cycles:
tests/lsp/test_lsp_memory.py); docs/performance.md, "Issue 38", has the measurements.
"""
from __future__ import annotations

import ctypes
import ctypes.util

_TRIM = None


def _trimmer():
    global _TRIM
    if _TRIM is None:
        _TRIM = getattr(_libc(), "malloc_trim", None) or False
        if _TRIM:
            _TRIM.argtypes = [ctypes.c_size_t]
            _TRIM.restype = ctypes.c_int
    return _TRIM


def _libc():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or None)
    except OSError:
        return None


def one_heap() -> None:
    """Every thread allocates from the main heap (call before the threads start)."""
    fn = getattr(_libc(), "mallopt", None)
    if fn is not None:
        fn.argtypes = [ctypes.c_int, ctypes.c_int]
        fn(-8, 1)  # M_ARENA_MAX


def trim() -> None:
    """Release the free heap pages (runs on the check's worker thread, after a check was published)."""
    fn = _trimmer()
    if fn:
        fn(0)
