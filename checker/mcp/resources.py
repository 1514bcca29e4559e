"""What an agent can read without a tool call: the rule catalogue, the policy edition in use, the JSON Schemas.

Each is the server's own data (the bundled catalogue, rules/policy/<edition>/, schemas/ of the checkout),
never a client's file, and each is read-only.
"""
from __future__ import annotations

import json
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(REPO, "schemas")
SCHEME = "endpoints-checker"


def catalogue_json() -> str:
    """Every rule (id, title, family, severity, scope, clause, official) and every family, as JSON."""
    from checker.engine.catalogue import all_rules

    rules = sorted(all_rules(), key=lambda r: (r.family, r.id))
    return json.dumps({"families": sorted({r.family for r in rules}),
                       "rules": [r.catalogue_entry() for r in rules]}, indent=2)


def policy_json() -> str:
    """The policy edition a check uses (edition, version, directory) and the YAML text of each of its files."""
    from checker.engine.policy import default_policy_dir, load_policy

    directory = default_policy_dir()
    pol = load_policy(directory, {})
    files = {}
    for fn in sorted(os.listdir(directory)):
        if fn.endswith(".yaml"):
            with open(os.path.join(directory, fn), encoding="utf-8") as fh:
                files[fn] = fh.read()
    return json.dumps({"edition": pol.edition, "version": pol.version, "files": files}, indent=2)


def schema_files() -> list[str]:
    """The JSON Schemas under schemas/ (relative paths, sorted); none in an install without the checkout."""
    out = []
    for dirpath, _dirs, names in os.walk(SCHEMAS):
        for n in names:
            if n.endswith(".schema.json"):
                out.append(os.path.relpath(os.path.join(dirpath, n), SCHEMAS).replace(os.sep, "/"))
    return sorted(out)


def schema_text(rel: str) -> str:
    """One schema's text; ``rel`` must be one of ``schema_files()`` (nothing else is opened)."""
    if rel not in schema_files():
        raise ValueError(f"no schema {rel!r}")
    with open(os.path.join(SCHEMAS, rel), encoding="utf-8") as fh:
        return fh.read()


def schema_uri(rel: str) -> str:
    return f"{SCHEME}://schemas/{rel}"
