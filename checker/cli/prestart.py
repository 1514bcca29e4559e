"""Start the official checker's child, and send it the submission, before the command line is even parsed
(``check`` of one submission root).

The child imports the official and checks the package while this process imports click, the engine and the
rules and checks it too; the pipeline then collects that very answer (``OfficialChild.take``: the same
request, the same registries, else it sends its own). Only the plain form is recognised here: ``check``
with one submission root among its words and none of the options that change where the Week-0 verdict
comes from or what the official reads (those go through click as usual, and ``check`` starts the child).
"""
from __future__ import annotations

import os

#: options after which the child is left to ``check`` (they change the official used, or where units run)
_LEFT_TO_CHECK = ("--week0", "--official-python", "--executor", "--scheduler", "--seed-sets", "--approved-drafters",
                  "--fix", "--help", "-h")
#: the environment variables the registries' options read (click's envvars of --seed-sets, --approved-drafters)
_REGISTRY_ENV = {"seed_sets": "MLPERF_ENDPOINTS_SEED_SETS", "approved_drafters": "MLPERF_ENDPOINTS_APPROVED_DRAFTERS"}


def official(argv: list[str]) -> None:
    """Start the official's child for ``endpoints-checker check ... ROOT ...`` when it is installed."""
    if len(argv) < 3 or argv[1] != "check":
        return
    words = argv[2:]
    if any(w.split("=", 1)[0] in _LEFT_TO_CHECK for w in words):
        return
    roots = [w for w in words if not w.startswith("-") and os.path.isdir(os.path.join(w, "results"))]
    if len(roots) != 1:
        return
    from checker.engine.official import OfficialUnavailable, resolve

    try:
        spec = resolve(None)
    except OfficialUnavailable:
        return  # check says why, as a usage error
    if spec is not None:
        from checker.engine.official.client import child_for
        from checker.engine.week0 import registries_of

        registries = registries_of({k: os.environ.get(v) for k, v in _REGISTRY_ENV.items()})
        child_for(spec).submit_early(roots[0], registries)
