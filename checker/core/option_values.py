"""Option values checked before a run: a typo in --select, --ignore, --seed-set, --family or --severity
names nothing, so it is a usage problem with a did-you-mean, never a silent pass of a CI gate. Shared by
the command line (exit 2), the language server and the MCP server (a tool error)."""
from __future__ import annotations


class UsageProblem(ValueError):
    """A command-line value names nothing; the CLI turns it into exit code 2."""


def did_you_mean(word: str, choices) -> str:
    from checker.core.spellings import COMMAND_LINE_CUTOFF, near

    close = near(word, sorted(set(choices)), n=3, cutoff=COMMAND_LINE_CUTOFF)
    if not close:
        close = sorted(c for c in set(choices) if word and (word in c or c in word))[:3]
    return f" Did you mean: {', '.join(close)}?" if close else ""


def check_selectors(option: str, tokens: list[str], rules) -> None:
    """Every --select/--ignore token names a rule id, a family or an id prefix (or ALL)."""
    ids = {r.id for r in rules}
    families = {r.family for r in rules}
    for tok in tokens:
        if tok in ("ALL", "all") or tok in families or any(i.startswith(tok) for i in ids):
            continue
        raise UsageProblem(f"{option} {tok!r} names no rule, family or rule-id prefix."
                           f"{did_you_mean(tok, ids | families)} (`endpoints-checker rules` lists them)")


def check_choice(option: str, value: str, choices, what: str) -> None:
    if value not in set(choices):
        raise UsageProblem(f"{option} {value!r} is not a {what}.{did_you_mean(value, choices)}"
                           f" Known: {', '.join(sorted(set(choices)))}")


def check_seed_set(value: str, policy) -> None:
    """--seed-set names a set of the registry in use; an unusable registry is the rules' to report."""
    if not policy.available("seed_sets"):
        return
    ids = [e.id for e in policy.get("seed_sets").entries]
    if value not in ids:
        raise UsageProblem(f"--seed-set {value!r} is not in the seed-set registry"
                           f" (sets: {', '.join(ids)}).{did_you_mean(value, ids)}")


def split(values) -> tuple[str, ...]:
    """Repeated and comma-separated values as one tuple (``--select a,b --select c``); a string is one value
    (never read one character at a time)."""
    if isinstance(values, str):
        values = (values,)
    return tuple(t.strip() for v in values or () for t in str(v).split(",") if t.strip())
