"""Metric consistency of result_summary.json (RULES.md §2.7, §4.7; OFFICIAL-CHECKER.md §2.4, §3 H).

Each check is a plain function of (ResultSummary, LoadedFile, ...) so tests can run it on the
real run folders' files; the rules wrap them per point. Derivations live in the model layer
(``checker/load/models/summary.py``). Tolerances come from ``metrics.yaml``.
"""
from __future__ import annotations

import math

from checker.load.models.summary import percentile, percentile_spellings
from checker.domain.point_metrics import point_metric
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import show_number

NEEDS = ("result_summary", "policy:metrics")


def _num(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _invalid(lf, key: str) -> bool:
    """The loader dropped this field as the wrong type (result-file-valid reports it)."""
    return any(p.path and p.path[0] == key for p in (getattr(lf, "field_errors", None) or []))


def _skip_invalid(lf, key):
    return Skip(f"`{key}` has the wrong type (see result-file-valid)", reason="input-not-valid")


def close(stored: float, derived: float, rel: float) -> bool:
    if derived == 0:
        return stored == 0
    return abs(stored - derived) <= rel * abs(derived)


def check_duration(s, lf):
    if _invalid(lf, "duration_ns"):
        return _skip_invalid(lf, "duration_ns")
    d = s.duration_ns
    if d is None:
        return Fail("duration_ns is absent or null: no performance run was tracked (an accuracy-only run?)",
                    file=lf, path=("duration_ns",), observed=None, expected="> 0 ns")
    if d <= 0:
        return Fail(f"duration_ns is {d}", file=lf, path=("duration_ns",), observed=d, expected="> 0 ns")
    return Pass(f"duration {d / 1e9:.3f} s")


def check_accounting(s, lf):
    for key in ("n_samples_issued", "n_samples_completed", "n_samples_failed"):
        if _invalid(lf, key):
            return _skip_invalid(lf, key)
    issued, done, failed = s.n_samples_issued, s.n_samples_completed, s.n_samples_failed
    if done is None:
        return Fail("n_samples_completed is absent", file=lf, path=("n_samples_completed",), observed=None,
                    expected="an integer count")
    if issued is None:  # the official PointSummary defaults it to 0 and skips the check: absence contradicts nothing
        return Skip("n_samples_issued is not recorded: the accounting cannot be checked", reason="not-recorded")
    failed = 0 if failed is None else failed
    expected = "0 <= n_samples_failed <= n_samples_completed <= n_samples_issued, issued > 0"
    obs = {"issued": issued, "completed": done, "failed": failed}
    if issued <= 0:
        return Fail(f"n_samples_issued is {issued}: no performance sample was issued (an accuracy-only run?)",
                    file=lf, path=("n_samples_issued",), observed=obs, expected=expected)
    if min(done, failed) < 0 or done > issued:
        return Fail(f"completed {done} of {issued} issued: more completions than issues, or a negative count",
                    file=lf, path=("n_samples_completed",), observed=obs, expected=expected)
    if failed > done:
        return Fail(f"{failed} failed > {done} completed: the client counts every failure as a completion",
                    file=lf, path=("n_samples_failed",), observed=obs, expected=expected)
    ok = s.n_samples_succeeded
    if ok is not None and ok != done - failed:
        return Fail(f"n_samples_succeeded {ok} != completed {done} - failed {failed}", file=lf,
                    path=("n_samples_succeeded",), observed=ok, expected=done - failed)
    notes = []
    if issued > done:
        notes.append(f"{issued - done} in flight at the end were dropped")
    if failed:
        notes.append(f"{failed} failed requests are counted in the {done} completions (and in qps/latency)")
    return Pass(f"issued {issued}, completed {done}, failed {failed}" + (f"; {'; '.join(notes)}" if notes else ""))


def check_output_tokens(s, lf, rel):
    if _invalid(lf, "output_sequence_lengths"):
        return _skip_invalid(lf, "output_sequence_lengths")
    osl = s.output_sequence_lengths
    path = ("output_sequence_lengths", "total")
    if osl is None or osl.empty or osl.total is None:
        return Fail("output_sequence_lengths has no total (empty block: the run had no tokenizer)", file=lf,
                    path=path[:1], observed=None, expected="total output tokens >= 0")
    t = osl.total
    if not math.isfinite(t) or t < 0:
        return Fail(f"total output tokens is {t}", file=lf, path=path, observed=t, expected=">= 0, finite")
    stored = s.total_output_tokens
    if stored is not None and not (math.isfinite(stored) and close(stored, t, rel)):
        return Fail(f"stored total_output_tokens {show_number(stored)} != output_sequence_lengths.total {show_number(t)}", file=lf,
                    path=("total_output_tokens",), observed=stored, expected=t)
    return Pass(f"{show_number(t)} output tokens")


def check_stored(s, lf, key: str, derived, rel: float, how: str):
    """A stored derived value agrees with its recomputation within ``rel``; SKIP when not stored."""
    if _invalid(lf, key):
        return _skip_invalid(lf, key)
    stored = getattr(s, key)
    if stored is None:
        shown = "not derivable" if derived is None else show_number(derived)
        return Skip(f"no stored {key} to compare (derived: {shown})", reason="not-applicable")
    if not math.isfinite(stored):
        return Fail(f"stored {key} is {stored}", file=lf, path=(key,), observed=stored, expected="a finite number")
    if derived is None and any(p.path for p in (getattr(lf, "field_errors", None) or [])):
        return Skip(f"stored {key} {show_number(stored)} not compared: an input of {how} has the wrong type "
                    "(see result-file-valid)", reason="input-not-valid")
    if derived is None:
        return Fail(f"stored {key} {show_number(stored)} cannot be derived: {how} is not available", file=lf, path=(key,),
                    observed=stored, expected=how)
    if not close(stored, derived, rel):
        return Fail(f"stored {key} {show_number(stored)} differs from {how} = {show_number(derived)} by more than {rel:.0%}",
                    file=lf, path=(key,), observed=stored, expected=round(derived, 6))
    return Pass(f"{key} {show_number(stored)} = {how} ({show_number(derived)}) within {rel:.0%}")


def _spelling_fail(block, name, lf):
    bad = percentile_spellings(block)
    if bad:
        a, b = bad[0]
        return Fail(f"{name} percentile keys {a!r} and {b!r} disagree ({block.percentiles[a]} vs {block.percentiles[b]})",
                    file=lf, path=(name, "percentiles", b), observed={a: block.percentiles[a], b: block.percentiles[b]},
                    expected="one value per percentile")
    return None


def check_tpot_p90(s, lf, dedicated: bool):
    if _invalid(lf, "tpot"):
        return _skip_invalid(lf, "tpot")
    b = s.tpot
    if b is None or b.empty:
        if dedicated:
            return Skip("dedicated Offline run: TPOT is not required", reason="not-applicable")
        what = "absent" if b is None else "empty"
        return Fail(f"tpot is {what}: streaming was off, so TPOT (and tps_per_user) cannot be measured", file=lf,
                    path=("tpot",), observed=None if b is None else {}, expected="a TPOT stat block with percentile 90")
    bad = _spelling_fail(b, "tpot", lf)
    if bad is not None:
        return bad
    v, _ = percentile(b, 90)
    if v is None:
        return Fail("tpot has no 90th percentile (\"90.0\")", file=lf, path=("tpot", "percentiles"), observed=None,
                    expected="tpot.percentiles[\"90.0\"] > 0")
    if not math.isfinite(v) or v <= 0:
        key = "90.0" if "90.0" in b.percentiles else "90"
        return Fail(f"tpot p90 is {v}", file=lf, path=("tpot", "percentiles", key), observed=v,
                    expected="finite and > 0 ns")
    return Pass(f"TPOT p90 {v / 1e6:.4g} ms")


def check_percentiles(s, lf, name: str, required: bool, order: list[float], needed: tuple = ()):
    """A latency stat block: present (when ``required``), keys agree, the ``needed`` percentiles present, every
    percentile of ``order`` that is recorded finite, >= 0 and non-decreasing. A percentile not recorded and not
    needed is named in the PASS ("may be reported", R§4.1), never a FAIL."""
    if _invalid(lf, name):
        return _skip_invalid(lf, name)
    b = getattr(s, name)
    if b is None or b.empty:
        what = "absent" if b is None else "empty"
        if not required:
            return Skip(f"{name} is {what} and not required here: nothing to check", reason="not-recorded")
        return Fail(f"{name} is {what}" + (" (streaming off?)" if name == "ttft" else ""), file=lf, path=(name,),
                    observed=None if b is None else {},
                    expected=f"{name} percentiles {', '.join(show_number(p) for p in needed or order)}")
    bad = _spelling_fail(b, name, lf)
    if bad is not None:
        return bad
    vals, unrecorded = [], []
    for p in order:
        v, _ = percentile(b, p)
        key = next((k for k in (f"{float(p):.1f}", str(int(p)) if float(p).is_integer() else "") if k in (b.percentiles or {})),
                   f"{float(p):.1f}")
        path = (name, "percentiles", key)
        if v is None:
            if p in needed:
                return Fail(f"{name} has no p{show_number(p)}", file=lf, path=(name, "percentiles"), observed=None,
                            expected=f"percentile key {float(p):.1f}")
            unrecorded.append(f"p{show_number(p)}")
            continue
        if not _num(v) or not math.isfinite(v) or v < 0:
            return Fail(f"{name} p{show_number(p)} is {v}", file=lf, path=path, observed=v, expected="finite and >= 0 ns")
        vals.append((p, v, path))
    for (p1, v1, _), (p2, v2, path2) in zip(vals, vals[1:]):
        if v1 > v2:
            return Fail(f"{name} p{show_number(p1)} {show_number(v1)} > p{show_number(p2)} {show_number(v2)}: percentiles must not decrease", file=lf,
                        path=path2, observed={f"p{show_number(p1)}": v1, f"p{show_number(p2)}": v2}, expected=f"p{show_number(p1)} <= p{show_number(p2)}")
    if not vals:
        return Skip(f"{name} records none of the percentiles {', '.join(show_number(p) for p in order)}: nothing to check",
                    reason="not-recorded")
    tail = f" ({', '.join(unrecorded)} not recorded: optional)" if unrecorded else ""
    return Pass(f"{name} " + ", ".join(f"p{show_number(p)} {v / 1e6:.4g} ms" for p, v, _ in vals) + tail)


def check_throughput(s, lf, rel):
    """Stored qps and tps against the counters over the client's window."""
    results = []
    window = "legacy LoadGen window" if s.legacy_window else "duration_ns"
    for key, derived, how in (("qps", s.derived_qps, "completed" + (" - 1" if s.legacy_window else "") + f" / {window}"),
                              ("tps", s.derived_tps, f"output tokens / {window}")):
        if _invalid(lf, key):
            return _skip_invalid(lf, key)
        if getattr(s, key) is None:
            continue
        results.append(check_stored(s, lf, key, derived, rel, how))
    if not results:
        return Skip("neither qps nor tps is stored", reason="not-applicable")
    fails = [r for r in results if r.status == "FAIL"]
    if fails:
        return fails[0]
    return Pass("; ".join(r.message for r in results))


def _policy(ctx):
    return ctx.policy.get("metrics")


def _lf(point):
    return point.files["result_summary"]


@rule(id="metric-consistency-duration", title="Metric consistency duration", clause="R§9.1", severity="flag", scope="point", needs=NEEDS, official=True)
def metric_duration(point, ctx):
    """`duration_ns` is a positive number of nanoseconds.

    What it checks: result_summary.json `duration_ns` (the tracked performance window) is present
    and > 0. The client writes null for an accuracy-only run.
    Why: every rate (system_tps, qps) divides by it (R§9.1 metric consistency).
    How to fix: Copy performance/result_summary.json from the performance run of this point.
    """
    return check_duration(point.summary, _lf(point))


@rule(id="metric-consistency-accounting", title="Metric consistency accounting", clause="R§9.1", severity="flag", scope="point", needs=NEEDS, official=True)
def metric_accounting(point, ctx):
    """Sample counters add up the way the reference client writes them.

    What it checks: `n_samples_issued` > 0 and 0 <= `n_samples_failed` <= `n_samples_completed` <=
    `n_samples_issued`; `n_samples_succeeded`, when present, = completed - failed. The client
    counts every failed request inside `n_samples_completed` (it publishes ERROR and COMPLETE,
    RUN-FOLDER.md §7), so the official test "completed + failed == issued" rejects honest runs
    with failures and runs capped by max_duration (in-flight requests are dropped silently). We
    check the invariant the files really obey and report dropped and failed counts in the PASS.
    `n_samples_issued` not recorded is a SKIP (the official PointSummary defaults it to 0 and skips).
    Why: inconsistent counters mean the file was edited or assembled from different runs.
    How to fix: Copy result_summary.json unchanged from the run folder.
    """
    return check_accounting(point.summary, _lf(point))


@rule(id="metric-consistency-output-tokens", title="Metric consistency output tokens", clause="R§9.1", severity="flag", scope="point", needs=NEEDS, official=True)
def metric_output_tokens(point, ctx):
    """Total output tokens are stated, finite and non-negative.

    What it checks: `output_sequence_lengths.total` is present (an empty block means the run had
    no tokenizer), finite and >= 0; a stored `total_output_tokens` equals it within 1 %.
    Why: system_tps = output tokens / duration; without them the point has no primary metric.
    How to fix: Run the client with the model's tokenizer so OSL is recorded.
    """
    return check_output_tokens(point.summary, _lf(point), _policy(ctx).relative_tolerance)


@rule(id="metric-consistency-system-tps", title="Metric consistency system TPS", clause="R§9.1, R§4.1", severity="flag", scope="point", needs=NEEDS, official=True)
def metric_system_tps(point, ctx):
    """A stored `system_tps` equals output tokens / duration within 1 %.

    What it checks: when result_summary.json stores `system_tps`, it is finite and within
    metrics.yaml `relative_tolerance` of `output_sequence_lengths.total / (duration_ns / 1e9)`.
    SKIP (with the derived value) when nothing is stored.
    Why: the reported value must be the one the raw counters give (R§4.1, R§9.1).
    How to fix: Remove the hand-edited value or recompute it from the file's own counters.
    """
    s = point.summary
    return check_stored(s, _lf(point), "system_tps", s.derived_system_tps, _policy(ctx).relative_tolerance,
                        "output tokens / duration")


@rule(id="metric-consistency-tpot-p90", title="Metric consistency TPOT p90", clause="R§9.1, R§4.1", severity="flag", scope="point", needs=NEEDS + ("maybe:point_yaml",), official=True)
def metric_tpot_p90(point, ctx):
    """TPOT p90 is present, finite and positive (dedicated Offline exempt).

    What it checks: `tpot.percentiles["90.0"]` (or `"90"`; both spellings with different values
    FAIL) exists, is finite and > 0 ns. An empty `tpot` block (streaming off) FAILs except at a
    dedicated Offline point, which SKIPs.
    Why: tps_per_user = 1000 / tpot_p90_ms is the curve's X axis (R§4.1).
    How to fix: Run the point with streaming on and copy the client's result_summary.json.
    """
    return check_tpot_p90(point.summary, _lf(point), point.is_dedicated_offline)


@rule(id="metric-consistency-tps-per-user", title="Metric consistency TPS per user", clause="R§9.1, R§4.1",
      severity="flag", scope="point", needs=NEEDS, official=True)
def metric_tps_per_user(point, ctx):
    """A stored `tps_per_user` equals 1000 / tpot_p90_ms within 1 %.

    What it checks: when result_summary.json stores `tps_per_user`, it is finite and within
    `relative_tolerance` of 1000 / (TPOT p90 in ms). SKIP when nothing is stored.
    Why: the curve's X axis must come from the measured TPOT distribution (R§4.1).
    How to fix: Remove the hand-edited value or recompute it from the file's TPOT p90.
    """
    s = point.summary
    return check_stored(s, _lf(point), "tps_per_user", s.derived_tps_per_user, _policy(ctx).relative_tolerance,
                        "1000 / tpot_p90_ms")


@rule(id="metric-consistency-ttft", title="TTFT percentiles sane", clause="R§4.1, R§9.1", severity="flag", scope="point", needs=NEEDS + ("maybe:point_yaml",))
def metric_ttft(point, ctx):
    """TTFT has a p90, and the percentiles it records are finite, non-negative and ordered (p50 <= p90 <= p99).

    What it checks: the `ttft` block has a p90; each of metrics.yaml `ordered_percentiles` that it
    records is finite, >= 0 and non-decreasing; "90.0" and "90" spellings must agree. A p50 or p99
    not recorded is named in the PASS, not a failure. An empty block FAILs except at a dedicated
    Offline point (TTFT not required there, R§4.1), which SKIPs.
    Why: ttft_p90_ms is a reported metric (R§4.1); extra TTFT percentiles "may be reported"
    (R§4.1), so their absence contradicts nothing. A negative or disordered distribution is corrupt.
    How to fix: Copy result_summary.json unchanged from a streaming run.
    """
    pol = _policy(ctx)
    return check_percentiles(point.summary, _lf(point), "ttft", not point.is_dedicated_offline,
                             pol.ordered_percentiles, needed=(90,))


@rule(id="metric-consistency-latency", title="Latency percentiles sane", clause="R§4.1, R§9.1", severity="flag", scope="point", needs=NEEDS)
def metric_latency(point, ctx):
    """The end-to-end latency percentiles a summary records are finite, non-negative and ordered.

    What it checks: when result_summary.json has a `latency` block, each of metrics.yaml
    `ordered_percentiles` it records is finite, >= 0 and non-decreasing; key spellings agree. No
    block, or one recording none of them, is a SKIP: nothing to check.
    Why: no clause requires a latency block (R§4.1 reports TTFT, TPOT and throughput; the official
    PointSummary defaults it), and real summaries omit it; a block that is there and broken means a
    broken file.
    How to fix: Copy result_summary.json unchanged from the run folder.
    """
    return check_percentiles(point.summary, _lf(point), "latency", False, _policy(ctx).ordered_percentiles)


@rule(id="metric-consistency-throughput", title="qps and tps match the counters", clause="R§9.1", severity="flag", scope="point", needs=NEEDS)
def metric_throughput(point, ctx):
    """Stored `qps` and `tps` match completions and output tokens over the client's window, within 1 %.

    What it checks: qps = completed / duration (or (completed - 1) / legacy window when
    `legacy_loadgen_window_duration_ns` is set, RUN-FOLDER.md §7) and tps = output tokens over the
    same window; each stored, non-null value within `relative_tolerance`.
    Why: the client derives both from these counters; a mismatch means an edited file.
    How to fix: Copy result_summary.json unchanged from the run folder.
    """
    return check_throughput(point.summary, _lf(point), _policy(ctx).relative_tolerance)


@point_metric("tpot_p90_ms", "TPOT p90", "ms")
def _tpot_metric(point, ctx):
    s = point.summary
    return s.tpot_p90_ms if s is not None else None


@point_metric("qps", "QPS (derived)", "1/s")
def _qps_metric(point, ctx):
    s = point.summary
    return s.derived_qps if s is not None else None
