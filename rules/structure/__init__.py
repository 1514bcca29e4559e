"""The package layout: directories, required files, names and entries (R§1, R§6)."""

NAME = "structure"
#: the modules holding this family's rules, in evaluation order
MODULES = ('layout', 'metadata')
