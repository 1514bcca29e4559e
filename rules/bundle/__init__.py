"""Run folders assembled into the bundle they become: what `runs create` requires and every build failure."""

NAME = "bundle"
#: the modules holding this family's rules, in evaluation order
MODULES = ("runs", "assembly")
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES: dict = {}
