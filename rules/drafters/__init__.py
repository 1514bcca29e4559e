"""Speculative-decoding drafters: approval and declaration (R§2.9.4)."""

NAME = "drafters"
#: the modules holding this family's rules, in evaluation order
MODULES = ('approval',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"approved_drafters": "rules.shared.registry_policy:ApprovedDraftersPolicy"}
#: policy files whose problems a dedicated rule reports (instead of policy-registry)
POLICY_REPORTERS = {"approved_drafters": "drafter-list-registry"}
