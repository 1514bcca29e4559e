"""Rule families. Each module declares its rules with ``@rule``; import order = evaluation order."""

from rules import policy_models  # noqa: F401  (registers the shared policy schemas)
from rules import loading  # noqa: F401
from rules import structure  # noqa: F401
from rules import model_equivalence  # noqa: F401
from rules import model_equivalence_runtime  # noqa: F401
from rules import model_equivalence_params  # noqa: F401
from rules import cohort  # noqa: F401
from rules import waiver_rules  # noqa: F401
