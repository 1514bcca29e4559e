"""The figures of a ``system_power.json`` as the power arithmetic reads them, and the power finding record.

Built from the validated model (``checker.load.models.power``) by ``rules/power/reading.py``: absent
values stay None; ``rules/power/arithmetic.py`` fills Appendix D defaults and does the arithmetic.
"""
from __future__ import annotations

from typing import Any

import msgspec


class PowerFinding(msgspec.Struct):
    """One problem or warning about the file; ``check`` names the rule that reports it (``CHECK_RULES``)."""

    path: tuple
    message: str
    check: str = "descriptor"
    observed: Any = None
    expected: Any = None
    fix: str | None = None


class Sourced(msgspec.Struct):
    """A sourced value: watts (from value_w or value_kw) or picojoules per bit (value_pj)."""

    path: tuple
    watts: float | None = None
    pj: float | None = None
    source_type: str | None = None
    source: str | None = None
    ok: bool = True  # False: malformed (its problem is recorded); the figure cannot be used

    @property
    def is_default(self) -> bool:
        return self.source_type == "mlc_default"


class Component(msgspec.Struct):
    """A counted part: Appendix E cpu/accelerator (per node) or a flat-shape group (per system)."""

    name: str
    path: tuple
    count: int | None = None
    unit: Sourced | None = None  # power per unit
    model: str | None = None


class ScaleUp(msgspec.Struct):
    """E.3 ``scale_up_network``: declared_tdp | bandwidth_estimate | none."""

    path: tuple
    method: str | None = None
    switch_count: int | None = None
    tdp_per_switch: Sourced | None = None
    aggregate_tbps: float | None = None  # read as terabytes per second (E.3)
    energy: Sourced | None = None  # energy_per_bit_pj
    legacy: dict = msgspec.field(default_factory=dict)  # earlier-draft key -> Appendix E name, as written


class NodeSet(msgspec.Struct):
    path: tuple
    node_set_id: Any = None
    ensemble_id: Any = None
    nodes: int | None = None
    method: str | None = None
    published: Sourced | None = None
    nodes_in_published: int | None = None
    components: dict = msgspec.field(default_factory=dict)  # "cpu" / "accelerator" -> Component
    combined: Sourced | None = None  # combined_cpu_accelerator, per node
    scale_up: ScaleUp | None = None
    complete: bool = True  # False: a structural problem leaves the set without a figure


class Nics(msgspec.Struct):
    path: tuple
    count_per_node: int | None = None
    bandwidth_gbps: float | None = None
    counted: bool | None = None
    tdp: Sourced | None = None
    excluded: str | None = None  # excluded_from_published_power: the evidence


class Switch(msgspec.Struct):
    path: tuple
    model: str | None = None
    count: int | None = None
    bandwidth_tbps: float | None = None
    power: Sourced | None = None


class ScaleOut(msgspec.Struct):
    path: tuple
    present: bool | None = None
    cabling: str | None = None
    required_tbps: float | None = None
    nics: Nics | None = None
    switches: list | None = None  # [Switch]; None when absent
    complete: bool = True  # present: true with every required part well formed


class PowerDoc(msgspec.Struct):
    shape: str  # "appendix-e" | "flat"
    problems: list = msgspec.field(default_factory=list)  # [PowerFinding]
    warnings: list = msgspec.field(default_factory=list)  # [PowerFinding]
    system_desc_id: Any = None
    cooling: Any = None  # Appendix E: liquid | air, None when not valid; flat: as written
    node_sets: list = msgspec.field(default_factory=list)
    scale_out: ScaleOut | None = None
    declared: Sourced | None = None  # declared_provisioned_power
    computed: dict = msgspec.field(default_factory=dict)  # Appendix E computed figure -> (path, value)
    provisioned_kw: tuple | None = None  # (path, value) of provisioned_power_kw
    # flat shape
    overhead_fraction: float | None = None
    flat_declared: list = msgspec.field(default_factory=list)  # [(path, label, watts)]
    groups: dict = msgspec.field(default_factory=dict)  # name -> Component (counts per system)
    rack: tuple | None = None  # (rack_power_w, rack_nodes, submitted_nodes)
