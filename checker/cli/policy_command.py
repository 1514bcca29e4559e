"""``endpoints-checker policy``: the policy in use, the rules text it was taken from, each registry's source and age.

A bundled registry is a copy taken on a date; the published one moves on (seed sets are published at each
publication date, RULES.md §13). This command says how old the copy is and how to pass the published file;
it reads only the policy directory and the files given, never the network.
"""
from __future__ import annotations

import datetime as _dt
import json

import click

from checker.cli.usage import InputError


@click.command("policy")
@click.option("--policy", "policy_dir", type=click.Path(file_okay=False), metavar="DIRECTORY",
              help="A policy directory instead of the bundled rules/policy/v1.0.")
@click.option("--seed-sets", "seed_sets", metavar="FILE", envvar="MLPERF_ENDPOINTS_SEED_SETS", show_envvar=True,
              help="Seed-set registry replacing the bundled seed_sets.yaml.")
@click.option("--approved-drafters", "approved_drafters", metavar="FILE", envvar="MLPERF_ENDPOINTS_APPROVED_DRAFTERS",
              show_envvar=True, help="Approved-drafter list replacing the bundled approved_drafters.yaml.")
@click.option("--today", "today", metavar="YYYY-MM-DD", envvar="ENDPOINTS_CHECKER_TODAY",
              help="The date ages are counted to (default: today; env ENDPOINTS_CHECKER_TODAY).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", help="Output format.")
def command(policy_dir, seed_sets, approved_drafters, today, fmt) -> None:
    """Show the policy in use: the rules text it was taken from, and each registry's source, date and age."""
    from checker.engine.policy import load_policy
    from checker.engine.policy_age import policy_age

    try:
        day = _dt.date.fromisoformat(today) if today else _dt.date.today()
    except ValueError:
        raise InputError(f"--today {today!r} is not a date (YYYY-MM-DD)") from None
    overrides = {k: v for k, v in (("seed_sets", seed_sets), ("approved_drafters", approved_drafters)) if v}
    info = policy_age(load_policy(policy_dir, overrides), day)
    if fmt == "json":
        click.echo(json.dumps(info, indent=2))
        return
    click.echo("\n".join(text_lines(info)))


def text_lines(info: dict) -> list[str]:
    """The policy's age in plain lines."""
    taken = info["taken_from"]
    out = [f"policy {info['edition']} ({info['version']}) from {info['directory']}"]
    if taken.get("rules_commit"):
        out.append(f"  taken from the rules text {taken['rules_commit']} of {taken.get('rules_date', '?')}"
                   + (f"; amended from {taken['amended']}" if taken.get("amended") else ""))
    else:
        out.append("  the policy directory does not record the rules text it was taken from (index.yaml taken_from)")
    for r in info["registries"]:
        out.append("")
        out.append(f"{r['name']}: {r['source']}")
        if r["bundled"]:
            age = f"{r['age_days']} days old on {info['today']}" if r["age_days"] is not None else "age unknown"
            out.append(f"  taken {r['taken'] or '(date not recorded)'}, {age}")
        else:
            out.append(f"  given with {r['option']} (or {r['env']})")
        if "problem" in r:
            out.append(f"  cannot be used: {r['problem']}")
            continue
        c = r["contents"]
        if r["name"] == "seed_sets":
            for w in c["windows"]:
                if w["window"] is None:
                    out.append(f"  set {w['set']}: no publication cohort (adoption cannot be checked)")
                else:
                    state = "closed" if w["closed"] else "open"
                    out.append(f"  set {w['set']}: adoptable {w['window'][0]} .. {w['window'][-1]} (window {state}; "
                               f"closes at {w['closes']})")
            if not c["adoptable_today"] and r["bundled"]:
                out.append(f"  no bundled set is adoptable on {info['today']}: the published registry is newer; pass it "
                           f"with {r['option']} FILE or {r['env']}=FILE")
        else:
            newest = f", newest approval {c['newest_approval']}" if c["newest_approval"] else ""
            out.append(f"  {c['entries']} entries{newest}")
    return out
