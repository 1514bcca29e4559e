"""Warmup declaration rules (R§6.3): present, logs retained, salt, at most 24 h, data source.

The warmup block lives in point.yaml (`warmup:`); the salt flag the official checker reads is
`runtime_settings.warmup.salt`, with config.yaml `settings.warmup.salt` as a fallback.
"""
from __future__ import annotations

import re

from checker.load.models.client_config import config_warmup
from checker.load.models.keys import missing_hint, rename_for_missing
from checker.core.findings import Severity
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import is_int, show
from rules.procedure.policy import NEEDS, number_problem


def _block(point):
    lf = point.files["point_yaml"]
    w = lf.get("warmup")
    return lf, (w if isinstance(w, dict) else None), w


def _disabled(w: dict) -> bool:
    """Warmup declared as not run: zero duration and zero requests."""
    return w.get("duration_s") == 0 and w.get("requests_issued") == 0


def salt_state(point) -> tuple[bool | None, str, object, tuple]:
    """(salt on?, where it was read, LoadedFile, path)."""
    lf = point.files["point_yaml"]
    v = lf.get("runtime_settings", "warmup", "salt")
    if isinstance(v, bool):
        return v, "point.yaml runtime_settings.warmup.salt", lf, ("runtime_settings", "warmup", "salt")
    cf = point.files.get("config")
    warmup = config_warmup(cf)
    if warmup is not None and warmup.salt is not None:
        return warmup.salt, "config.yaml settings.warmup.salt", cf, ("settings", "warmup", "salt")
    return None, "not recorded", lf, ("runtime_settings",)


@rule(id="warmup-present", title="Warmup present", clause="R§6.3.3", severity="flag",
      scope="point", needs=("point_yaml", NEEDS), official=True, consequence_of=("unknown-key",))
def warmup_present(point, ctx):
    """point.yaml declares its warmup with the six R§6.3.3 fields.

    What it checks: a `warmup` mapping with `duration_s`, `requests_issued`, `requests_completed`,
    `data_source`, `concurrency` and `initialization_steps` (list in run_rules.yaml), counts that are
    non-negative integers with completed <= issued, and a zero concurrency only when no request was
    issued. A point without warmup declares zeros.
    Why: R§6.3.3 and R§9.1 "Warmup metadata" — warmup is optional but must be fully documented; the
    official checker only looks for the block.
    How to fix: Add the `warmup:` block to point.yaml (zeros and `data_source: none` when no warmup
    ran).
    """
    lf, w, rawv = _block(point)
    if w is None:
        text, at = missing_hint(lf, (), "warmup") if rawv is None else ("", None)
        why = "is missing" if rawv is None else f"is {show(rawv)}, not a mapping"
        return Fail(f"the warmup block {why}{text}", file=lf, path=at or ("warmup",), observed=show(rawv),
                    expected="warmup: {duration_s, requests_issued, requests_completed, data_source, concurrency, "
                             "initialization_steps}")
    required = ctx.policy.get("run_rules").warmup.required_fields
    missing = [f for f in required if w.get(f) is None or w.get(f) == "" or w.get(f) == []]
    if missing:
        hints = [(f, *missing_hint(lf, ("warmup",), f)) for f in missing]
        at = next((p for _, _, p in hints if p is not None), None)
        renames = [rename_for_missing(lf, ("warmup",), f) for f in missing]
        edits = sum(renames, ()) if all(renames) else ()
        return Fail(f"warmup lacks {', '.join(f + t for f, t, _ in hints)}", file=lf, path=at or ("warmup",),
                    observed=missing, expected=required, edits=edits,
                    **({"fix": "Rename " + ", ".join(f"`{e.path[-1]}` to `{e.new}`" for e in edits) + "."}
                       if edits else {}))
    probs = []
    for f in ("requests_issued", "requests_completed", "concurrency"):
        if not is_int(w[f]) or w[f] < 0:
            probs.append((f, f"warmup.{f} is {show(w[f])}, not a non-negative integer"))
    if not probs and w["requests_completed"] > w["requests_issued"]:
        probs.append(("requests_completed",
                      f"warmup.requests_completed {w['requests_completed']} > requests_issued {w['requests_issued']}"))
    if not probs and w["concurrency"] == 0 and w["requests_issued"] > 0:
        probs.append(("concurrency", f"warmup.concurrency is 0 but {w['requests_issued']} warmup requests were issued"))
    if probs:
        return Fail("; ".join(m for _, m in probs), file=lf, path=("warmup", probs[0][0]),
                    observed=w[probs[0][0]], expected="non-negative integers, completed <= issued")
    return Pass(f"warmup declared: {show(w['duration_s'])} s, {w['requests_issued']} requests")


@rule(id="warmup-logs-retained", title="Warmup logs retained", clause="R§6.3.2", severity="warn",
      scope="point", needs=("point_yaml",), official=True)
def warmup_logs_retained(point, ctx):
    """point.yaml declares the warmup logs retained (`warmup.logs_retained: true`).

    What it checks: `warmup.logs_retained` is true; a point declaring no warmup (zero duration and
    zero requests) passes. No warmup block: SKIP (warmup-present reports it).
    Why: R§6.3.2 — warmup requests are excluded from metrics but their logs must be kept for
    reviewers, who may cross-check them against the performance dataset.
    How to fix: Keep the warmup logs (events before TEST_STARTED) and set `warmup.logs_retained:
    true`, ideally with `link_logs`.
    """
    lf, w, _ = _block(point)
    if w is None:
        return Skip("no warmup block (see warmup-present)", reason="missing-input")
    if _disabled(w):
        return Pass("no warmup ran (zero duration and requests)")
    v = w.get("logs_retained")
    if v is True:
        return Pass("warmup logs retained")
    text, at = missing_hint(lf, ("warmup",), "logs_retained") if "logs_retained" not in w else ("", None)
    return Fail(f"warmup.logs_retained is {show(v) if 'logs_retained' in w else 'not declared'}{text}", file=lf,
                path=at or ("warmup", "logs_retained"), observed=v, expected=True)


@rule(id="warmup-salt", title="Warmup salt", clause="R§6.3.3", severity="warn", scope="point",
      needs=("point_yaml", "maybe:config"), official=True)
def warmup_salt(point, ctx):
    """Warns when the warmup salt is on: the warmup probably drew from the performance dataset.

    What it checks: `runtime_settings.warmup.salt` (else config.yaml `settings.warmup.salt`). Salt
    off or not recorded passes; salt on is a warning for reviewers (as in the official checker).
    warmup-data-source checks the opposite direction (performance data without salt).
    Why: R§6.3.3 — warmup must not use performance-dataset samples; if the client does, salting must
    be on, and reviewers cross-check the retained warmup logs.
    How to fix: Warm up from the accuracy dataset or synthetic prompts and turn the warmup salt off,
    or keep it on and document the warmup data source precisely.
    """
    on, src, lf, path = salt_state(point)
    if on:
        return Fail(f"warmup salt is on ({src}): the warmup likely used performance-dataset samples; reviewers will "
                    "cross-check the warmup logs", file=lf, path=path, observed=True, expected=False)
    return Pass(f"warmup salt {'off' if on is False else 'not recorded'} ({src})")


@rule(id="warmup-max-duration", title="Warmup at most 24 h", clause="R§6.3", severity="flag",
      scope="point", needs=("point_yaml", NEEDS))
def warmup_max_duration(point, ctx):
    """The declared warmup lasted at most 24 hours (86,400 s).

    What it checks: `warmup.duration_s` is a finite, non-negative number <= the limit in
    run_rules.yaml. No warmup block or no duration: SKIP (warmup-present reports it).
    Why: R§6.3 allows warmup of at most 24 h per point; the official checker only bounds it inside its
    schema and lets NaN through.
    How to fix: Shorten the warmup, or correct `warmup.duration_s` (seconds, from the first warmup
    request to TEST_STARTED).
    """
    lf, w, _ = _block(point)
    if w is None or "duration_s" not in w:
        return Skip("no warmup.duration_s (see warmup-present)", reason="missing-input")
    limit = ctx.policy.get("run_rules").warmup.max_duration_s
    v = w["duration_s"]
    prob = number_problem(v)
    if prob is not None:
        return Fail(f"warmup.duration_s {prob}", file=lf, path=("warmup", "duration_s"), observed=v,
                    expected=f"0..{limit:,.0f} s")
    if v > limit:
        return Fail(f"warmup.duration_s is {v:,} s, more than {limit:,.0f} s (24 h)", file=lf,
                    path=("warmup", "duration_s"), observed=v, expected=f"<= {limit:,.0f}")
    return Pass(f"warmup {v:,} s <= {limit:,.0f} s")


def _norm(s: str) -> str:
    return re.sub(r"[^a-z0-9]", "", s.lower())


def performance_dataset_names(point, ctx) -> list[str]:
    """Names that identify the point's performance dataset (models.yaml names/aliases, dataset_name)."""
    models = ctx.policy.get("models")
    names: set[str] = set()
    y = point.yaml
    declared = y.dataset if y is not None else None
    for key, d in models.datasets.items():
        if declared and declared in (key, d.name, *d.aliases):
            names |= {key, d.name, *d.aliases}
    mid = models.canonical(y.model_name if y is not None else None) or models.canonical(point.curve.name)
    if mid:
        pd = models.models[mid].performance_dataset
        names |= {pd.name, *pd.aliases}
    if declared:
        names.add(declared)
    if y is not None and isinstance(y.dataset_name, str):
        names.add(y.dataset_name)
    return sorted(n for n in names if len(_norm(n)) >= 4)


@rule(id="warmup-data-source", title="Warmup from the performance dataset is salted", clause="R§6.3",
      severity="flag", scope="point", needs=("point_yaml", "policy:models"))
def warmup_data_source(point, ctx):
    """A warmup whose `data_source` names the performance dataset has the warmup salt on.

    What it checks: `warmup.data_source` is compared (case- and punctuation-insensitively) with the
    names of the point's performance dataset (point.yaml `dataset`/`dataset_name`, and the model's
    performance dataset and aliases in models.yaml). When it names it, the warmup salt
    (`runtime_settings.warmup.salt`, else config.yaml `settings.warmup.salt`) must be true: a salt
    recorded off is a flag. A salt neither file records (config.yaml may be `concurrency: N` only)
    is a warning saying it could not be verified, not a flag.
    Why: R§6.3 — warmup must not use performance-dataset samples; if the client does, salting must be
    enabled (it is off by default). Only a recorded `salt: false` says it was not; a salt no file
    records contradicts nothing. The official checker does not test this.
    How to fix: Warm up from the accuracy dataset (where it differs), synthetic prompts or fixed text,
    or enable the warmup salt (`settings.warmup.salt: true`) and record it in point.yaml.
    """
    lf, w, _ = _block(point)
    src = w.get("data_source") if w is not None else None
    if not isinstance(src, str) or not src.strip():
        return Skip("no warmup.data_source (see warmup-present)", reason="missing-input")
    if _disabled(w):
        return Pass("no warmup ran (zero duration and requests)")
    names = performance_dataset_names(point, ctx)
    hit = next((n for n in names if _norm(n) in _norm(src)), None)
    if hit is None:
        return Pass("the warmup data source is not the performance dataset")
    on, where, _f, _p = salt_state(point)
    if on:
        return Pass(f"warmup uses the performance dataset ({hit!r}) with the salt on ({where})")
    if on is None:
        return Fail(f"warmup data_source {src!r} names the performance dataset ({hit!r}); whether the warmup salt "
                    "was on cannot be verified: neither point.yaml runtime_settings.warmup.salt nor config.yaml "
                    "settings.warmup.salt records it", file=lf, path=("warmup", "data_source"),
                    observed={"data_source": src, "salt": None}, expected="the warmup salt recorded",
                    severity=Severity.WARN,
                    fix="Record the salt the run used (`runtime_settings.warmup.salt: true` in point.yaml), or warm "
                        "up from another source.")
    return Fail(f"warmup data_source {src!r} names the performance dataset ({hit!r}) but the warmup salt is "
                f"{'off' if on is False else 'not recorded'} ({where})", file=lf, path=("warmup", "data_source"),
                observed={"data_source": src, "salt": on}, expected="salt on, or a warmup source other than the "
                                                                    "performance dataset")
