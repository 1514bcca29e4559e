"""Materialise a fixture case: a base package plus a list of patches, checked against expectations.

A case file (``rules/<family>/cases/<rule-id>/<case>.yaml``) reads::

    description: r08 beside r8 is two directories for one concurrency
    base: valid                     # fixtures/<base>; or a real run folder: "real-runs/<name>" (fixtures/real-runs)
    patch:
      - copy: {from: "{curve}/r8", to: "{curve}/r08"}
      - set: {file: "{curve}/r8/point.yaml", path: [concurrency], value: 9}
      - delete: {file: "{curve}/r8/point.yaml", path: [warmup, logs_retained]}
      - remove: "{curve}/r8/config.yaml"
      - write: {file: "{curve}/r8/point.yaml", text: "concurrency: [\n"}     # or bytes_hex: "ff00"
      - append: {file: ..., text: "# more\n"}
      - symlink: {link: docs, target: /etc}
      - mkfifo: "{curve}/r8/point.yaml"
      - chmod: {path: "{curve}/r8", mode: 0}
      - sub: {file: events.jsonl, pattern: '^.*"sample.complete".*\\n', repl: "", count: 3}   # regex, multiline
      - truncate: {file: events.jsonl, bytes: -40}    # cut to N bytes (negative: drop from the end)
    run: {select: [...], ignore: [...], options: {...}, policy_overrides: {...}}  # relative paths: repo root
    expect:
      - {rule: duplicate-point, status: FAIL, subject: "valid/{system_name}/{model_name}"}
      # optional keys: severity, message (a substring), line, fixes (the texts --fix writes; []: none)
    fails_exactly: true             # default: the run's FAIL findings are exactly the FAIL expectations
                                    # (week0-check's only where the case expects one of them: elsewhere it
                                    # echoes the Week-0 verdict, which tests/conformance holds)

Placeholders: {curve} = results/<system>/<model>, {system} = results/<system>, {system_name},
{model_name}. Paths are relative to the package root. Patches use PyYAML/json on our own
trusted fixture data only.
"""
from __future__ import annotations

import json
import os
import shutil
from typing import Any

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
#: the rule that echoes the Week-0 verdict's unexplained ERRORs (rules/week0/check.py)
WEEK0_ECHO = "week0-check"
FIXTURES = os.path.join(REPO, "fixtures")
RULES_DIR = os.path.join(REPO, "rules")
#: a case lives in its family: rules/<family>/cases/<rule-id>/<case>.yaml
CASES = RULES_DIR

def _real_runs() -> str:
    """Real run folders written by the reference client, copied into the repository (fixtures/real-runs)."""
    return os.path.join(FIXTURES, "real-runs")


REAL_RUNS = _real_runs()

SYSTEM_NAME = "H200-SXM-141GBx8_TRT"
MODEL_NAME = "llama3_1-8b"
PLACEHOLDERS = {
    "{curve}": f"results/{SYSTEM_NAME}/{MODEL_NAME}",
    "{system}": f"results/{SYSTEM_NAME}",
    "{system_name}": SYSTEM_NAME,
    "{model_name}": MODEL_NAME,
}


def expand(s: Any) -> Any:
    if isinstance(s, str):
        for k, v in PLACEHOLDERS.items():
            s = s.replace(k, v)
    return s


def base_dir(base: str) -> str:
    if base.startswith("real-runs/"):
        return os.path.join(REAL_RUNS, base.split("/", 1)[1])
    return os.path.join(FIXTURES, base)


def load_case(path: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def materialise(case: dict, tmp: str) -> str:
    """Copy the base into ``tmp/<base name>`` and apply the patches; return the package path."""
    base = case.get("base", "valid")
    name = case.get("name") or os.path.basename(base.rstrip("/"))
    dest = os.path.join(tmp, name)
    shutil.copytree(base_dir(base), dest, symlinks=True)
    make_writable(dest)  # the source may be read-only (a packaged checkout); its copy must take patches
    for op in case.get("patch") or []:
        apply_patch(dest, op)
    return dest


def make_writable(root: str) -> None:
    """Give the owner write permission on a copied tree (copytree keeps read-only modes)."""
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | 0o200)
    os.chmod(root, os.stat(root).st_mode | 0o200)


def _load_data(path: str):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    return json.loads(text) if path.endswith(".json") else yaml.safe_load(text)


def _save_data(path: str, data) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        if path.endswith(".json"):
            json.dump(data, fh, indent=2)
            fh.write("\n")
        else:
            yaml.safe_dump(data, fh, sort_keys=False, width=110, allow_unicode=True)


def _walk_to(data, path):
    cur = data
    for p in path[:-1]:
        if isinstance(cur, dict):
            cur = cur.setdefault(p, {})
        else:
            cur = cur[p]
    return cur


def apply_patch(root: str, op: dict) -> None:
    (kind, arg), = op.items()
    j = lambda p: os.path.join(root, expand(p))  # noqa: E731
    if kind == "set":
        f = j(arg["file"])
        data = _load_data(f)
        path = arg["path"]
        if not path:
            data = arg["value"]
        else:
            _walk_to(data, path)[path[-1]] = arg["value"]
        _save_data(f, data)
    elif kind == "delete":
        f = j(arg["file"])
        data = _load_data(f)
        parent = _walk_to(data, arg["path"])
        del parent[arg["path"][-1]]
        _save_data(f, data)
    elif kind == "remove":
        p = j(arg)
        if os.path.islink(p) or os.path.isfile(p):
            os.unlink(p)
        elif os.path.isdir(p):
            shutil.rmtree(p)
    elif kind in ("write", "append"):
        f = j(arg["file"])
        os.makedirs(os.path.dirname(f), exist_ok=True)
        if os.path.islink(f) or (os.path.exists(f) and not os.path.isfile(f)):
            os.unlink(f) if os.path.islink(f) else shutil.rmtree(f)
        payload = bytes.fromhex(arg["bytes_hex"]) if "bytes_hex" in arg else arg["text"].encode("utf-8")
        if "repeat" in arg:
            payload = payload * int(arg["repeat"])
        with open(f, "ab" if kind == "append" else "wb") as fh:
            fh.write(payload)
    elif kind == "sub":  # regex substitution on a text file: {file, pattern, repl, count (0 = all)}
        import re

        f = j(arg["file"])
        with open(f, encoding="utf-8") as fh:
            text = fh.read()
        text = re.sub(arg["pattern"], arg.get("repl", ""), text, count=int(arg.get("count", 0)), flags=re.M)
        with open(f, "w", encoding="utf-8") as fh:
            fh.write(text)
    elif kind == "truncate":  # cut a file to its first N bytes: {file, bytes}; negative N cuts from the end
        f = j(arg["file"])
        size = os.path.getsize(f)
        n = int(arg["bytes"])
        os.truncate(f, n if n >= 0 else size + n)
    elif kind == "copy":
        src, dst = j(arg["from"]), j(arg["to"])
        if os.path.isdir(src):
            shutil.copytree(src, dst, symlinks=True)
        else:
            shutil.copy2(src, dst)
    elif kind == "move":
        shutil.move(j(arg["from"]), j(arg["to"]))
    elif kind == "mkdir":
        os.makedirs(j(arg), exist_ok=True)
    elif kind == "symlink":
        link = j(arg["link"])
        if os.path.lexists(link):
            shutil.rmtree(link) if os.path.isdir(link) and not os.path.islink(link) else os.unlink(link)
        os.symlink(expand(arg["target"]), link)
    elif kind == "mkfifo":
        p = j(arg)
        if os.path.lexists(p):
            os.unlink(p)
        os.mkfifo(p)
    elif kind == "chmod":
        os.chmod(j(arg["path"]), int(arg["mode"]))
    else:
        raise ValueError(f"unknown patch op {kind!r}")


def subject_label(finding) -> str:
    return finding.subject.label()


def matches(finding, exp: dict) -> bool:
    if finding.rule_id != exp["rule"] or finding.status.value != exp["status"]:
        return False
    if "subject" in exp and subject_label(finding) != expand(exp["subject"]):
        return False
    if "severity" in exp and finding.severity.value != exp["severity"]:
        return False
    if "message" in exp and expand(exp["message"]) not in finding.message:
        return False
    if "line" in exp and (finding.location is None or finding.location.line != exp["line"]):
        return False
    if "fixes" in exp and [e.new for e in finding.edits] != list(exp["fixes"]):
        return False  # the texts the automatic fix writes, in order ([]: no automatic fix)
    return True


def check_case(case: dict, report) -> list[str]:
    """Return a list of problems (empty when the report meets the case's expectations)."""
    problems = []
    expect = case.get("expect") or []
    for exp in expect:
        hits = [f for f in report.findings if matches(f, exp)]
        if len(hits) != 1:
            near = [f"{f.rule_id} {f.status.value} {subject_label(f)}: {f.message}" for f in report.findings
                    if f.rule_id == exp["rule"]][:6]
            problems.append(f"expected exactly one {exp}, found {len(hits)}; findings of that rule: {near}")
    if case.get("fails_exactly", True):
        allowed = [e for e in expect if e["status"] == "FAIL"]
        echo = {WEEK0_ECHO} - {e["rule"] for e in expect}
        for f in report.findings:
            if f.status.value == "FAIL" and f.rule_id not in echo and not any(matches(f, e) for e in allowed):
                problems.append(f"unexpected FAIL {f.rule_id} {subject_label(f)}: {f.message}")
    return problems


def run_case(case: dict, tmp: str):
    from checker.engine.pipeline import run_check

    path = materialise(case, tmp)
    run = dict(case.get("run") or {})
    if run.get("policy_overrides"):  # relative override files live under the repository (fixtures/overrides/)
        run["policy_overrides"] = {k: v if os.path.isabs(v) else os.path.join(REPO, v)
                                   for k, v in run["policy_overrides"].items()}
    try:
        report = run_check([path], **run)
    finally:
        _restore_perms(path)
    return report


def _restore_perms(root: str) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        for d in dirnames:
            p = os.path.join(dirpath, d)
            if not os.path.islink(p):
                try:
                    os.chmod(p, 0o755)
                except OSError:
                    pass


def case_roots() -> list[str]:
    """Every family's cases folder (rules/<family>/cases)."""
    roots = []
    for fam in sorted(os.listdir(RULES_DIR)):
        d = os.path.join(RULES_DIR, fam, "cases")
        if os.path.isdir(d):
            roots.append(d)
    return roots


def case_rel(path: str) -> str:
    """``<rule-id>/<case>.yaml``: a case file's name inside its family's cases folder."""
    parts = os.path.normpath(path).split(os.sep)
    return os.path.join(*parts[parts.index("cases") + 1:])


def all_case_files() -> list[str]:
    out = []
    for root in case_roots():
        for dirpath, _d, files in os.walk(root):
            for fn in files:
                if fn.endswith(".yaml"):
                    out.append(os.path.join(dirpath, fn))
    return sorted(out, key=case_rel)
