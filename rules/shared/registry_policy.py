"""Schemas of the seed-set registry, the approved-drafter list and the cohort rule parameters.

``seed_sets.yaml`` accepts both shapes seen in the wild (RULES.md §2.9): the published
``seedset.yaml`` (``cohort: {version, cohort-id, seed_sets: [...]}``) and the older bare
``seed_sets:`` list (optionally with ``cohorts: []``), which carries no publication cohort and so
cannot prove adoption. Seeds are exact integers in 0..2^64-1 (two of set A's exceed int64).
``--seed-sets`` / ``--approved-drafters`` replace the bundled files (checker.cli.main).
"""
from __future__ import annotations

from typing import Annotated, Any, Optional, Union

import msgspec

from pydantic import ConfigDict, Field, model_validator

from checker.core.models import StrictModel
from checker.domain import cohort_ids as cohorts

U64_MAX = 2**64 - 1
U64 = Annotated[int, Field(ge=0, le=U64_MAX)]
SEED_KEYS = ("scheduler_rng_seed", "sample_index_rng_seed", "model_seed")


class _Strict(StrictModel):
    """Strict types, no unknown keys; a key with an alias (``cohort-id``) is also read by its field name."""

    model_config = ConfigDict(validate_by_name=True, validate_by_alias=True)


def _check_cohorts(values: list[str] | None, where: str) -> None:
    for v in values or []:
        _, why = cohorts.try_parse(v)
        if why:
            raise ValueError(f"{where}: {why}")


class SeedSetEntry(_Strict):
    id: Annotated[str, Field(min_length=1)]
    scheduler_rng_seed: U64
    sample_index_rng_seed: U64
    model_seed: U64
    #: explicit adoption cohorts; when non-empty they replace the window derived from cohort-id
    cohorts: Optional[list[str]] = None

    @model_validator(mode="after")
    def _cohorts_parse(self):
        _check_cohorts(self.cohorts, f"seed set {self.id!r} cohorts")
        return self


class CohortBlock(_Strict):
    version: Union[str, int, float, None] = None
    cohort_id: str = Field(alias="cohort-id")
    seed_sets: Annotated[list[SeedSetEntry], Field(min_length=1)]

    @model_validator(mode="after")
    def _id_parses(self):
        _check_cohorts([self.cohort_id], "cohort-id")
        return self


class BoundSet(msgspec.Struct, frozen=True):
    """One seed set as the rules see it: values, publication cohort and adoption window."""

    id: str
    seeds: dict
    published: Optional[cohorts.Cohort]
    window: Optional[tuple]  # tuple of Cohort, or None when the file cannot say
    window_source: str  # "cohort-id" | "cohorts list" | "none"


class SeedSetsPolicy(_Strict, extra="ignore"):
    """The published seed sets (S§4.6, R§2.1.1): bundled mirror of endpoints_policies/seedset.yaml."""

    # unknown top-level keys are tolerated (the shape check below still demands cohort: or seed_sets:)
    cohort: Optional[CohortBlock] = None
    seed_sets: Optional[list[SeedSetEntry]] = None
    cohorts: Optional[list[str]] = None  # bare (pre-v1.0.1.0) shape: `cohorts: []`
    version: Union[str, int, float, None] = None

    @model_validator(mode="after")
    def _one_shape(self):
        if self.cohort is None and self.seed_sets is None:
            raise ValueError("neither a `cohort:` mapping (published seedset.yaml shape) nor a `seed_sets:` list")
        if self.cohort is not None and self.seed_sets is not None:
            raise ValueError("both a `cohort:` mapping and a top-level `seed_sets:` list; keep one shape")
        if self.seed_sets is not None and not self.seed_sets:
            raise ValueError("`seed_sets:` is an empty list: no seed set is published")
        _check_cohorts(self.cohorts, "cohorts")
        ids = [s.id for s in self.entries]
        dup = sorted({i for i in ids if ids.count(i) > 1})
        if dup:
            raise ValueError(f"seed set id(s) listed twice: {', '.join(dup)}")
        return self

    @property
    def entries(self) -> list[SeedSetEntry]:
        return list(self.cohort.seed_sets) if self.cohort is not None else list(self.seed_sets or [])

    @property
    def shape(self) -> str:
        return "published (cohort:)" if self.cohort is not None else "bare seed_sets list"

    @property
    def published(self) -> Optional[cohorts.Cohort]:
        return cohorts.parse(self.cohort.cohort_id) if self.cohort is not None else None

    def bound_sets(self, adoption_cohorts: int) -> dict[str, BoundSet]:
        pub = self.published
        out = {}
        for e in self.entries:
            explicit = e.cohorts or self.cohorts
            if explicit:
                win, src = tuple(sorted(cohorts.parse(c) for c in explicit)), "cohorts list"
            elif pub is not None:
                win, src = tuple(cohorts.window(pub, adoption_cohorts)), "cohort-id"
            else:
                win, src = None, "none"
            seeds = {k: getattr(e, k) for k in SEED_KEYS}
            out[e.id] = BoundSet(e.id, seeds, pub, win, src)
        return out


class DrafterEntry(_Strict):
    """One approved drafter (R§2.9.4): weight-identified or configuration-identified."""

    benchmark: Annotated[str, Field(min_length=1)]
    approved_cohort: str
    name: Optional[str] = None
    version: Optional[str] = None
    model_id: Optional[str] = None
    weight_checksum: Optional[str] = None
    target_checksum: Optional[str] = None
    configuration: Union[str, int, dict[str, Any], None] = None
    algorithm: Optional[str] = None
    precision: Optional[str] = None
    default_point_config: Union[str, dict[str, Any], None] = None
    source_url: Optional[str] = None
    notes: Optional[str] = None
    #: why this entry's approval is contested (sources disagree); using it is a flag, not a reject
    disputed: Optional[Annotated[str, Field(min_length=1)]] = None

    @model_validator(mode="after")
    def _identified(self):
        _check_cohorts([self.approved_cohort], "approved_cohort")
        if not self.weight_checksum and not (self.target_checksum and self.configuration is not None):
            raise ValueError(f"drafter for {self.benchmark!r}: give model_id + weight_checksum (weight-identified) "
                             "or target_checksum + configuration (configuration-identified)")
        if self.weight_checksum and not self.model_id:
            raise ValueError(f"drafter for {self.benchmark!r}: a weight-identified entry names its model_id")
        return self


class ApprovedDraftersPolicy(_Strict):
    """The approved-drafter list per benchmark (R§2.9.4). An empty list approves nothing."""

    schema_version: Optional[int] = None
    drafters: list[DrafterEntry]


class CohortRulesPolicy(_Strict):
    """Cohort arithmetic parameters of the seed and drafter rules (S§4.6, R§2.9.4)."""

    schema_version: int
    #: a seed set is adoptable in its publication cohort and the next (n - 1) cohorts
    seed_set_adoption_cohorts: Annotated[int, Field(ge=1)]
    #: a drafter is usable from approved_cohort + n
    drafter_lead_cohorts: Annotated[int, Field(ge=0)]
    #: v0.7 seeds when no seed_set is declared
    legacy_seed: int


