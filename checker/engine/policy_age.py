"""How old the policy in use is: the rules text it was taken from, and each registry's source, date and age.

``endpoints-checker policy`` prints it; the seed-set rules name the same facts when the bundled registry may
be older than the published one. A registry replaced by ``--seed-sets`` / ``--approved-drafters`` is the
user's file: its source is the path and only what the file itself says dates it (a seed set's publication
cohort). The seed-set rules word the same facts (``rules.shared.seed_values.stale_seed_note``).
"""
from __future__ import annotations

import datetime as _dt
import os
from typing import Any, Optional

from checker.domain import cohort_ids as cohorts

#: the registries whose age matters (each replaceable by its own option)
REGISTRIES = (("seed_sets", "--seed-sets", "MLPERF_ENDPOINTS_SEED_SETS"),
              ("approved_drafters", "--approved-drafters", "MLPERF_ENDPOINTS_APPROVED_DRAFTERS"))


def _date(value: Any) -> Optional[_dt.date]:
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _seed_sets(policy, today: _dt.date) -> dict:
    """Newest publication, adoption windows and whether they are closed, from the registry itself."""
    reg = policy.get("seed_sets")
    n = policy.get("cohort_rules").seed_set_adoption_cohorts if policy.available("cohort_rules") else 4
    sets = reg.bound_sets(n)
    out: dict[str, Any] = {"entries": len(sets), "published": str(reg.published) if reg.published else None}
    windows = []
    for sid, bs in sorted(sets.items()):
        if not bs.window:
            windows.append({"set": sid, "window": None})
            continue
        last = bs.window[-1]
        windows.append({"set": sid, "window": [str(c) for c in bs.window], "closes": str(last + 1),
                        "closed": (last + 1).date() <= today})
    out["windows"] = windows
    open_ = [w["set"] for w in windows if w["window"] and not w["closed"]]
    out["adoptable_today"] = open_
    return out


def _drafters(policy, today: _dt.date) -> dict:
    reg = policy.get("approved_drafters")
    approved = sorted({e.approved_cohort for e in reg.drafters})
    return {"entries": len(reg.drafters), "newest_approval": approved[-1] if approved else None}


def policy_age(policy, today: _dt.date) -> dict:
    """The edition, what it was taken from, and per registry: source, taken date, age in days, contents."""
    taken = dict(policy.provenance.get("taken_from") or {})
    registries = policy.provenance.get("registries") or {}
    from checker.engine.policy import default_policy_dir

    bundled = os.path.realpath(policy.directory) == os.path.realpath(default_policy_dir())
    where = f"bundled rules/policy/{policy.edition}" if bundled else policy.directory
    out: dict[str, Any] = {"edition": policy.edition, "version": policy.version, "directory": where,
                           "taken_from": taken, "today": today.isoformat(), "registries": []}
    for name, option, env in REGISTRIES:
        row: dict[str, Any] = {"name": name, "option": option, "env": env}
        override = policy.overrides.get(name)
        if override:
            row.update(source=override, bundled=False, taken=None, age_days=None)
        else:
            info = registries.get(name) if isinstance(registries.get(name), dict) else {}
            when = _date(info.get("taken"))
            row.update(source=f"bundled rules/policy/{policy.edition}/{name}.yaml: {info.get('source', 'source not recorded')}",
                       bundled=True, taken=when.isoformat() if when else None,
                       age_days=(today - when).days if when else None)
        if policy.available(name):
            row["contents"] = _seed_sets(policy, today) if name == "seed_sets" else _drafters(policy, today)
        else:
            prob = policy.problem(name)
            row["problem"] = prob.message if prob else "not loaded"
        out["registries"].append(row)
    return out
