"""The Pareto curve: points, regions and shape (R§5)."""

NAME = "curve"
#: the modules holding this family's rules, in evaluation order
MODULES = ('points', 'shape',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"curve": "points:CurvePolicy"}
