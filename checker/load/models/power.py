"""``results/<system>/system_power.json`` (R§4.5.2): which of its two shapes' models a file validates into.

* Appendix E (the published shape, POWER.md; ``power_appendix_e.AppendixE``): ``node_sets[]`` with a
  power method each, sourced values and a ``scale_out`` fabric.
* The older flat group shape (``provisioned_power_w``, ``cpu``/``accelerator``/``compute``/
  ``scale_up_network`` groups; ``power_flat.FlatPower``), still read, flagged as superseded.

The shape is chosen from the keys before validation (as a discriminated union would) so that a check
builds only the model of the shape it reads: pydantic's class creation and schema build are most of
what reading this file costs (docs/decisions.md). ``rules/power/reading.py`` turns the validated
model into the figures the arithmetic needs.
"""
from __future__ import annotations

from typing import Any

FLAT_KEYS = ("provisioned_power_w", "rack_power_w", "rack_nodes", "submitted_nodes", "cpu", "accelerator",
             "compute", "scale_up_network", "scale_out_network")


def shape_of(data: Any) -> str:
    """"flat" for a mapping with flat-shape keys and no ``node_sets``, else "appendix-e"."""
    if isinstance(data, dict) and "node_sets" not in data and any(k in data for k in FLAT_KEYS):
        return "flat"
    return "appendix-e"


def power_model(data: Any) -> type:
    """The model ``data`` validates into: ``FlatPower`` for the flat shape, else ``AppendixE``."""
    if shape_of(data) == "flat":
        from checker.load.models.power_flat import FlatPower

        return FlatPower
    from checker.load.models.power_appendix_e import AppendixE

    return AppendixE
