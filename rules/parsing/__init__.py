"""point.yaml and result_summary.json parse into their typed models (R§6)."""

NAME = "parsing"
#: the modules holding this family's rules, in evaluation order
MODULES = ("files", "spelling", "text", "drafts")
