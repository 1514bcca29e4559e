"""Provisioned power (system_power.json, R§4.5, Appendix E)."""

NAME = "power"
#: the modules holding this family's rules, in evaluation order
MODULES = ('descriptor', 'points',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"power": "arithmetic:PowerPolicy"}
