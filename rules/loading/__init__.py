"""Every input file is read once by a bounded reader; a refusal is one finding per file."""

NAME = "loading"
#: the modules holding this family's rules, in evaluation order
MODULES = ('inputs',)
