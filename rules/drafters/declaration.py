"""The `speculative_decoding` block of point.yaml, as the drafter rules read it, and list matching.

Field names (R§2.4 lists what must be declared; the literal keys are not published, so these are
this checker's, aligned with the official checker's matching keys):

- identity, weight-identified: ``model_id``, ``weight_checksum``
- identity, configuration-identified (self-speculative / early exit): ``target_checksum``,
  ``configuration`` (exit layer / drafter configuration)
- ``algorithm`` (EAGLE, EAGLE3, MTP, Medusa, ...)
- ``point_config``: this point's settings as a mapping (e.g. ``speculative-num-steps: 3``), or the
  string ``disabled`` when speculation is off at this point
- ``varies_within_run`` (bool) and ``distribution`` (mapping or list) when the configuration
  changed dynamically within the run
- descriptive: ``name``, ``version``, ``source_url``, ``precision``, ``release_date``,
  ``model_card_url``, ``tokenizer_notes``, ``ptq`` (calibration set and method)
"""
from __future__ import annotations

import json
from typing import Any

import msgspec

from checker.core.values import MISSING

BLOCK = "speculative_decoding"
DISABLED = "disabled"
IDENTITY_KEYS = ("algorithm", "model_id", "weight_checksum", "target_checksum", "configuration")


def _norm(v: Any) -> Any:
    if isinstance(v, str):
        return v.strip().lower()
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True, default=str)
    return v


class Decl(msgspec.Struct, frozen=True):
    """A point's speculative_decoding declaration."""

    raw: Any  # the block as written, or MISSING

    @property
    def present(self) -> bool:
        return self.raw is not MISSING and self.raw is not None

    @property
    def is_mapping(self) -> bool:
        return isinstance(self.raw, dict)

    def get(self, key: str) -> Any:
        return self.raw.get(key) if self.is_mapping else None

    @property
    def disabled(self) -> bool:
        pc = self.get("point_config")
        return isinstance(pc, str) and pc.strip().lower() == DISABLED

    @property
    def used(self) -> bool:
        """The point runs with a drafter (a block that is not `point_config: disabled`)."""
        return self.present and not self.disabled

    def identity(self) -> tuple | None:
        """Normalised (algorithm, model_id, weight_checksum, target_checksum, configuration), or None."""
        if not self.is_mapping:
            return None
        ident = tuple(_norm(self.raw.get(k)) for k in IDENTITY_KEYS)
        return ident if any(x is not None for x in ident) else None

    def describe(self) -> str:
        if not self.is_mapping:
            return "an unreadable block"
        def text(k):
            v = self.raw.get(k)
            return v if isinstance(v, str) and v else None

        head = text("name") or text("model_id") or "an unnamed drafter"
        ck = text("weight_checksum") or text("target_checksum")
        bits = [b for b in (text("algorithm"), short_checksum(ck) if ck else None) if b]
        return f"{head} ({', '.join(bits)})" if bits else head


def short_checksum(ck: str) -> str:
    return ck if len(ck) <= 24 else ck[:20] + "..."


def declaration(lf) -> Decl:
    return Decl(lf.get(BLOCK, default=MISSING))


def describe_identity(ident: tuple) -> str:
    parts = [f"{k}={v if not isinstance(v, str) or len(v) <= 24 else v[:20] + '...'}"
             for k, v in zip(IDENTITY_KEYS, ident) if v is not None]
    return ", ".join(parts) or "(nothing)"


class Match(msgspec.Struct, frozen=True):
    entry: Any  # DrafterEntry or None
    how: str  # "weight checksum" | "target checksum + configuration" | ""
    problem: str  # why nothing matched ("" on a match)
    path: tuple = (BLOCK,)


def _eq(a: Any, b: Any) -> bool:
    return a is not None and b is not None and _norm(a) == _norm(b)


def match(decl: Decl, entries: list, benchmark: str) -> Match:
    """Find the approved entry for this benchmark the declaration names."""
    if not decl.is_mapping:
        return Match(None, "", f"{BLOCK} is not a mapping")
    if not entries:
        return Match(None, "", f"no drafter is approved for {benchmark}: speculative decoding is not allowed for "
                               "this benchmark")
    wc, tc, cfg = decl.get("weight_checksum"), decl.get("target_checksum"), decl.get("configuration")
    if not wc and not (tc and cfg is not None):
        return Match(None, "", "the block names no drafter identity: give weight_checksum (weight-identified) or "
                               "target_checksum + configuration (configuration-identified)",
                     (BLOCK, "weight_checksum"))
    hit, how = None, ""
    for e in entries:
        if wc and _eq(wc, e.weight_checksum):
            hit, how = e, "weight checksum"
            break
        if tc and _eq(tc, e.target_checksum) and cfg is not None and _eq(cfg, e.configuration):
            hit, how = e, "target checksum + configuration"
            break
    if hit is None:
        listed = ", ".join(sorted({(e.name or e.model_id or short_checksum(e.weight_checksum or e.target_checksum or ""))
                                   for e in entries}))
        key = "weight_checksum" if wc else "target_checksum"
        return Match(None, "", f"{decl.describe()} is not on {benchmark}'s approved list (approved: {listed})",
                     (BLOCK, key))
    if how == "weight checksum":
        mid = decl.get("model_id")
        if mid is not None and hit.model_id and not _eq(mid, hit.model_id):
            return Match(None, "", f"model_id {mid!r:.60} differs from the approved entry's {hit.model_id!r} for the "
                                   "same weight checksum", (BLOCK, "model_id"))
        if hit.native:  # the rules identify a native head by its checkpoint's model ID and checksum
            how = f"the checksum of the approved checkpoint {hit.model_id} that ships it (a native head)"
    algo = decl.get("algorithm")
    if hit.algorithm:
        if not isinstance(algo, str) or not algo.strip():
            return Match(None, "", f"the block declares no algorithm; the approved entry uses {hit.algorithm}",
                         (BLOCK, "algorithm"))
        if _norm(algo) != _norm(hit.algorithm):
            return Match(None, "", f"algorithm {algo} differs from the approved entry's {hit.algorithm} "
                                   "(replacing the algorithm is not allowed)", (BLOCK, "algorithm"))
    return Match(hit, how, "")
