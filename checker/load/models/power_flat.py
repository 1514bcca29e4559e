"""The older flat shape of ``system_power.json`` (RULES.md §2.6, checker v1.0.1.0) as pydantic models:
still read and recomputed, and flagged as superseded by the Appendix E node-set shape."""
from __future__ import annotations

from typing import Any, Optional

from pydantic import Field

from checker.load.models.common import FileModel
from checker.load.models.power_appendix_e import Number

#: flat-shape group -> (count spellings, per-unit spellings)
FLAT_GROUPS = {
    "cpu": (("num_cpu", "count"), ("tdp_per_cpu", "tdp_per_unit")),
    "accelerator": (("num_accelerator", "count"), ("tdp_per_accelerator", "tdp_per_unit")),
    "compute": (("num_compute", "count"), ("tdp_per_compute", "tdp_per_unit")),
    "scale_up_network": (("num_switches", "count"), ("tdp_per_switch", "tdp_per_unit")),
    "scale_out_network": (("num_switches", "count"), ("tdp_per_switch", "tdp_per_unit")),
}


class FlatGroup(FileModel):
    """A counted group of the whole system: a count and the TDP of one unit, under either spelling."""

    count: Optional[int] = Field(None, description="how many units the system has")
    tdp_per_unit: Optional[Number] = Field(None, description="the TDP of one unit, in watts")
    num_cpu: Optional[int] = Field(None, description="cpu: how many CPUs")
    tdp_per_cpu: Optional[Number] = Field(None, description="cpu: the TDP of one CPU, in watts")
    num_accelerator: Optional[int] = Field(None, description="accelerator: how many accelerators")
    tdp_per_accelerator: Optional[Number] = Field(None, description="accelerator: the TDP of one, in watts")
    num_compute: Optional[int] = Field(None, description="compute: how many compute units")
    tdp_per_compute: Optional[Number] = Field(None, description="compute: the TDP of one, in watts")
    num_switches: Optional[int] = Field(None, description="network: how many switches")
    tdp_per_switch: Optional[Number] = Field(None, description="network: the TDP of one switch, in watts")
    link: Any = Field(None, description="the public specification of the figure")
    public_specification: Any = Field(None, description="the public specification of the figure")


class FlatPower(FileModel):
    """``system_power.json`` in the flat group shape (superseded by Appendix E; read with a flag)."""

    system_desc_id: Any = Field(None, description="the system this file describes")
    cooling: Any = Field(None, description="the cooling, as written")
    provisioned_power_w: Optional[Number] = Field(None, description="the declared total, in watts")
    overhead_fraction: Optional[Number] = Field(None, description="the overhead fraction applied to the groups")
    rack_power_w: Optional[Number] = Field(None, description="rack scaling: the power of the published rack")
    rack_nodes: Optional[int] = Field(None, description="rack scaling: the nodes of the published rack")
    submitted_nodes: Optional[int] = Field(None, description="rack scaling: the nodes submitted")
    cpu: Optional[FlatGroup] = Field(None, description="the CPUs of the system")
    accelerator: Optional[FlatGroup] = Field(None, description="the accelerators of the system")
    compute: Optional[FlatGroup] = Field(None, description="combined compute units, instead of cpu and accelerator")
    scale_up_network: Optional[FlatGroup] = Field(None, description="the scale-up switches")
    scale_out_network: Optional[FlatGroup] = Field(None, description="the scale-out switches")
