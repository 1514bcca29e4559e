"""Accuracy results and gates (R§5, R§6.6, R§9.1)."""

NAME = "accuracy"
#: the modules holding this family's rules, in evaluation order
MODULES = ('results', 'gate',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"accuracy": "policy:AccuracyPolicy", "metrics": "policy:MetricsPolicy"}
