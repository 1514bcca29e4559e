"""Parsed files kept between two checks by a long-lived process (the language server), so an edit re-parses
only the files whose bytes changed.

Off unless a process passes one in (``checker.load.reader.Reads``, on the RunConfig): the CLI checks once and pays nothing.
An entry is keyed by the file's identity (kind, display path, path, root, the read's bounds) and holds the
digest of the exact bytes read last time (from disk, or the editor's buffer standing in for them): every
safety check of the read (lstat, symlinks, regular file, size cap, bounded read) runs again on each check, and
only decoding, parsing and model validation are skipped when the digest is the same. One entry per identity
(a new version replaces the old one) and a bound on entries and on source bytes keep memory flat.
"""
from __future__ import annotations

import hashlib
from collections import OrderedDict

import msgspec

#: at most this many files and this many source bytes are kept (a 64-point package holds about 330 files)
MAX_ENTRIES = 2048
MAX_BYTES = 64 * 1024 * 1024


def digest(raw: bytes) -> bytes:
    return hashlib.blake2b(raw, digest_size=20).digest()


class ParseCache:
    """identity -> (digest, values spent from the unit's budget, the completed LoadedFile), least recently
    used first. A hit is a fresh copy of the LoadedFile, so a check that sets one of its fields (or appends to
    one of its lists) never changes what the next check gets; its parsed values are shared and read-only
    (rules are pure; tests/lsp/test_lsp_reuse.py checks an entry is unchanged after a check)."""

    def __init__(self, max_entries: int = MAX_ENTRIES, max_bytes: int = MAX_BYTES):
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self._entries: OrderedDict = OrderedDict()
        self.bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, identity: tuple, dig: bytes, left: int | None):
        """The kept result for these bytes, as (copy, values spent), or None. ``left``: what the unit's
        budget still allows (None: no budget); a result that would not fit it is not served."""
        entry = self._entries.get(identity)
        if entry is None or entry[0] != dig or (left is not None and entry[2] >= left):
            self.misses += 1
            return None
        self._entries.move_to_end(identity)
        self.hits += 1
        return fresh(entry[3]), entry[2]

    def put(self, identity: tuple, dig: bytes, size: int, spent: int, lf) -> None:
        old = self._entries.pop(identity, None)
        if old is not None:
            self.bytes -= old[1]
        if size > self.max_bytes // 4:
            return
        self._entries[identity] = (dig, size, spent, fresh(lf))
        self.bytes += size
        while self._entries and (len(self._entries) > self.max_entries or self.bytes > self.max_bytes):
            _, gone = self._entries.popitem(last=False)
            self.bytes -= gone[1]

    def read(self, identity: tuple, raw: bytes, is_json: bool, budget, parse, post):
        """The completed file for the bytes ``raw`` read at ``identity``: kept from a read of the same bytes
        (its values spent again from ``budget``), else ``parse()`` and ``post`` run and the result is kept.
        A refusal for size may depend on what the unit had left: never kept."""
        dig = digest(raw)
        left = None if budget is None else budget.limit(is_json)
        if left is None or left > 0:
            hit = self.get(identity, dig, left)
            if hit is not None:
                done, spent = hit
                if budget is not None:
                    budget.spend(spent, is_json)
                return done
        before = None if budget is None else budget.values
        lf = parse()
        post(lf)
        if lf.error is None or lf.error.code != "file-too-large":
            self.put(identity, dig, len(raw), 0 if before is None else before - budget.values, lf)
        return lf

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def stats(self) -> dict:
        return {"entries": len(self._entries), "bytes": self.bytes, "hits": self.hits, "misses": self.misses}


def fresh(lf):
    """A copy of ``lf`` whose fields and lists are its own (the parsed values and the model are shared)."""
    return msgspec.structs.replace(lf, field_errors=list(lf.field_errors), spellings=list(lf.spellings),
                                   text_notes=list(lf.text_notes), quoted=set(lf.quoted),
                                   _positions=None, _located=None)
