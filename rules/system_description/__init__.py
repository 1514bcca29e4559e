"""system_desc.json: fields and agreement between copies (R§4.4, R§8)."""

NAME = "system-description"
#: the modules holding this family's rules, in evaluation order
MODULES = ('fields', 'consistency',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"system_desc": "fields:SystemDescPolicy"}
