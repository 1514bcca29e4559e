"""``explain``: a rule's documentation plus the policy files it reads, how many test cases it has and one
passing and one failing example taken from those cases, as the YAML/JSON a submitter writes; or a family's
rule list. User-facing text: no source paths or module names.

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


def _clean(path: str) -> bool:
    """A case expecting no FAIL of any rule: a passing example no other finding contradicts (a quoted seed passes
    seed-runtime-match but value-spelling asks to unquote it: not an example to copy)."""
    case = _load_yaml(path)
    return not any(isinstance(e, dict) and e.get("status") == "FAIL" for e in (case or {}).get("expect") or [])


def _plain(path: str) -> bool:
    """A case that changes files and runs with the default options (what a submitter would reproduce)."""
    case = _load_yaml(path) or {}
    return bool(case.get("patch")) and not case.get("run")


def _example_lines(title: str, found) -> list[str]:
    """A case as what the submitter writes: each changed file's YAML or JSON (checker.render.case_example)."""
    from checker.render.as_written import flow
    from checker.render.case_example import written

    path, case, e = found
    out = [f"{title}: {case.get('description', '').strip()}"]
    base = case.get("base", "valid")
    out.append(f"  starting from {'the valid package (fixtures/valid)' if base == 'valid' else f'fixtures/{base}'}:")
    for op in case.get("patch") or []:
        out += ["    " + ln for ln in written(op)]
    if (case.get("run") or {}):
        out.append(f"  checked with: {flow(case['run'])}")
    shown = f"  gives: {e['status']}"
    if e.get("message"):
        shown += f" … {e['message']} …"
    out.append(shown)
    return out


def _valid_golden_pass(rule_id: str, family: str = "") -> str | None:
    """What the rule finds on fixtures/valid: its family's golden (rules/<family>/golden-valid.txt), else the
    golden JSON report."""
    prefix = f"{rule_id} PASS "
    for path in glob.glob(os.path.join(glob.escape(RULES_DIR), family or "*", "golden-valid.txt")):
        try:
            with open(path, encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith(prefix) and ": " in line:
                        return line.rstrip("\n").split(": ", 1)[1]
        except OSError:
            continue
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
    out = [f"test cases: {len(own)}" if own else "test cases: none of its own"]
    others = sorted(set(glob.glob(os.path.join(glob.escape(RULES_DIR), "*", "cases", "*", "*.yaml"))) - set(own))
    clean = [p for p in own if _clean(p)]
    # a change to the valid package first, then the valid package itself, then a case run with other options
    passing = _find_example(rule.id, "PASS", [p for p in clean if _plain(p)])
    msg = _valid_golden_pass(rule.id, rule.module.split(".")[1]) if passing is None else None
    if passing is None and not msg:
        passing = _find_example(rule.id, "PASS", clean)
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
    lines = [f"family {family}: {len(rs)} rules", ""]
    lines += [f"  {r.id:<{w}}  {r.severity.value:<13}  {r.title}" for r in rs]
    lines += ["", "`endpoints-checker explain RULE` prints one rule in full."]
    from checker.core.rule_pages import page_url

    url = page_url(f"{family}.md")
    if url:
        lines.append(f"family page: {url}")
    return "\n".join(lines) + "\n"
