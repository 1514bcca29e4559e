"""Rule families. Each module declares its rules with ``@rule``; import order = evaluation order."""

from rules import policy_models  # noqa: F401  (registers the shared policy schemas)
from rules import loading  # noqa: F401
from rules import structure  # noqa: F401
from rules import accuracy, accuracy_gate, accuracy_policy  # noqa: F401
from rules import metrics, metrics_curve  # noqa: F401
