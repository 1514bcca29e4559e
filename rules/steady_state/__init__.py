"""The measured window is the steady state (R§2.5)."""

NAME = "steady-state"
#: the modules holding this family's rules, in evaluation order
MODULES = ('window', 'detector')
