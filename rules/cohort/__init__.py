"""Rules across the submissions of one invocation (R§9.1)."""

NAME = "cohort"
#: the modules holding this family's rules, in evaluation order
MODULES = ('cross',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"cohort": "cross:CohortPolicy", "cohort_rules": "rules.shared.registry_policy:CohortRulesPolicy"}
