"""The rule families, in evaluation order: one package each (rules, policy models, cases).

A family package's ``__init__`` holds its name (``NAME``), its rule modules (``MODULES``) and the
policy files it owns (``POLICIES``). ``checker.engine.catalogue`` is the only importer of this
table; adding a rule touches its family's folder only.
"""

FAMILIES = (
    "loading",
    "structure",
    "parsing",
    "procedure",
    "warmup",
    "steady_state",
    "consistency",
    "model_equivalence",
    "seeds",
    "drafters",
    "curve",
    "system_description",
    "power",
    "accuracy",
    "metrics",
    "run_folder",
    "bundle",
    "preflight",
    "cohort",
    "waivers",
    "week0",
)

#: policy files read by several families: name -> "module:Model"
SHARED_POLICIES = {"models": "rules.shared.models_policy:ModelsPolicy",
                   # the Week-0 prediction's table (read by rules/week0/predict.py, no rule)
                   "week0": "rules.shared.lax:Week0Policy",
                   # the Week-0 check's file schemas (rules/shared/official_schema.py builds them)
                   "week0_schemas": "rules.shared.official_schema:SchemaPolicy"}
