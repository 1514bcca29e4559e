"""Seed sets: adoption, membership and consistency (R§2.1.1, S§4.6)."""

NAME = "seeds"
#: the modules holding this family's rules, in evaluation order
MODULES = ('sets',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"seed_sets": "rules.shared.registry_policy:SeedSetsPolicy"}
#: policy files whose problems a dedicated rule reports (instead of policy-registry)
POLICY_REPORTERS = {"seed_sets": "seed-set-registry"}
