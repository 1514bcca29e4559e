"""Rule families. Each module declares its rules with ``@rule``; import order = evaluation order."""

from rules import policy_models  # noqa: F401  (registers the shared policy schemas)
from rules import loading  # noqa: F401
from rules import structure  # noqa: F401
from rules import parsing  # noqa: F401
from rules import spelling  # noqa: F401
from rules import run_policy  # noqa: F401  (registers run_rules.yaml's schema)
from rules import procedure  # noqa: F401
from rules import warmup  # noqa: F401
from rules import steady_state  # noqa: F401
from rules import consistency  # noqa: F401
from rules import model_equivalence  # noqa: F401
from rules import model_equivalence_runtime  # noqa: F401
from rules import model_equivalence_params  # noqa: F401
from rules import binding_policy  # noqa: F401  (seed-set, drafter and cohort-rule policy schemas)
from rules import seeds  # noqa: F401
from rules import drafters  # noqa: F401
from rules import curve  # noqa: F401
from rules import curve_shape  # noqa: F401
from rules import system_desc  # noqa: F401
from rules import system_desc_consistency  # noqa: F401
from rules import power  # noqa: F401
from rules import power_points  # noqa: F401
from rules import accuracy, accuracy_gate, accuracy_policy  # noqa: F401
from rules import metrics, metrics_curve  # noqa: F401
from rules import run_folder  # noqa: F401
from rules import run_folder_run  # noqa: F401
from rules import run_folder_events  # noqa: F401
from rules import cohort  # noqa: F401
from rules import waiver_rules  # noqa: F401
