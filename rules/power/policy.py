"""The power policy (``rules/policy/v1.0/power.yaml``): its model, and Appendix D default selection.

Appendix D (POWER.md) gives MLCommons' values for figures a descriptor leaves absent: CPU TDP by
architecture and cores (D.2), accelerator TDP by model (D.3), reference scale-out switches by
cabling and the scale-out NIC (D.4). D.1 (scale-up) has no mechanical default. The tables are
policy data; this module only selects from them.
"""
from __future__ import annotations

from pydantic import Field

import re
from typing import Optional

import msgspec

from rules.shared.strict import StrictModel as _Strict


class CpuTier(_Strict):
    """One row of the D.2 CPU table: TDP by architecture up to a core count."""

    architecture: str = Field(description="the CPU architecture of this row")
    # None: any core count above the previous row of this architecture
    max_cores: Optional[int] = Field(
        None, description="highest cores per CPU this row covers; null: any count above the previous row of this architecture")
    value_w: float = Field(description="per-CPU TDP, watts")


class CpuDefaults(_Strict):
    """Appendix D.2: default CPU power."""

    subsection: str = Field(description="the Appendix D subsection cited")
    architectures: dict[str, list[str]] = Field(
        description="architecture -> words of a CPU model name that select it")
    tiers: list[CpuTier] = Field(description="TDP rows; the first that fits is used")


class ModelDefaults(_Strict):
    """Appendix D.3: default accelerator power by model."""

    subsection: str = Field(description="the Appendix D subsection cited")
    models: dict[str, float] = Field(
        description="accelerator model -> per-accelerator TDP, watts (the longest matching name wins)")


class SwitchDefaults(_Strict):
    """Appendix D.4: default scale-out switch power."""

    subsection: str = Field(description="the Appendix D subsection cited")
    # model -> cabling -> watts
    models: dict[str, dict[str, float]] = Field(description="switch model -> cabling -> watts")


class NicDefault(_Strict):
    """The default NIC power."""

    subsection: str = Field(description="the Appendix D subsection cited")
    value_w: float = Field(description="per-NIC power, watts")


class AppendixD(_Strict):
    """Appendix D: MLCommons' default figures, used only where the descriptor leaves one out (the result is then MLC Estimated Power)."""

    subsections: list[str] = Field(description="the Appendix D subsections there are")
    cpu: CpuDefaults = Field(description="default CPU power (D.2)")
    accelerator: ModelDefaults = Field(description="default accelerator power (D.3)")
    scale_out_switch: SwitchDefaults = Field(description="default scale-out switch power (D.4)")
    nic: NicDefault = Field(description="default NIC power")


class PowerPolicy(_Strict):
    """Overhead fractions, cooling vocabulary, E.7 tolerances and the Appendix D defaults."""

    schema_version: int = Field(description="version of this file's layout")
    overhead_fraction: dict[str, float] = Field(
        description="cooling -> the fraction of Major power added as Other (E.2)")
    mixed_cooling: str = Field(
        description="the cooling a descriptor must declare when node types are cooled differently")
    cooling_classes: dict[str, list[str]] = Field(
        description="cooling class -> words of system_desc.json cooling that select it")
    computed_tolerance_w: float = Field(
        description="a written computed figure must equal the recomputation within this many watts (E.7)")
    provisioned_power_tolerance_kw: float = Field(
        description="provisioned_power_kw must equal the recomputation within this many kW (E.7)")
    provisioned_power_decimals: int = Field(
        description="provisioned_power_kw is the total in kW rounded to this many decimals")
    tolerance_fraction: float = Field(
        description="a stored system_tps_per_kw, and a flat-shape total, must match within this fraction")
    source_types: list[str] = Field(description="values a figure's source type may take")
    appendix_d: AppendixD = Field(description="the Appendix D defaults")
    optional_for_divisions: list[str] = Field(description="divisions for which system_power.json is optional")


class Default(msgspec.Struct, frozen=True):
    """One Appendix D value: watts, its subsection, and what selected it (for messages)."""

    watts: float
    subsection: str
    why: str


_CORES_IN_NAME = re.compile(r"(\d+)[\s_-]*cores?\b", re.I)


def squash(name: str) -> str:
    """A model name without case, spaces or punctuation: 'TPU v7' -> 'tpuv7'."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


def _words(name: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", name.lower()))


def cpu_architecture(model: str, pol: PowerPolicy) -> str | None:
    """The first architecture one of whose names begins a word of the model name ('Graviton4' is Graviton)."""
    words = _words(model)
    for arch, names in pol.appendix_d.cpu.architectures.items():
        if any(w.startswith(n.lower()) for w in words for n in names):
            return arch
    return None


def cores_in_name(model: str) -> int | None:
    m = _CORES_IN_NAME.search(model)
    return int(m.group(1)) if m else None


def cpu_default(model: str | None, cores: int | None, pol: PowerPolicy) -> tuple[Default | None, str]:
    """D.2's per-CPU TDP, or (None, why there is none). Cores: the system description's, else the name's."""
    d = pol.appendix_d.cpu
    if not model:
        return None, "no cpu.model to read the architecture from"
    arch = cpu_architecture(model, pol)
    if arch is None:
        return None, f"the architecture of {model!r} is not one Appendix {d.subsection} knows"
    how = "host_processor_core_count"
    if cores is None:
        cores, how = cores_in_name(model), "the model name"
    if cores is None:
        return None, f"the core count of {model!r} is unknown (no host_processor_core_count, no 'N-core' in the name)"
    for tier in d.tiers:
        if tier.architecture == arch and (tier.max_cores is None or cores <= tier.max_cores):
            return Default(tier.value_w, d.subsection, f"{arch}, {cores} cores from {how}"), ""
    return None, f"Appendix {d.subsection} has no default for {arch} CPUs with {cores} cores"


def accelerator_default(model: str | None, pol: PowerPolicy) -> tuple[Default | None, str]:
    """D.3's per-accelerator TDP for a listed model (longest matching name), or (None, why)."""
    d = pol.appendix_d.accelerator
    if not model:
        return None, "no accelerator.model to look up"
    s = squash(model)
    hits = [(len(squash(k)), k, w) for k, w in d.models.items() if squash(k) and squash(k) in s]
    if not hits:
        return None, f"Appendix {d.subsection} has no default for {model!r}"
    _n, key, watts = max(hits)
    return Default(watts, d.subsection, key), ""


def switch_default(model: str | None, cabling: str | None, pol: PowerPolicy) -> tuple[Default | None, str]:
    """D.4's reference switch power under the declared cabling, or (None, why)."""
    d = pol.appendix_d.scale_out_switch
    if not model:
        return None, "no switch model"
    s = squash(model)
    hits = [(len(squash(k)), k) for k in d.models if squash(k) and squash(k) in s]
    if not hits:
        return None, f"{model!r} is not an Appendix {d.subsection} reference switch"
    key = max(hits)[1]
    if not cabling or cabling not in d.models[key]:
        return None, f"Appendix {d.subsection} gives {key} no figure for cabling {cabling!r}"
    return Default(d.models[key][cabling], d.subsection, f"{key}, {cabling}"), ""


def nic_default(pol: PowerPolicy) -> Default:
    d = pol.appendix_d.nic
    return Default(d.value_w, d.subsection, "scale-out NIC")
