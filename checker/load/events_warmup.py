"""The warmup-source check of the events audit: the prompts the warmup phase sent, kept as hashes, and
the performance-phase prompts that repeat one (plain, or the same text behind the client's salt).

A prompt is decoded from an issued event's ``data`` only here, so the audit's hot loop never decodes a
prompt unless there was a warmup to compare against; at most MAX_WARMUP_PROMPTS hashes per kind are kept.
"""
from __future__ import annotations

import re

#: the client's salt before a warmup prompt: "[<16 hex digits>] "
SALT_RE = re.compile(r"^\[[0-9a-f]{16}\] ")
MAX_WARMUP_PROMPTS = 1 << 20  # prompt hashes kept per kind for the warmup-source check


class WarmupPrompts:
    """The hashes of the warmup prompts, plain and salted (empty until a warmup sample is issued)."""

    def __init__(self):
        import msgspec

        self.plain: set = set()
        self.salted: set = set()
        self._dec = msgspec.json.Decoder(msgspec.defstruct("EventData", [("data", object, None)]))
        self._errors = (msgspec.DecodeError, msgspec.ValidationError, RecursionError, ValueError)

    def remember(self, raw: bytes, audit) -> None:
        """A warmup ``sample.issued`` line: keep its prompt's hash, counting a salted one."""
        text = self.prompt(raw)
        if text is not None:
            salted = SALT_RE.match(text) is not None
            if salted:
                audit.warmup_salted += 1
            target = self.salted if salted else self.plain
            if len(target) < MAX_WARMUP_PROMPTS:
                target.add(hash(SALT_RE.sub("", text, count=1) if salted else text))

    def compare(self, raw: bytes, audit) -> None:
        """A performance-phase ``sample.issued`` line: count it when its prompt repeats a warmup one."""
        text = self.prompt(raw)
        if text is not None:
            h = hash(SALT_RE.sub("", text, count=1) if text.startswith("[") else text)
            if h in self.plain:
                audit.warmup_perf_overlap += 1
            elif h in self.salted:
                audit.warmup_perf_overlap_salted += 1

    def prompt(self, raw: bytes) -> str | None:
        """The prompt text of an issued event's ``data`` (the repr of a structured one), None without one."""
        try:
            data = self._dec.decode(raw).data
            if isinstance(data, list) and len(data) > 1:
                if isinstance(data[1], str):
                    return data[1]
                if len(data) > 3 and data[3] is not None:
                    return repr(data[3])
        except self._errors:
            return None  # the line itself decoded (its data is not needed to account for it)
        return None
