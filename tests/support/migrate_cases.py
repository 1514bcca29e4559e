"""Bring rule cases of the older whole-package form to the form tests/support/caserun.py runs.

Before, a case ran every rule and its FAIL findings were, by default, exactly its FAIL expectations, so
a case listed other rules' FAILs on its input and a new rule could break it. Now a case runs its own rule
(``caserun``). For each case file not yet marked with a ``scope`` this script:

- keeps it a whole-package case (``scope: package`` with a ``reason``) when what it asserts about other
  rules is its point: it says what another rule's message or line is, or that another rule SKIPs or PASSes
  beside its own (a consequence, a rule standing aside), or its description names the other rule; and when
  its own rule's findings differ once that rule runs alone (an interaction the engine makes);
- else drops the expectations of other rules (FAILs it listed only because every FAIL had to be listed),
  the ``run.select``/``run.ignore`` (the case now selects its own rule) and ``fails_exactly: false``, and,
  where that flag hid FAILs of its own rule, adds them, so its own rule's findings are exact; a rule whose
  only FAIL expectations went that way gets the input as a case of its own, in its family's folder.

Every migrated case is run in its new form and must pass (its old form is run first: a case that fails
as it stands is left alone and listed). Files are edited as text, so comments and layout stay.

    python tests/support/migrate_cases.py            # migrate every case under rules/*/cases
    python tests/support/migrate_cases.py PATH...    # only these case files (or folders)
    python tests/support/migrate_cases.py --dry-run  # say what would change, write nothing
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
for _p in (REPO, HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import yaml  # noqa: E402

from casefixtures import PLACEHOLDERS, all_case_files, case_rel, load_case  # noqa: E402
from caserun import case_rule, check_case, run_case  # noqa: E402

#: (case file, its old content, the FAIL expectations of other rules it no longer holds), in this run
DROPPED: list = []
#: expectation keys that say what a finding holds, beyond which rule, status and subject
DETAIL_KEYS = ("message", "line", "fixes")


def _check(case: dict, rule_id: str) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="migrate-case-") as tmp:
        return check_case(case, run_case(case, tmp, rule_id), rule_id)


def _own_fails(case: dict, rule_id: str) -> list:
    """The FAIL findings of the case's rule when it runs alone."""
    with tempfile.TemporaryDirectory(prefix="migrate-case-") as tmp:
        report = run_case(case, tmp, rule_id)
    return [f for f in report.findings if f.rule_id == rule_id and f.status.value == "FAIL"]


def _unexpand(text: str) -> str:
    for k, v in sorted(PLACEHOLDERS.items(), key=lambda kv: -len(kv[1])):
        text = text.replace(v, k)
    return text


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def point_of_others(case: dict, rule_id: str) -> bool:
    """Whether what the case asserts about other rules is its point (see the module's docstring)."""
    others = [e for e in case.get("expect") or [] if e["rule"] != rule_id]
    desc = str(case.get("description") or "")
    return any(e["status"] != "FAIL" or any(k in e for k in DETAIL_KEYS) or e["rule"] in desc for e in others)


def package_reason(case: dict, rule_id: str) -> str:
    """Why a case stays a whole-package case, from what it asserts about the other rules."""
    by_status: dict[str, list[str]] = {}
    for e in case.get("expect") or []:
        if e["rule"] != rule_id and e["rule"] not in by_status.get(e["status"], []):
            by_status.setdefault(e["status"], []).append(e["rule"])
    verbs = {"FAIL": "reports the consequence", "SKIP": "stands aside", "PASS": "still passes"}
    plural = {"FAIL": "report the consequence", "SKIP": "stand aside", "PASS": "still pass"}
    parts = [f"{_and(rules)} {(verbs if len(rules) == 1 else plural)[status]}"
             for status, rules in sorted(by_status.items(), key=lambda kv: ("FAIL", "SKIP", "PASS").index(kv[0]))]
    return f"beside {rule_id}'s finding, {_and(parts)} on the same input"


# --- text edits: line spans from ruamel's positions, so comments and layout stay -------------------------

def _spans(text: str):
    from ruamel.yaml import YAML

    doc = YAML().load(text)
    lines = text.splitlines(keepends=True)
    keys = list(doc.keys())
    starts = [doc.lc.key(k)[0] for k in keys]

    def top_span(key):
        i = keys.index(key)
        end = starts[i + 1] if i + 1 < len(keys) else len(lines)
        return starts[i], _trim(lines, starts[i], end)

    return doc, lines, keys, top_span


def _trim(lines, start, end):
    """``end`` moved up past trailing blank lines (they separate blocks, they do not belong to one)."""
    while end > start + 1 and not lines[end - 1].strip():
        end -= 1
    return end


def edit(text: str, rule_id: str, *, package_reason_text: str | None = None, drop_others: bool = False,
         drop_select: bool = False, drop_exact_flag: bool = False, add: list[dict] = ()) -> str:
    """The case file's text with those changes: a ``scope: package`` and its reason inserted after the
    description, the expectations of other rules, ``run.select``/``run.ignore`` or ``fails_exactly``
    removed, expectations of its own rule added."""
    doc, lines, keys, top_span = _spans(text)
    delete: set[int] = set()
    inserts: dict[int, list[str]] = {}
    if drop_others:
        seq = doc["expect"]
        ex_start, ex_end = top_span("expect")
        item_lines = [seq.lc.item(i)[0] for i in range(len(seq))] + [ex_end]
        for i, e in enumerate(seq):
            if e["rule"] != rule_id:
                delete.update(range(item_lines[i], _trim(lines, item_lines[i], item_lines[i + 1])))
    if drop_select and "run" in keys:
        run = doc["run"]
        gone = [k for k in ("select", "ignore") if k in run]
        if gone and len(gone) == len(run):
            delete.update(range(*top_span("run")))
        elif gone and run.fa.flow_style():  # `run: {select: [...], options: {...}}`: written again, in flow
            start, end = top_span("run")
            delete.update(range(start, end))
            rest = {k: v for k, v in yaml.safe_load("".join(lines[start:end]))["run"].items() if k not in gone}
            inserts.setdefault(start, []).append(
                "run: " + yaml.safe_dump(rest, default_flow_style=True, width=10 ** 6, sort_keys=False))
        elif gone:
            rkeys = list(run.keys())
            run_end = top_span("run")[1]
            for k in gone:
                i = rkeys.index(k)
                end = run.lc.key(rkeys[i + 1])[0] if i + 1 < len(rkeys) else run_end
                delete.update(range(run.lc.key(k)[0], _trim(lines, run.lc.key(k)[0], end)))
    if drop_exact_flag and "fails_exactly" in keys:
        delete.update(range(*top_span("fails_exactly")))
    if add:
        at = top_span("expect")[1]
        indent = _item_indent(lines, doc["expect"])
        inserts.setdefault(at, []).extend(indent + "- " + _flow(e) + "\n" for e in add)
    if package_reason_text is not None:
        after = keys[keys.index("description") + 1] if "description" in keys and keys[-1] != "description" else None
        at = doc.lc.key(after)[0] if after else len(lines)
        block = yaml.safe_dump({"scope": "package", "reason": package_reason_text}, sort_keys=False,
                               width=10 ** 6, allow_unicode=True)
        inserts.setdefault(at, []).append(block)
    out = []
    for i, line in enumerate(lines + [""]):
        out.extend(inserts.get(i, []))
        if i < len(lines) and i not in delete:
            out.append(line)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return "".join(out)


def _item_indent(lines, seq) -> str:
    line, col = seq.lc.item(0)
    text = lines[line]
    dash = text.rfind("-", 0, col + 1) if "-" in text[:col + 1] else col
    return text[:max(dash, 0)]


def _flow(e: dict) -> str:
    """An added expectation as the cases write them: ``{rule: x, status: FAIL, subject: "..."}``."""
    import json

    return f"{{rule: {e['rule']}, status: {e['status']}, subject: {json.dumps(e['subject'], ensure_ascii=False)}}}"


# --- one case ------------------------------------------------------------------------------------------

def migrate(path: str, write: bool = True) -> tuple[str, str]:
    """(what was done, detail) for one case file."""
    case = load_case(path)
    rule_id = case_rule(path)
    if "scope" in case:
        return "unchanged", "already has a scope"
    others = [e for e in case.get("expect") or [] if e["rule"] != rule_id]
    run = case.get("run") or {}
    if not others and not any(k in run for k in ("select", "ignore")) and "fails_exactly" not in case:
        if not _check(case, rule_id):
            return "unchanged", ""
        # else an older case whose own rule's findings need the whole run (an engine-fed rule): see below
    legacy = dict(case, scope="package", reason="the older form",
                  fails_exactly="all" if case.get("fails_exactly", True) is not False else False)
    problems = _check(legacy, rule_id)
    if problems:
        return "FAILS", "as it stands: " + "; ".join(problems)[:300]
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    reason = package_reason(case, rule_id) if others and point_of_others(case, rule_id) else None
    add: list[dict] = []
    if reason is None:
        own = [e for e in case.get("expect") or [] if e["rule"] == rule_id]
        new_case = {k: v for k, v in case.items() if k != "fails_exactly"}
        new_case["expect"] = own
        new_run = {k: v for k, v in run.items() if k not in ("select", "ignore")}
        new_case.pop("run", None)
        if new_run:
            new_case["run"] = new_run
        problems = _check(new_case, rule_id)
        if problems and case.get("fails_exactly") is False:
            fails = _own_fails(new_case, rule_id)
            listed = [e for e in own if e["status"] == "FAIL"]
            from caserun import matches

            add = [{"rule": rule_id, "status": "FAIL", "subject": _unexpand(f.subject.label())}
                   for f in fails if not any(matches(f, e) for e in listed)]
            new_case["expect"] = own + add
            problems = _check(new_case, rule_id)
        if problems:
            reason = (f"{rule_id} needs the whole run: alone, its findings differ ({problems[0][:160]})")
            add = []
    if reason is None:
        new_text = edit(text, rule_id, drop_others=True, drop_select=True, drop_exact_flag=True, add=add)
    else:
        new_text = edit(text, rule_id, package_reason_text=reason)
    if reason is not None and case.get("fails_exactly") is False:  # exact for the rules it names, if they are
        exact_text = edit(new_text, rule_id, drop_exact_flag=True)
        if not _check(yaml.safe_load(exact_text), rule_id):
            new_text = exact_text
    new_case = yaml.safe_load(new_text)
    problems = _check(new_case, rule_id)
    if problems:
        return "FAILS", "after migration: " + "; ".join(problems)[:300]
    if write:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(new_text)
    if reason is not None:
        return "package", reason
    DROPPED.append((path, case, [e for e in others if e["status"] == "FAIL"]))
    dropped = sorted({e["rule"] for e in others})
    detail = (f"dropped {', '.join(dropped)}" if dropped else "") + (f"; added {len(add)} FAIL(s)" if add else "")
    return "rule", detail.strip("; ")


def _paths(args: list[str]) -> list[str]:
    if not args:
        return all_case_files()
    out = []
    for a in args:
        if os.path.isdir(a):
            for dirpath, _d, files in os.walk(a):
                out.extend(os.path.join(dirpath, f) for f in files if f.endswith(".yaml"))
        else:
            out.append(a)
    return sorted(os.path.abspath(p) for p in out)


def failing_rules() -> set[str]:
    """Rules with at least one FAIL expectation in some case (tests/engine/test_architecture.py wants one each)."""
    return {e["rule"] for p in all_case_files() for e in load_case(p).get("expect") or [] if e["status"] == "FAIL"}


def keep_failing_cases(write: bool = True) -> list[str]:
    """A rule whose only FAIL expectations were dropped from other rules' cases gets that case as its own:
    the same input in its family's folder, its FAILs listed (it runs alone). The files written."""
    from checker.engine.catalogue import get_rule

    have = failing_rules()
    out = []
    for path, case, fails in DROPPED:
        for rid in sorted({e["rule"] for e in fails} - have):
            rule = get_rule(rid)
            name = f"{os.path.basename(path)[:-5]}-in-{case_rule(path)}.yaml"
            dest = os.path.join(REPO, "rules", rule.module.split(".")[1], "cases", rid, name)
            new = {"description": f"{case.get('description')} (the input of {case_rule(path)}'s case)"}
            new.update({k: v for k, v in case.items() if k in ("base", "name", "patch")})
            run = {k: v for k, v in (case.get("run") or {}).items() if k not in ("select", "ignore")}
            if run:
                new["run"] = run
            with tempfile.TemporaryDirectory(prefix="migrate-case-") as tmp:
                report = run_case(dict(new, expect=[{"rule": rid, "status": "FAIL"}]), tmp, rid)
            new["expect"] = [{"rule": rid, "status": "FAIL", "subject": _unexpand(f.subject.label())}
                             for f in report.findings if f.rule_id == rid and f.status.value == "FAIL"]
            problems = _check(new, rid)
            if problems:
                print(f"FAILS    {rid}: no FAIL case left, and {case_rel(path)}'s input does not make one: {problems[0]}")
                continue
            have.add(rid)
            out.append(dest)
            if write:
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                with open(dest, "w", encoding="utf-8") as fh:
                    yaml.safe_dump(new, fh, sort_keys=False, width=110, allow_unicode=True)
            print(f"new      {os.path.relpath(dest, os.path.join(REPO, 'rules'))}: {rid}'s only FAIL case was in "
                  f"{case_rel(path)}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", help="case files or folders (default: every case under rules/*/cases)")
    ap.add_argument("--dry-run", action="store_true", help="say what would change; write nothing")
    ns = ap.parse_args(argv)
    os.environ.setdefault("ENDPOINTS_CHECKER_WEEK0", "model")  # as the suite runs checks (tests/conftest.py)
    tally: dict[str, int] = {}
    for path in _paths(ns.paths):
        what, detail = migrate(path, write=not ns.dry_run)
        tally[what] = tally.get(what, 0) + 1
        if what != "unchanged":
            print(f"{what:8} {case_rel(path)}{': ' + detail if detail else ''}")
    tally["new"] = len(keep_failing_cases(write=not ns.dry_run))
    print(", ".join(f"{n} {w}" for w, n in sorted(tally.items())))
    return 1 if tally.get("FAILS") else 0


if __name__ == "__main__":
    sys.exit(main())
