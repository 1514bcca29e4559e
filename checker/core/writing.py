"""Bytes written to a descriptor to the last one, whatever the descriptor is (docs/robustness.md, "Outputs").

``os.write`` may take fewer bytes than asked (a pipe, a socket, a signal), and a descriptor its owner made
non-blocking (an event loop's pipe, ``subprocess`` with ``O_NONBLOCK``) refuses with ``EAGAIN`` when its
reader is slower than the writer; Python's buffered writer then reports a short count that is easy to
ignore. Here a short write is continued and a full non-blocking descriptor is waited on, as a blocking
one would be; a reader gone is ``BrokenPipeError``. Nothing is ever dropped silently.
"""
from __future__ import annotations

import os


def write_all(fd: int, data) -> None:
    """Write ``data`` (bytes, or an iterable of bytes) to ``fd``, every byte, or raise OSError."""
    for piece in ((data,) if isinstance(data, (bytes, bytearray, memoryview)) else data):
        view = memoryview(piece)
        while view:
            try:
                n = os.write(fd, view)
            except BlockingIOError:
                wait_writable(fd)
                continue
            view = view[n:]


def wait_writable(fd: int) -> None:
    """Block until ``fd`` takes more bytes (or its reader is gone: the next write says so)."""
    import select

    if hasattr(select, "poll"):
        poller = select.poll()
        poller.register(fd, select.POLLOUT)
        poller.poll()
    else:
        select.select([], [fd], [fd])
