"""Rule families. Each module declares its rules with ``@rule``; import order = evaluation order."""

from rules.shared import models_policy as policy_models  # noqa: F401  (registers the shared policy schemas)
from rules.loading import inputs as loading  # noqa: F401
from rules.structure import layout as structure  # noqa: F401
from rules.parsing import files as parsing  # noqa: F401
from rules.procedure import policy as run_policy  # noqa: F401  (registers run_rules.yaml's schema)
from rules.procedure import run as procedure  # noqa: F401
from rules.warmup import warmup  # noqa: F401
from rules.steady_state import window as steady_state  # noqa: F401
from rules.consistency import harness as consistency  # noqa: F401
from rules.model_equivalence import disclosure as model_equivalence  # noqa: F401
from rules.model_equivalence import runtime as model_equivalence_runtime  # noqa: F401
from rules.model_equivalence import params as model_equivalence_params  # noqa: F401
from rules.shared import binding as binding_policy  # noqa: F401  (seed-set, drafter and cohort-rule policy schemas)
from rules.seeds import sets as seeds  # noqa: F401
from rules.drafters import approval as drafters  # noqa: F401
from rules.curve import points as curve  # noqa: F401
from rules.curve import shape as curve_shape  # noqa: F401
from rules.system_description import fields as system_desc  # noqa: F401
from rules.system_description import consistency as system_desc_consistency  # noqa: F401
from rules.power import descriptor as power  # noqa: F401
from rules.power import points as power_points  # noqa: F401
from rules.accuracy import results as accuracy  # noqa: F401
from rules.accuracy import gate as accuracy_gate
from rules.accuracy import policy as accuracy_policy
from rules.metrics import point as metrics  # noqa: F401
from rules.metrics import curve as metrics_curve
from rules.run_folder import layout as run_folder  # noqa: F401
from rules.run_folder import run as run_folder_run  # noqa: F401
from rules.run_folder import events as run_folder_events  # noqa: F401
from rules.cohort import cross as cohort  # noqa: F401
from rules.waivers import usage as waiver_rules  # noqa: F401
