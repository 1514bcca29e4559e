"""Metric consistency of each result summary (R§4.1, R§9.1)."""

NAME = "metrics"
#: the modules holding this family's rules, in evaluation order
MODULES = ('point', 'curve',)
