"""How each point was run: samples, duration, streaming, load pattern (R§2, R§5)."""

NAME = "procedure"
#: the modules holding this family's rules, in evaluation order
MODULES = ('run',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"run_rules": "policy:RunRulesPolicy"}
