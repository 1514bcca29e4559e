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
    """One published seed set: its id and the three seeds."""

    id: Annotated[str, Field(min_length=1, description="the seed set's id (e.g. A), named by point.yaml seed_set")]
    scheduler_rng_seed: U64 = Field(description="seed of the request scheduler (unsigned 64-bit)")
    sample_index_rng_seed: U64 = Field(description="seed of the sample-order shuffle (unsigned 64-bit)")
    model_seed: U64 = Field(description="seed sent to the model (unsigned 64-bit)")
    #: explicit adoption cohorts; when non-empty they replace the window derived from cohort-id
    cohorts: Optional[list[str]] = Field(
        None, description="explicit adoption cohorts; when non-empty they replace the window derived from cohort-id")

    @model_validator(mode="after")
    def _cohorts_parse(self):
        _check_cohorts(self.cohorts, f"seed set {self.id!r} cohorts")
        return self


class CohortBlock(_Strict):
    """The published file's `cohort:` block: the cohort the sets are published in, and the sets."""

    version: Union[str, int, float, None] = Field(None, description="version of the published file")
    cohort_id: str = Field(alias="cohort-id", description="the cohort the sets are published in, YYYY-MM-C0 or YYYY-MM-C1")
    seed_sets: Annotated[list[SeedSetEntry], Field(min_length=1, description="the seed sets published")]

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
    cohort: Optional[CohortBlock] = Field(
        None, description="the published shape: the cohort block with its seed sets")
    seed_sets: Optional[list[SeedSetEntry]] = Field(
        None, description="the bundled shape: the seed sets at the top level")
    # bare (pre-v1.0.1.0) shape: `cohorts: []`
    cohorts: Optional[list[str]] = Field(None, description="bare pre-v1.0.1.0 shape: `cohorts: []`")
    version: Union[str, int, float, None] = Field(None, description="version of the published file")

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

    benchmark: Annotated[str, Field(min_length=1, description="the benchmark model the drafter is approved for")]
    approved_cohort: str = Field(description="the cohort the approval was published in")
    name: Optional[str] = Field(None, description="drafter name")
    version: Optional[str] = Field(None, description="drafter version")
    model_id: Optional[str] = Field(None, description="drafter model id (weight-identified)")
    weight_checksum: Optional[str] = Field(None, description="checksum of the drafter weights (weight-identified)")
    target_checksum: Optional[str] = Field(
        None, description="checksum of the target model (configuration-identified)")
    configuration: Union[str, int, dict[str, Any], None] = Field(
        None, description="exit layer / configuration (configuration-identified)")
    algorithm: Optional[str] = Field(None, description="speculative-decoding algorithm: EAGLE, MTP, Medusa, ...")
    precision: Optional[str] = Field(None, description="drafter precision")
    default_point_config: Union[str, dict[str, Any], None] = Field(
        None, description="the per-point configuration by default")
    source_url: Optional[str] = Field(None, description="where the drafter is published")
    notes: Optional[str] = Field(None, description="free-form notes")
    #: a head shipped inside a checkpoint: approved together with the approved checkpoint that ships it
    native: Optional[bool] = Field(
        None, description="a head that ships inside a checkpoint (MTP, native DSpark): approved together with an "
                          "approved checkpoint that ships it, identified by that checkpoint's model_id and checksum "
                          "(weight_checksum); approved_cohort is the checkpoint's approval, the lead time counts from it")
    #: why this entry's approval is contested (sources disagree); using it is a flag, not a reject
    disputed: Optional[Annotated[str, Field(min_length=1)]] = Field(
        None, description="why this entry's approval is contested; using it is a flag, not a reject")

    @model_validator(mode="after")
    def _identified(self):
        _check_cohorts([self.approved_cohort], "approved_cohort")
        if not self.weight_checksum and not (self.target_checksum and self.configuration is not None):
            raise ValueError(f"drafter for {self.benchmark!r}: give model_id + weight_checksum (weight-identified) "
                             "or target_checksum + configuration (configuration-identified)")
        if self.weight_checksum and not self.model_id:
            raise ValueError(f"drafter for {self.benchmark!r}: a weight-identified entry names its model_id")
        if self.native and not (self.model_id and self.weight_checksum):
            raise ValueError(f"native drafter for {self.benchmark!r}: give the model_id and weight_checksum of the "
                             "approved checkpoint that ships it")
        return self


class ApprovedDraftersPolicy(_Strict):
    """The approved-drafter list per benchmark (R§2.9.4). An empty list approves nothing."""

    schema_version: Optional[int] = Field(None, description="version of this file's layout")
    drafters: list[DrafterEntry] = Field(description="the approved drafters")


class CohortRulesPolicy(_Strict):
    """Cohort arithmetic parameters of the seed and drafter rules (S§4.6, R§2.9.4)."""

    schema_version: int = Field(description="version of this file's layout")
    #: a seed set is adoptable in its publication cohort and the next (n - 1) cohorts
    seed_set_adoption_cohorts: Annotated[int, Field(ge=1, description="cohorts a seed set is adoptable in, its "
                                                                     "publication cohort included (S§4.6)")]
    #: a drafter is usable from approved_cohort + n
    drafter_lead_cohorts: Annotated[int, Field(ge=0, description="a drafter is usable from approved_cohort + "
                                                                "this many cohorts (R§2.9.4)")]
    #: v0.7 seeds when no seed_set is declared
    legacy_seed: int = Field(description="v0.7 fallback: every seed when no seed_set is declared")


