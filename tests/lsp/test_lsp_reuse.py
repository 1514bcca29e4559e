"""The parsed files the server keeps between checks (checker.load.parse_cache): every check sees the bytes of
that moment (an edited buffer, a file edited or deleted on disk that is not open), a check leaves the kept
entries as they were, the results equal those of a check without reuse, and the cache stays bounded."""
from __future__ import annotations

import os
import pickle

import pytest

from checker.load.parse_cache import ParseCache
from checker.lsp.resolve import resolve
from checker.lsp.run import check_unit
from checker.lsp.settings import Settings
from lspclient import point_path


#: the parse cache the checks of a test share (the server gives its own to every check)
_CACHE: list = [None]


@pytest.fixture
def cache():
    _CACHE[0] = ParseCache()
    yield _CACHE[0]
    _CACHE[0] = None


def _check(path: str, text: str):
    return check_unit(resolve(path), {path: text}, path, Settings(), cache=_CACHE[0])


def _codes(mapped, path: str) -> set:
    return {d.code for d in mapped.diagnostics.get(path, [])}


def _everything(mapped) -> dict:
    return {p: sorted((d.code, d.range.start.line, d.range.start.character, d.message) for d in ds)
            for p, ds in mapped.diagnostics.items()}


def test_each_check_sees_the_buffer_the_disk_and_a_deletion_of_that_moment(cache, package):
    r8 = point_path(package, "r8")
    text = open(r8, encoding="utf-8").read()
    first = _check(r8, text)
    assert "value-spelling" not in _codes(first, r8)
    assert cache.misses > 0 and len(cache) > 30  # every file of the 8-point package was parsed and kept

    # the buffer changes: only the open document is parsed again, and its new finding shows
    misses = cache.misses
    spelled = _check(r8, text.replace("concurrency: 8\n", "concurrency: 8.0\n", 1))
    assert "value-spelling" in _codes(spelled, r8)
    assert cache.misses == misses + 1 and cache.hits > 0
    assert "value-spelling" not in _codes(_check(r8, text), r8)  # and the fix of the buffer clears it

    # a file on disk that is not open changes, same size and within the same mtime tick: seen at once
    r64 = point_path(package, "r64")
    on_disk = open(r64, encoding="utf-8").read()
    stat = os.stat(r64)
    edited = on_disk.replace("concurrency: 64\n", "concurrency: 6x\n", 1)
    assert len(edited) == len(on_disk)
    with open(r64, "w", encoding="utf-8") as fh:
        fh.write(edited)
    os.utime(r64, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # the size and mtime say nothing changed
    disk_edit = _check(r8, text)
    assert "point-config-valid" in _codes(disk_edit, r64)
    assert _everything(disk_edit) == _everything(_uncached(r8, text))

    # a file deleted on disk: its absence is what the next check reports
    summary = os.path.join(os.path.dirname(r64), "result_summary.json")
    os.remove(summary)
    deleted = _check(r8, text)
    assert any("result_summary" in d.message for ds in deleted.diagnostics.values() for d in ds)
    assert _everything(deleted) == _everything(_uncached(r8, text))


def _uncached(path: str, text: str):
    return check_unit(resolve(path), {path: text}, path, Settings())


def test_a_check_leaves_the_kept_files_as_they_were_and_finds_what_a_fresh_check_finds(cache, package):
    r8 = point_path(package, "r8")
    text = open(r8, encoding="utf-8").read().replace("concurrency: 8\n", "concurrency: 8.0\n", 1)
    fresh = _uncached(r8, text)
    _check(r8, text)
    kept = {k: pickle.dumps((e[3].data, e[3].spellings, e[3].field_errors, e[3].error, e[3].text))
            for k, e in cache._entries.items()}
    again = _check(r8, text)
    assert cache.hits > 30
    after = {k: pickle.dumps((e[3].data, e[3].spellings, e[3].field_errors, e[3].error, e[3].text))
             for k, e in cache._entries.items()}
    assert after == kept  # nothing a check did (spelling normalisation, model attach, rules) leaked into them
    assert _everything(again) == _everything(fresh)


def test_the_cache_is_bounded_in_entries_and_bytes(package):
    _CACHE[0] = small = ParseCache(max_entries=10, max_bytes=1 << 30)
    try:
        r8 = point_path(package, "r8")
        text = open(r8, encoding="utf-8").read()
        for i in range(3):
            _check(r8, text + f"# edit {i}\n")
            assert len(small) <= 10
        _CACHE[0] = by_bytes = ParseCache(max_bytes=40_000)
        _check(r8, text)
        assert 0 < by_bytes.bytes <= 40_000 and len(by_bytes) < 30
    finally:
        _CACHE[0] = None
    # one entry per file: the 200th version of a buffer replaces the 199th instead of piling up
    c = ParseCache()
    from checker.load.reader import LoadedFile

    for i in range(200):
        c.put(("point_yaml", "r8/point.yaml"), bytes([i % 256]) * 20, 100, 0, LoadedFile(kind="point_yaml", rel="x", abspath="/x"))
    assert len(c) == 1 and c.bytes == 100
