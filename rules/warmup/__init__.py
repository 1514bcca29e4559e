"""The warmup phase before each measured run (R§2.4)."""

NAME = "warmup"
#: the modules holding this family's rules, in evaluation order
MODULES = ('warmup',)
