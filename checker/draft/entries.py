"""The entries a draft is made of (one line, block or comment of point.yaml each) and what a draft may use."""
from __future__ import annotations

from typing import Any

import msgspec

from checker.core.placeholders import placeholder


class Entry(msgspec.Struct):
    """One line (or block) of the draft: ``key: value  # note``; a commented field; a comment line."""

    key: str = ""
    value: Any = None
    note: str = ""  # where the value comes from
    kind: str = "value"  # value | fill (a string placeholder) | commented (a field a string cannot stand for)
    #: | block (children) | comment (a line of its own)
    children: list = msgspec.field(default_factory=list)


def value(key, v, note="") -> Entry:
    return Entry(key, v, note)


def fill(key, what, note="") -> Entry:
    return Entry(key, placeholder(what), note, "fill")


def commented(key, what) -> Entry:
    return Entry(key, placeholder(what), "", "commented")


def block(key, children, note="") -> Entry:
    return Entry(key, None, note, "block", children)


def comment(text) -> Entry:
    return Entry("", text, "", "comment")


class Context(msgspec.Struct):
    """What one draft may use besides its folder: the policy, options, and the set of folders drafted together."""

    policy: Any
    c_max: int | None = None  # --max-concurrency
    c_min: int | None = None  # the lowest concurrency of the folders drafted together
    dataset_size: int | None = None  # --dataset-size
    template: dict | None = None  # a filled point.yaml (--template)
