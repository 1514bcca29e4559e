"""Run folders written by the reference client and their events log (RUN-FOLDER)."""

NAME = "run-folder"
#: the modules holding this family's rules, in evaluation order
MODULES = ('layout', 'run', 'events',)
#: the policy files this family owns: name -> "module:Model" (imported when first needed)
POLICIES = {"run_folder": "context:RunFolderPolicy"}
