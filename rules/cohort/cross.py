"""Cross-submission rules (family ``cohort``): evaluated once per run when several submissions are checked.

They read the units' digests (``ctx.cohort_units``, built by the engine from ``checker.load.cohort_digest``), never
the files: each digest holds the values and file positions a rule needs (seed sets, target cohorts,
hardware descriptions). Outside the cohort pipeline (a multi-submission Package given straight to
the runner) the digests are built from the package.
"""
from __future__ import annotations

from pydantic import Field

from checker.core.findings import Subject
from checker.load.cohort_digest import Unit, digest_submission, loc_file
from checker.core.rule import Fail, Pass, Skip, rule
from checker.core.values import value_at
from rules.shared.strict import StrictModel


class CohortPolicy(StrictModel):
    """``cohort.yaml``: which system_desc.json fields describe the hardware (R§9.2 cross-submission review)."""

    system_fields: list[str] = Field(
        description="top-level system_desc.json fields one organisation's same-named systems must agree on across submissions")
    node_type_fields: list[str] = Field(description="node_types[] fields they must agree on")


def _units(pkg, ctx) -> list[dict]:
    units = ctx.cohort_units
    if units is None:  # a Package evaluated directly by the runner
        units = [digest_submission(s, Unit("submission", s.abspath, s.rel, s.org, s.name, s.name))
                 for s in pkg.submissions]
    return units


def _subject(u: dict, inner: Subject | None = None) -> Subject:
    if u["kind"] == "run-folder":
        return Subject(point=u["label"])
    return inner if inner is not None else Subject(u["label"])


def _file(loc: dict):
    return loc_file(loc)


@rule(id="submission-checked", title="Every submission was checked", clause="R§9.1", severity="reject", scope="cohort")
def submission_checked(pkg, ctx):
    """Every submission and run folder of the cohort was checked to the end.

    What it checks: each submission is checked in its own worker process; a worker that dies (a crash,
    the memory limit, a signal) or a check that raises is reported here, on that submission only,
    and the other submissions' results are unaffected.
    Why: fail closed. A submission whose check did not finish has no findings and must not read as
    clean (R§9.1 "Submission completeness").
    How to fix: Re-run the checker on that submission alone to see the error, and report it to the
    endpoints-checker maintainers.
    """
    outs = []
    units = _units(pkg, ctx)
    for u in units:
        if u.get("crashed"):
            outs.append(Fail(f"the check of {u['rel']} did not complete ({u['crashed']}); "
                             "it has no other findings in this report", file=u["rel"], subject=_subject(u),
                             observed=u["crashed"], expected="a completed check"))
    return outs or Pass(f"all {len(units)} submissions and run folders were checked")


@rule(id="submission-id-unique", title="Submission ids are unique", clause="R§8.1", severity="reject", scope="cohort")
def submission_id_unique(pkg, ctx):
    """One submission id names one submission across the whole cohort.

    What it checks: the `<submission_id>` directory names of every submission checked together,
    across organisations; each submission sharing an id with another is one finding.
    Why: MLCommons assigns each submission its own opaque id (R§8.1); two bundles under one id
    overwrite each other in the results pipeline, or one is a stale copy of the other.
    How to fix: Use the id MLCommons assigned to this submission, and remove stale copies.
    """
    by_id: dict[str, list[dict]] = {}
    units = [u for u in _units(pkg, ctx) if u["kind"] == "submission"]
    for u in units:
        by_id.setdefault(u["id"], []).append(u)
    outs = []
    for sid, group in sorted(by_id.items()):
        if len(group) < 2:
            continue
        paths = sorted(u["rel"] for u in group)
        for u in group:
            others = [p for p in paths if p != u["rel"]]
            outs.append(Fail(f"submission id {sid!r} is also used by {', '.join(others)}", file=u["rel"],
                             subject=_subject(u), observed=paths, expected="one submission per id"))
    return outs or Pass(f"{len(units)} submissions, {len(by_id)} distinct ids")


@rule(id="submission-seed-set-single", title="One seed set per submission", clause="R§4.6", severity="reject", scope="cohort")
def submission_seed_set_single(pkg, ctx):
    """All points of a submission bind the same seed set, across every system and curve.

    What it checks: the `seed_set` of every point.yaml of the submission; more than one distinct
    value is a finding that names the first point using each set.
    Why: a submission binds exactly one published seed set at first submission and stays bound to
    it (R§4.6); the per-curve check (`seed-set-consistency`) cannot see two curves that disagree.
    How to fix: Re-run the points of the other set with the submission's bound seed set.
    """
    outs = []
    for u in _units(pkg, ctx):
        sets = u.get("seed_sets") or {}
        if len(sets) < 2:
            continue
        names = sorted(sets)
        second = sets[names[1]]
        where = "; ".join(f"{n} at {sets[n]['file']}" for n in names)
        outs.append(Fail(f"{len(names)} seed sets bound: {where}", file=_file(second), path=("seed_set",),
                         subject=_subject(u), observed=names, expected="one seed set for the whole submission"))
    return outs or Pass("every submission binds one seed set")


@rule(id="target-cohort-matches", title="Target cohort matches the review", clause="R§4.6", severity="flag", scope="cohort")
def target_cohort_matches(pkg, ctx):
    """Every point's `target_cohort` is the cohort under review (`--cohort`).

    What it checks: with `--cohort YYYY-MM-C0|C1`, the `target_cohort` values of each submission's
    point.yaml files; each submission with another value is one finding naming the first such point.
    SKIP when no `--cohort` is given.
    Why: a submission targets one publication cohort (R§4.6); a bundle targeting another cohort is
    in the wrong review, or was not updated when it moved.
    How to fix: Set `target_cohort` to the cohort the submission is reviewed in, or move it to the
    review of the cohort it targets.
    """
    want = ctx.opt("cohort")
    if not want:
        return Skip("no --cohort given: nothing to compare target cohorts with", reason="not-applicable")
    outs = []
    for u in _units(pkg, ctx):
        other = sorted(v for v in (u.get("target_cohorts") or {}) if v != want)
        if other:
            loc = u["target_cohorts"][other[0]]
            outs.append(Fail(f"target_cohort {', '.join(other)} in a review of cohort {want}", file=_file(loc),
                             path=("target_cohort",), subject=_subject(u), observed=other, expected=want))
    return outs or Pass(f"every point targets cohort {want}")


def _hardware(h: dict, pol: CohortPolicy) -> dict:
    nodes = h.get("node_types")
    node_view = ([{k: n.get(k) for k in pol.node_type_fields} if isinstance(n, dict) else n for n in nodes]
                 if isinstance(nodes, list) else nodes)
    data = h.get("data") or {}
    return {**{k: data.get(k) for k in pol.system_fields}, "node_types": node_view}


def _diff(a: dict, b: dict) -> list[tuple]:
    """Paths of the differing values: top-level fields, then node_types[i].<field>."""
    out = []
    for k in sorted(set(a) | set(b)):
        va, vb = a.get(k), b.get(k)
        if va == vb:
            continue
        if k == "node_types" and isinstance(va, list) and isinstance(vb, list) and len(va) == len(vb):
            for i, (na, nb) in enumerate(zip(va, vb)):
                if isinstance(na, dict) and isinstance(nb, dict):
                    out += [(k, i, f) for f in sorted(set(na) | set(nb)) if na.get(f) != nb.get(f)]
                elif na != nb:
                    out.append((k, i))
        else:
            out.append((k,))
    return out


def _name(path: tuple) -> str:
    return path[0] + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path[1:])


@rule(id="cohort-hardware-consistency", title="Same hardware, same description", clause="R§9.2",
      severity="flag", scope="cohort", needs=("policy:cohort",))
def cohort_hardware_consistency(pkg, ctx):
    """A system an organisation submits more than once is described the same way each time.

    What it checks: within one organisation, systems with the same `system_name` (else the same
    results/<system> directory name) across submissions must agree on the hardware fields of
    system_desc.json listed in policy `cohort.yaml` (node count, processors, memory, accelerators,
    interconnect, cooling...); each later submission that differs from the first (by label) is a
    finding naming the fields.
    Why: R§9.2 makes cross-submission consistency for the same hardware a review ground; a system
    that gains accelerators or memory between submissions is a typo or a different system.
    How to fix: Describe the hardware identically in every submission, or give a different system a
    different `system_name`.
    """
    pol = ctx.policy.get("cohort")
    first: dict[tuple, tuple] = {}
    outs = []
    compared = 0
    for u in sorted(_units(pkg, ctx), key=lambda x: x["label"]):
        if u["kind"] != "submission" or not u.get("org"):
            continue
        for sysname, h in sorted((u.get("hardware") or {}).items()):
            key = (u["org"], h["key"])
            view = _hardware(h, pol)
            if key not in first:
                first[key] = (u, view)
                continue
            compared += 1
            ref_u, ref = first[key]
            diffs = _diff(view, ref)
            if diffs:
                names = [_name(p) for p in diffs]
                outs.append(Fail(
                    f"system {h['key']!r} is described differently than in {ref_u['label']}: {', '.join(names)}",
                    file=loc_file(h["loc"], h.get("positions", ())), path=diffs[0],
                    subject=Subject(u["label"], sysname),
                    observed={n: value_at(view, p) for n, p in zip(names, diffs)},
                    expected={n: value_at(ref, p) for n, p in zip(names, diffs)}))
    if outs:
        return outs
    return Pass(f"{compared} repeated system(s) described consistently" if compared
                else "no system appears in more than one submission of an organisation")
