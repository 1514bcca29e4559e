"""The model_equivalence disclosures (R§2.9, R§8.3)."""

NAME = "model-equivalence"
#: the modules holding this family's rules, in evaluation order
MODULES = ('disclosure', 'runtime', 'params',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"model_equivalence": "policy:ModelEquivalencePolicy"}
