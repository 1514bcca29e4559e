"""``draft``: a point.yaml for a run folder from what the folder proves (facts), written as commented YAML
(render) into the folder or an output directory (run). docs/journey.md shows where it fits."""
