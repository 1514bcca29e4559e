"""Accuracy results: presence, file validity, completeness, run concurrency, coverage (R§4.3, R§5.3, R§6.6).

The gate itself (thresholds, sample counts, agentic targets) is in ``rules/accuracy/gate.py``.
"""
from __future__ import annotations

from rules.accuracy.view import accuracy_file, has_accuracy_run, point_accuracy
from checker.domain.regions import curve_regions as shared_curve_regions
from checker.core.rule import Fail, Pass, Skip, rule
from checker.domain.benchmark import is_agentic
from checker.core.values import is_int
from checker.domain.regions import REGION_LABELS

BANDS = ("ultra_low", "low_concurrency", "med_concurrency", "high_concurrency", "offline")
BAND_LABEL = {b: REGION_LABELS[b] for b in BANDS}


def curve_regions(curve):
    """(Regions or None, why-not): the curve family's derivation (``checker.domain.regions.curve_regions``,
    memoised on the curve), so accuracy bands and region rules can never disagree."""
    cr = shared_curve_regions(curve)
    if cr.regions is None:
        return None, cr.error or "regions cannot be computed"
    return cr.regions, ""


def point_bands(point, regions, agentic: bool) -> set[str]:
    """Mandatory bands a point's accuracy run can stand for."""
    c = point.concurrency
    if point.is_dedicated_offline:
        return set() if agentic else {"offline"}
    out = set()
    if isinstance(c, int) and 1 <= c <= 32:
        out.add("ultra_low")
    if isinstance(c, int) and regions is not None:
        r = regions.region_of(c)
        if r in ("low_concurrency", "med_concurrency", "high_concurrency"):
            out.add(r)
    return out


def _match(cands: dict[str, set[str]], bands: list[str]) -> dict[str, str]:
    """Maximum bipartite matching point -> band (Kuhn); deterministic by sorted names."""
    owner: dict[str, str] = {}
    for p in sorted(cands):
        _assign(p, cands, bands, owner, set())
    return {p: b for b, p in owner.items()}


def _assign(p: str, cands: dict[str, set[str]], bands: list[str], owner: dict[str, str], seen: set) -> bool:
    """Kuhn's augmenting path from ``p`` (a module function: a closure calling itself is a reference cycle)."""
    for b in bands:
        if b in cands[p] and b not in seen:
            seen.add(b)
            if b not in owner or _assign(owner[b], cands, bands, owner, seen):
                owner[b] = p
                return True
    return False


def coverage(curve, agentic: bool):
    """(assigned {band: [point names]}, missing bands, extra [(point, why)]) or None when regions fail."""
    regions, why = curve_regions(curve)
    acc_points = [p for p in curve.points if has_accuracy_run(p)]
    needed = list(BANDS[:4]) if agentic else list(BANDS)
    covered: dict[str, list[str]] = {}
    extra: list[tuple[str, str]] = []
    cands: dict[str, set[str]] = {}
    c_max = regions.c_max if regions is not None else None
    for p in acc_points:
        if p.offline == "elected" and not agentic and p.concurrency == c_max:
            if "high_concurrency" in covered:
                extra.append((p.name, "a second elected point"))
                continue
            covered["high_concurrency"] = covered["offline"] = [p.name]
            continue
        cands[p.name] = point_bands(p, regions, agentic) - set(covered)
    assigned = _match(cands, [b for b in needed if b not in covered])
    for name, band in assigned.items():
        covered[band] = [name]
    by_name = {p.name: p for p in acc_points}
    for name in sorted(set(cands) - set(assigned), key=lambda n: (by_name[n].concurrency or 0, n)):
        p = by_name[name]
        bands = point_bands(p, regions, agentic)
        if bands:
            holders = ", ".join(sorted({covered[b][0] for b in bands if b in covered}))
            extra.append((name, f"a second accuracy run for {'/'.join(BAND_LABEL[b] for b in sorted(bands, key=BANDS.index))}"
                                f" (already covered by {holders})"))
        else:
            region = regions.region_of(p.concurrency) if regions is not None and isinstance(p.concurrency, int) else None
            extra.append((name, f"at a point outside the mandatory bands ({region or 'no region'})"))
    missing = [b for b in needed if b not in covered]
    return regions, why, covered, missing, extra


@rule(id="accuracy-present", title="Accuracy results present", clause="R§6.6, R§9.1", severity="reject", scope="curve", official=True, needs=("has:points", "maybe:accuracy", "maybe:accuracy_legacy"))
def accuracy_present(curve, ctx):
    """The curve carries accuracy results at one point at least.

    What it checks: some point of the curve has `accuracy_results.json` (or a `results.json`
    holding `accuracy_scores`). The official checker looks for one file anywhere under results/;
    we ask it of every curve, since each benchmark model is gated separately.
    Why: accuracy is a hard gate (R§5, S§6.6); a curve without any accuracy run cannot pass it.
    How to fix: Run the accuracy phase (`--mode both`) at the mandatory points and copy
    accuracy/accuracy_results.json into each of those point directories.
    """
    have = [p.name for p in curve.points if accuracy_file(p) is not None]
    if not have:
        return Fail("no point of this curve carries accuracy_results.json", file=curve.rel,
                    observed="no accuracy results", expected="accuracy_results.json at the mandatory points")
    return Pass(f"accuracy results at {len(have)} point(s): {', '.join(have)}")


@rule(id="accuracy-valid", title="Accuracy results file", clause="R§6.6", severity="reject",
      scope="point", official=True, needs=("maybe-read:accuracy", "maybe-read:accuracy_legacy"))
def accuracy_valid(point, ctx):
    """`accuracy_results.json` parses into scored dataset entries.

    What it checks: the file is a mapping holding either the client's `accuracy_scores` list (each
    entry a mapping with a unique `dataset_name` and a `score`) or a dataset-keyed mapping; sample
    counts are non-negative integers; `unit_samples`/`num_samples` and `num_repeats`/`n_repeats`
    agree when both spellings are given; `total_samples` = unit x repeats; at most one inline
    (`dataset_type: performance`) entry.
    Why: every accuracy rule reads these entries by dataset name; a malformed file must be one
    precise finding, not a crash or a silent pass.
    How to fix: Copy accuracy/accuracy_results.json unchanged from the run folder; fix the field
    the finding names.
    """
    lf = accuracy_file(point)
    if lf is None:
        return Skip("no accuracy results at this point", reason="not-applicable")
    if lf.error is not None:  # a parse error: the needs SKIP every other refusal
        return Fail(f"{lf.rel} does not parse: {lf.error.message}", file=lf, observed=lf.error.message,
                    expected="valid JSON")
    _lf, acc = point_accuracy(point)
    if acc.problems:
        first = acc.problems[0]
        more = f" (+{len(acc.problems) - 1} more: " + "; ".join(p.message for p in acc.problems[1:4]) + ")" \
            if len(acc.problems) > 1 else ""
        return Fail(first.message + more, file=lf, path=first.path, observed=first.observed,
                    expected="an accuracy_scores list of scored entries, or a dataset-keyed mapping")
    names = ", ".join(e.name + (" (inline)" if e.inline else "") for e in acc.entries)
    return Pass(f"{len(acc.entries)} scored dataset(s) ({acc.shape} shape): {names}")


@rule(id="accuracy-complete", title="Accuracy scoring complete", clause="R§6.6", severity="reject",
      scope="point", needs=("maybe:accuracy", "maybe:accuracy_legacy"))
def accuracy_complete(point, ctx):
    """No accuracy entry says `complete: false`.

    What it checks: every entry of accuracy_results.json whose `complete` is given has it true.
    Why: the client sets `complete` false when the scorer did not see every sample; the scorer
    divides by the samples issued, so the score of an incomplete run is not the model's accuracy.
    The official checker ignores this field.
    How to fix: Re-run the accuracy phase to completion (check the run's report.txt for the
    missing responses) and copy the new file.
    """
    lf, acc = point_accuracy(point)
    if acc is None:
        return Skip("no loadable accuracy results at this point", reason="not-applicable")
    bad = [e for e in acc.entries if e.complete is False]
    if bad:
        e = bad[0]
        return Fail(f"accuracy entry {', '.join(repr(x.name) for x in bad)} has complete: false", file=lf,
                    path=e.key_path("complete"), observed=False, expected=True)
    stated = sum(1 for e in acc.entries if e.complete is True)
    return Pass(f"{stated} of {len(acc.entries)} entries state complete: true; none is incomplete")


@rule(id="accuracy-concurrency", title="Accuracy run at the point's concurrency", clause="R§5.3", severity="reject", scope="point",
      needs=("policy:models", "loaded:config", "maybe:point_yaml", "maybe:accuracy", "maybe:accuracy_legacy"),
      consequence_of=("point-config-agreement", "run-folder-concurrency-target"))
def accuracy_concurrency(point, ctx):
    """A single-turn accuracy run uses the concurrency of the point it belongs to.

    What it checks: when the point carries an accuracy run and its config.yaml sets
    `settings.load_pattern.type: concurrency`, `target_concurrency` equals the point's concurrency.
    Agentic curves (accuracy concurrency may differ) and points without config.yaml are skipped.
    Why: R§5.3: each single-turn accuracy run goes at the matching concurrency, on the same
    instance, immediately after its performance run. An accuracy-only run rewrites the config to
    concurrency 1 (RUN-FOLDER.md §6), which this catches. The finding is on point.yaml's
    `concurrency` where point.yaml states it (config.yaml is the client's record and never edited).
    How to fix: Re-run the point with `--mode both` so the accuracy phase reuses its load pattern.
    """
    if not has_accuracy_run(point):
        return Skip("no accuracy run at this point", reason="not-applicable")
    if is_agentic(point.curve, ctx.policy.get("models")):
        return Skip("agentic benchmark: the accuracy concurrency may differ (R§5.3)", reason="not-applicable")
    cfg = point.files["config"]
    lp = cfg.get("settings", "load_pattern")
    if not isinstance(lp, dict) or lp.get("type") != "concurrency":
        kind = lp.get("type") if isinstance(lp, dict) else None
        return Skip(f"config.yaml load pattern is {kind!r}, not a fixed concurrency", reason="not-applicable")
    target = lp.get("target_concurrency")
    path = ("settings", "load_pattern", "target_concurrency")
    if not is_int(target):
        return Fail(f"config.yaml target_concurrency is {target!r}, not an integer", file=cfg, path=path,
                    observed=target, expected=point.concurrency)
    if target != point.concurrency:
        yf = point.files.get("point_yaml")
        at = dict(file=yf, path=("concurrency",)) if yf is not None and yf.ok and isinstance(yf.data, dict) \
            and yf.get("concurrency") == point.concurrency else dict(file=cfg, path=path)
        return Fail(f"the accuracy run went at concurrency {target} (config.yaml settings.load_pattern."
                    f"target_concurrency), the point is at {point.concurrency}: only a re-run fixes it", **at,
                    observed=target, expected=point.concurrency)
    return Pass(f"accuracy run at concurrency {target}, as the point")


@rule(id="accuracy-coverage", title="Accuracy at the mandatory points", clause="R§4.3, R§5.3, R§9.1",
      severity="reject", scope="curve", needs=("policy:models", "maybe:accuracy", "maybe:point_yaml", "maybe:accuracy_legacy", "maybe:system_desc"), official=True)
def accuracy_coverage(curve, ctx):
    """One accuracy run in each of ultra_low, low_concurrency, med_concurrency, high_concurrency and offline.

    What it checks: points carrying an accuracy run are matched to the mandatory bands (ultra_low =
    concurrency 1..32; low_concurrency, med_concurrency, high_concurrency from the R§5.5 regions
    with C_min derived from the curve; offline = the dedicated Offline point). An elected Offline
    point at C_max covers high_concurrency and offline at once. Agentic curves need the four region bands only. Missing bands and extra runs
    (a second run in a band, or a run at a point outside the bands) are named with their points.
    Why: R§4.3/R§5.3 require N = 5 accuracy results (4 agentic), one per mandatory region plus
    Offline; an unmatched extra run is not part of the gate reviewers expect.
    How to fix: Run accuracy (`--mode both`) at one point per missing band, and drop the accuracy
    results from points that are not the band's accuracy point.
    """
    if not any(accuracy_file(p) is not None for p in curve.points):
        return Skip("no accuracy results on this curve (see accuracy-present)", reason="missing-input")
    agentic = is_agentic(curve, ctx.policy.get("models"))
    regions, why, covered, missing, extra = coverage(curve, agentic)
    labels = ", ".join(f"{BAND_LABEL[b]}={covered[b][0]}" for b in BANDS if b in covered)
    if regions is None and missing:
        return Skip(f"low_concurrency/med_concurrency/high_concurrency bands unknown: {why} (covered so far: {labels or 'none'})",
                    reason="missing-input")
    if missing or extra:
        parts = []
        if missing:
            parts.append("no accuracy run for " + ", ".join(BAND_LABEL[b] for b in missing))
        if extra:
            parts.append("extra accuracy run(s): " + "; ".join(f"{n} is {w}" for n, w in extra))
        first = next((p for p in curve.points if extra and p.name == extra[0][0]), None)
        lf = accuracy_file(first) if first is not None else None
        return Fail("; ".join(parts) + (f" (covered: {labels})" if labels else ""), file=lf or curve.rel,
                    observed={"covered": {BAND_LABEL[b]: v[0] for b, v in covered.items()},
                              "extra": [n for n, _ in extra]},
                    expected=[BAND_LABEL[b] for b in (BANDS[:4] if agentic else BANDS)])
    return Pass(f"one accuracy run per band: {labels}")
