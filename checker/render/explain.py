"""``explain``: a rule's documentation plus where it lives, the policy files it reads, its test cases
and one passing and one failing example taken from those cases; or a family's rule list.

Cases live beside their rules in a source checkout (rules/<family>/cases/<rule-id>/*.yaml); an
installed copy without them says so instead of guessing.
"""
from __future__ import annotations

import glob
import inspect
import json
import os
import re

from checker.core.rule import Rule

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RULES_DIR = os.path.join(REPO, "rules")
VALID_GOLDEN = os.path.join(REPO, "tests", "golden", "valid.json")


def _display(path: str) -> str:
    rel = os.path.relpath(path, REPO)
    return rel if not rel.startswith("..") else path


def where_defined(rule: Rule) -> str:
    """'rules/procedure/run.py:238 (rules.procedure.run.run_complete)'."""
    func = inspect.unwrap(rule.func)
    try:
        path = inspect.getsourcefile(func) or ""
        line = inspect.getsourcelines(func)[1]
        return f"{_display(path)}:{line} ({func.__module__}.{func.__name__})"
    except (OSError, TypeError):
        return f"{func.__module__}.{func.__name__}"


def policy_files(rule: Rule, policy_dir: str | None = None) -> list[str]:
    """Policy files the rule reads: its metadata names every one (tests/engine/test_architecture.py checks it)."""
    from checker.engine.policy import default_policy_dir

    directory = policy_dir or default_policy_dir()
    return [_display(os.path.join(directory, f"{n}.yaml")) for n in rule.policies]


def _load_yaml(path: str):
    """A case file's values, read with the checker's own YAML reader (run time needs no PyYAML); None when
    it cannot be read."""
    from checker.load.yaml_reader import YamlLoadError, parse_yaml

    try:
        with open(path, encoding="utf-8") as fh:
            return parse_yaml(fh.read(), want_positions=False).data
    except (OSError, UnicodeDecodeError, YamlLoadError):
        return None


def _expects(case, rule_id: str, status: str) -> dict | None:
    for e in (case or {}).get("expect") or []:
        if isinstance(e, dict) and e.get("rule") == rule_id and e.get("status") == status:
            return e
    return None


def _case_dir(rule: Rule) -> str:
    """rules/<family package>/cases/<rule-id>"""
    return os.path.join(RULES_DIR, rule.module.split(".")[1], "cases", rule.id)


def cases_for(rule: Rule) -> list[str]:
    return sorted(glob.glob(os.path.join(glob.escape(_case_dir(rule)), "*.yaml")))


def _find_example(rule_id: str, status: str, paths: list[str], severity: str | None = None):
    """(path, case, expectation): the first of ``paths`` whose case expects ``status`` of the rule,
    preferring one at the rule's own severity."""
    fallback = None
    for path in paths:
        case = _load_yaml(path)
        e = _expects(case, rule_id, status)
        if e is None:
            continue
        if e.get("severity") in (None, severity):
            return path, case, e
        fallback = fallback or (path, case, e)
    return fallback


def _example_lines(title: str, found) -> list[str]:
    from checker.render.as_written import flow

    path, case, e = found
    out = [f"{title} ({_display(path)}): {case.get('description', '').strip()}"]
    if case.get("base", "valid") != "valid":
        out.append(f"  base: {case['base']}")
    for op in case.get("patch") or []:
        out.append(f"  change: {flow(op)}")
    if (case.get("run") or {}):
        out.append(f"  run with: {flow(case['run'])}")
    shown = f"  gives: {e['status']}"
    if e.get("message"):
        shown += f" … {e['message']} …"
    out.append(shown)
    return out


def _valid_golden_pass(rule_id: str) -> str | None:
    try:
        with open(VALID_GOLDEN, encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, ValueError):
        return None
    for f in doc.get("findings", []):
        if f.get("rule_id") == rule_id and f.get("status") == "PASS":
            return f.get("message")
    return None


def examples(rule: Rule) -> list[str]:
    if not glob.glob(os.path.join(glob.escape(RULES_DIR), "*", "cases")):
        return ["cases: not bundled with this installation (a source checkout has rules/<family>/cases/<rule-id>/)"]
    own = cases_for(rule)
    out = [f"cases: {len(own)} in {_display(_case_dir(rule))}/" if own else "cases: none of its own"]
    others = sorted(set(glob.glob(os.path.join(glob.escape(RULES_DIR), "*", "cases", "*", "*.yaml"))) - set(own))
    passing = _find_example(rule.id, "PASS", own)
    msg = _valid_golden_pass(rule.id) if passing is None else None
    if passing is not None:
        out += _example_lines("passing example", passing)
    elif msg:
        out.append(f"passing example (fixtures/valid, the bundled valid package): PASS … {msg}")
    elif (passing := _find_example(rule.id, "PASS", others)) is not None:
        out += _example_lines("passing example", passing)
    failing = _find_example(rule.id, "FAIL", own + others, rule.severity.value)
    if failing is not None:
        out += _example_lines("failing example", failing)
    return out


def explain_rule(rule: Rule) -> str:
    head = [
        f"{rule.id} — {rule.title}",
        f"family: {rule.family} · severity: {rule.severity.value} · scope: {rule.scope} · clause: {rule.clause}"
        + (" · official id" if rule.official else " · endpoints-checker rule"),
        f"defined in: {where_defined(rule)}",
    ]
    pols = policy_files(rule)
    head.append("policy files: " + (", ".join(pols) if pols else "none"))
    from checker.core.rule_pages import rule_url

    url = rule_url(rule.family, rule.id)
    if url:
        head.append(f"rule page: {url}")
    body = inspect.cleandoc(rule.doc)
    return "\n".join(head + [""] + [body, ""] + examples(rule)) + "\n"


def explain_family(family: str, rules: list[Rule]) -> str:
    rs = sorted((r for r in rules if r.family == family), key=lambda r: r.id)
    w = max(len(r.id) for r in rs)
    mods = sorted({r.func.__module__ for r in rs})
    lines = [f"family {family}: {len(rs)} rules in {', '.join(mods)}", ""]
    lines += [f"  {r.id:<{w}}  {r.severity.value:<13}  {r.title}" for r in rs]
    lines += ["", "`endpoints-checker explain RULE` prints one rule in full."]
    from checker.core.rule_pages import page_url

    url = page_url(f"{family}.md")
    if url:
        lines.append(f"family page: {url}")
    return "\n".join(lines) + "\n"
