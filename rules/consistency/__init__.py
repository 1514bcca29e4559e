"""point.yaml, config.yaml, the summary and the system description agree (R§9.1)."""

NAME = "consistency"
#: the modules holding this family's rules, in evaluation order
MODULES = ('harness',)
