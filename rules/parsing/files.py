"""Per-file parsing rules: point.yaml and result_summary.json parse and their fields have their types.

Syntax errors land here (the loader's other refusals have their own rules in ``rules.loading.inputs``);
a wrong-typed field is named with its line while the rest of the file stays usable.
"""
from __future__ import annotations

from checker.load.models.keys import missing_hint
from checker.load.models.spelling import quoted_edits, quoted_fix as unquote_fix
from checker.core.models import Problem
from checker.core.rule import Fail, Pass, rule
from rules.structure.layout import _KIND_NAMES


def _validity(point, kind: str, required: dict):
    lf = point.files[kind]
    name = _KIND_NAMES[kind]
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        syntax = "JSON" if lf.is_json or name.endswith(".json") else "YAML"
        return Fail(f"{name} does not parse: {lf.error.message}", file=lf, observed=lf.error.message,
                    expected=f"valid {syntax}",
                    fix=f"Fix the {syntax} syntax at the line shown (a bracket, quote or indent); "
                        f"a {syntax} linter names the exact spot.")
    problems = [p for p in lf.field_errors]
    model = lf.model
    missing = []
    reported = {p.path[0] for p in problems if p.path}
    if model is not None:
        for field, check in required.items():
            value = getattr(model, field, None)
            if value is None:
                if field not in reported:  # a dropped wrong-typed field is already named
                    missing.append(field)
            elif check is not None and not check(value):
                problems.append(Problem((field,), f"field `{field}`: {value!r} is not allowed here", value))
    if problems or missing or model is None:
        hints = [(m, *missing_hint(lf, (), m)) for m in missing]
        msgs = [p.message for p in problems] + [f"required field `{m}` is missing{t}" for m, t, _ in hints]
        first = problems[0].path if problems else next((at for _, _, at in hints if at is not None), ())
        edits = tuple(quoted_edits(lf))
        fix = _field_fix(name, problems, missing) if kind == "point_yaml" else None
        if edits:
            fix = unquote_fix(edits, len(problems) + len(missing))
        return Fail(f"{name}: " + "; ".join(msgs), file=lf, path=first,
                    observed=[p.message for p in problems] or None,
                    expected=f"required: {', '.join(required)}" if missing else "valid field types",
                    fix=fix, edits=edits)
    return Pass(f"{name} is valid")


def _field_fix(name: str, problems, missing) -> str:
    """A fix naming the fields at fault (seeds get their own hint only when a seed is among them)."""
    bad = [".".join(str(x) for x in p.path) for p in problems if p.path]
    parts = []
    if bad:
        parts.append(f"Write {', '.join(f'`{b}`' for b in bad[:3])} with the type the message names "
                     "(numbers unquoted)")
    if any("seed" in b for b in bad):
        parts.append("seeds are plain integers, never strings or floats")
    if missing:
        parts.append(f"add {', '.join(f'`{m}`' for m in missing)} to {name}")
    return ("; ".join(parts) or f"Correct {name} as the message says") + "."


def _positive(v) -> bool:
    return isinstance(v, int) and v > 0


@rule(id="point-config-valid", title="Point configuration (point.yaml)", clause="R§8.3", severity="reject", scope="point", official=True, needs=("has:dir", "read:point_yaml"),
      consequence_of=("unknown-key",))
def point_config_valid(point, ctx):
    """`point.yaml` parses and its fields have the right types.

    What it checks: the file is a YAML mapping, `concurrency` is a positive integer,
    `runtime_settings` is a mapping, and every known field has its type (strings are never
    numbers, seeds are exact integers). Each bad field is named with its line; the other fields
    are still used by the other rules.
    Why: every rule about the point reads this file (R§8.3).
    How to fix: Correct the named field; quote nothing that is a number, and write seeds as plain
    integers.
    """
    return _validity(point, "point_yaml", {"concurrency": _positive, "runtime_settings": None})


@rule(id="result-file-valid", title="Result summary (result_summary.json)", clause="R§8.3", severity="reject", scope="point", official=True, needs=("has:dir", "read:result_summary"))
def result_file_valid(point, ctx):
    """`result_summary.json` parses and its fields have the right types.

    What it checks: the file is a JSON object with `n_samples_completed` and `duration_ns`, and every
    known field (counters, stat blocks, qps/tps) has its type; a string where a number belongs is a
    finding, never a crash.
    Why: every metric rule reads this file.
    How to fix: Use the client's performance/result_summary.json unchanged.
    """
    return _validity(point, "result_summary", {"n_samples_completed": None, "duration_ns": None})
