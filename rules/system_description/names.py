"""The system's names as published (R§8.2): written without stray spaces."""
from __future__ import annotations

from checker.core.rule import Fail, Pass, Skip, rule


@rule(id="system-name-spacing", title="System name without surrounding spaces", clause="R§8.2",
      severity="warn", scope="point", needs=("loaded:system_desc",))
def system_name_spacing(point, ctx):
    """`system_name` in system_desc.json has no space before or after it.

    What it checks: the `system_name` string of each copy equals itself with surrounding whitespace removed.
    Why: the name is published as written (R§8.2); a stray space makes one system look like two in the
    results table and in the cohort comparison.
    How to fix: Remove the spaces around `system_name`.
    """
    lf = point.files["system_desc"]
    name = lf.data.get("system_name")
    if not isinstance(name, str):
        return Skip("system_name is not a string (system-description-valid reports it)", reason="not-applicable")
    if name != name.strip():
        return Fail(f"system_name {name!r} has spaces around it", file=lf, path=("system_name",), observed=name,
                    expected=name.strip())
    return Pass("system_name has no surrounding spaces")
