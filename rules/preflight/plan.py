"""Pre-flight, part 3: the planned set as a curve (R§5.3-R§5.7, R§4.3): regions, Offline, accuracy, count."""
from __future__ import annotations

from checker.core.rule import Fail, Pass, Skip, rule
from rules.preflight.context import is_offline, lf, no_configs, regions, target
from rules.run_folder.ending import scored_datasets

_MANDATORY = (("ultra_low", None), ("low_concurrency", "low_concurrency"), ("med_concurrency", "med_concurrency"),
              ("high_concurrency", "high_concurrency"))


@rule(id="preflight-coverage", title="Planned set covers the curve", clause="R§5.3, R§5.7, R§4.3",
      severity="reject", scope="plan", needs=("policy:curve", "policy:run_folder"))
def preflight_coverage(plan, ctx):
    """The planned configs make a complete curve: every mandatory region, the Offline point, the accuracy points, the count.

    What it checks: with --max-concurrency, the fixed-concurrency targets (C_min = the lowest) give
    one point at or below 32 (ultra_low) and one in each of low_concurrency, med_concurrency and
    high_concurrency (the margin never
    counts); an Offline point: a max_throughput config (dedicated) or a config at exactly C_max
    (to elect, with `offline: elected` in its point.yaml), none for an agentic benchmark; accuracy
    (a config with an accuracy dataset the client scores) at a point of each mandatory region and
    at the Offline point; at least 8 points with a dedicated Offline run, 7 otherwise, at most 32.
    Why: R§5.3 and R§9.1 reject a curve missing any of these; found after the runs, it costs runs.
    How to fix: Add the configs the message names.
    """
    if not plan.configs:
        return no_configs()
    curve = ctx.policy.get("curve")
    reg, cmax, note = regions(plan, ctx, curve.ultra_low_max)
    if reg is None:
        return Skip(note, reason="missing-context")
    external = ctx.policy.get("run_folder").external_scorers
    fixed = [(rf, target(rf)) for rf in plan.configs if target(rf) is not None]
    offline = [rf for rf in plan.configs if is_offline(rf)]
    agentic = bool(fixed) and all(lf(rf).get("settings", "load_pattern", "type") == "agentic_inference"
                                  for rf, _t in fixed)
    with_acc = {t for rf, t in fixed if scored_datasets(rf, external)}
    levels = sorted({t for _rf, t in fixed})
    missing, acc_missing = [], []
    for label, region in _MANDATORY:
        pts = [t for t in levels if (t <= curve.ultra_low_max if region is None else reg.region_of(t) == region)]
        if not pts:
            lo, hi = (1, curve.ultra_low_max) if region is None else reg.bounds[region]
            missing.append(f"{label} ({lo}-{hi})")
        elif not any(t in with_acc for t in pts):
            acc_missing.append(label)
    elected = cmax in levels
    if agentic:
        if offline:
            missing.append("no Offline point for an agentic benchmark (remove the max_throughput config)")
        need = curve.min_points.agentic
    elif offline:
        need = curve.min_points.dedicated_offline
        if not any(scored_datasets(rf, external) for rf in offline):
            acc_missing.append("Offline (the dedicated run)")
    else:
        need = curve.min_points.default
        if not elected:
            missing.append(f"an Offline point: a max_throughput config, or a config at C_max {cmax} to elect")
        elif cmax not in with_acc:
            acc_missing.append(f"Offline (the elected C_max point {cmax})")
    count = len(levels) + len(offline)
    problems = list(missing)
    if acc_missing:
        problems.append("accuracy at " + ", ".join(acc_missing))
    if count < need:
        problems.append(f"{count} point(s), at least {need} needed")
    if count > curve.max_points:
        problems.append(f"{count} points, at most {curve.max_points}")
    shown = ", ".join(str(t) for t in levels) + (" + Offline" if offline else "")
    if problems:
        return Fail(f"the planned curve lacks: {'; '.join(problems)} (planned: {shown}; {note})", file=plan.display,
                    observed=shown, expected="every mandatory region, the Offline point and the accuracy points")
    off = "a dedicated Offline run" if offline else ("no Offline point (agentic)" if agentic
                                                      else f"the C_max point {cmax} to elect as Offline")
    return Pass(f"{count} points ({shown}) cover ultra_low, low_concurrency, med_concurrency and high_concurrency with accuracy, and {off} ({note})")
