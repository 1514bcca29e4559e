"""Waiver file usage: expired, expiring and unused waivers."""

NAME = "waivers"
#: the modules holding this family's rules, in evaluation order
MODULES = ('usage',)
