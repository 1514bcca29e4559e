"""Run-folder mode's words: when the submission checked is the bundle a set of run folders becomes (`runs
create`), a finding speaks of the run folders the user has, never of a package tree they do not."""
from __future__ import annotations


def assembled(ctx) -> bool:
    """True when the package checked is the assembled view of run folders (``Package.assemblies``)."""
    return bool(getattr(ctx.package, "assemblies", None))
