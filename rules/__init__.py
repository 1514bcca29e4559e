"""Rule families. Each module declares its rules with ``@rule``; import order = evaluation order."""

from rules import policy_models  # noqa: F401  (registers the shared policy schemas)
from rules import loading  # noqa: F401
from rules import structure  # noqa: F401
from rules import run_folder  # noqa: F401
from rules import run_folder_run  # noqa: F401
from rules import run_folder_events  # noqa: F401
