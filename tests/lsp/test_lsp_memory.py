"""The language server's memory: a check leaves nothing for the cyclic garbage collector.

Everything a check builds (the package tree, its loaded files, the rules' views) must be freed by reference
counting when the check ends. A reference cycle held a check's whole package (about 535 KB on the bench's
32-point package) until a full collection, which comes only after many checks: the uncollected packages
piled up between collections, and each new high left the allocator's arenas a step bigger (issue 38:
101 -> 107 MB over 6,000 edits of `make bench`)."""
from __future__ import annotations

import collections
import gc

from checker.load.parse_cache import ParseCache
from checker.lsp.resolve import resolve
from checker.lsp.run import check_unit
from checker.lsp.settings import Settings
from lspclient import point_path


def test_a_check_leaves_no_reference_cycles(package):
    """Checks of a point.yaml buffer, one with a value-spelling warning (a finding that carries a fix) and
    one without, alternately, as the bench edits: after two to warm up (imports, first-use caches), the
    collector finds nothing unreachable after any check."""
    path = point_path(package)
    text = open(path, encoding="utf-8").read()
    assert "concurrency: 8\n" in text
    unit, settings = resolve(path), Settings()
    cache = ParseCache()  # the server's: every check is given it
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for version in range(1, 7):
            gc.collect()
            gc.set_debug(gc.DEBUG_SAVEALL)
            body = text.replace("concurrency: 8\n", "concurrency: 8.0\n", 1) if version % 2 else text
            check_unit(unit, {path: f"{body}# edit {version}\n"}, path, settings, cache=cache)
            gc.collect()
            left = collections.Counter(type(o).__qualname__ for o in gc.garbage)
            gc.set_debug(0)
            gc.garbage.clear()
            if version > 2:
                assert not left, f"check {version} left reference cycles: {left.most_common(12)}"
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
