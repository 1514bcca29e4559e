"""Client configs checked before the runs: what the binding run constraints decide before anything runs (R§6)."""

NAME = "preflight"
#: the modules holding this family's rules, in evaluation order
MODULES = ("load", "settings", "plan")
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES: dict = {}
