"""``results/<system>/system_power.json`` (R§4.5.2): one model, either of its two shapes.

* Appendix E (the published shape, POWER.md; ``power_appendix_e``): ``node_sets[]`` with a power
  method each, sourced values and a ``scale_out`` fabric.
* The older flat group shape (``provisioned_power_w``, ``cpu``/``accelerator``/``compute``/
  ``scale_up_network`` groups; ``power_flat``), still read, flagged as superseded.

``SystemPower`` picks the shape from the keys (``shape_of``) and validates into it; the rules read
``.root`` (``rules/power/reading.py`` turns it into the figures the arithmetic needs).
"""
from __future__ import annotations

from typing import Annotated, Any, Union

from pydantic import ConfigDict, Discriminator, RootModel, Tag

from checker.load.models.power_appendix_e import AppendixE
from checker.load.models.power_flat import FlatPower

FLAT_KEYS = ("provisioned_power_w", "rack_power_w", "rack_nodes", "submitted_nodes", "cpu", "accelerator",
             "compute", "scale_up_network", "scale_out_network")


def shape_of(data: Any) -> str:
    """"flat" for a mapping with flat-shape keys and no ``node_sets``, else "appendix-e"."""
    if isinstance(data, dict) and "node_sets" not in data and any(k in data for k in FLAT_KEYS):
        return "flat"
    return "appendix-e"


class SystemPower(RootModel):
    """system_power.json in whichever shape it is written."""

    model_config = ConfigDict(defer_build=True)
    root: Annotated[Union[Annotated[AppendixE, Tag("appendix-e")], Annotated[FlatPower, Tag("flat")]],
                    Discriminator(shape_of)]

    @staticmethod
    def model_for_data(data: Any) -> type:
        """The shape's own model, for walks that go key by key (``checker.load.models.spelling``)."""
        return FlatPower if shape_of(data) == "flat" else AppendixE
