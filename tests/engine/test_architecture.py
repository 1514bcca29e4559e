"""The layout the project promises: one family per package, one importer of ``rules``, cases for every rule."""
from __future__ import annotations

import ast
import os

import yaml

from casefixtures import REPO, all_case_files, case_rel
from checker.engine.catalogue import all_rules, load_catalogue

#: rules whose FAIL cannot be a fixture case (a patch of a base package), with the test that covers it
NO_FAILING_CASE = {
    "file-unreadable": ("tests/load/test_hostile.py", "FIFOs, devices and unreadable entries are built on the fly"),
    "file-too-large": ("tests/load/test_hostile.py", "a file over the size cap is generated, not stored"),
    "file-encoding": ("tests/load/test_hostile.py", "invalid UTF-8 bytes cannot be written by a YAML patch"),
    "nesting-too-deep": ("tests/load/test_hostile.py", "a 65-level document is generated"),
    "alias-budget": ("tests/load/test_hostile.py", "an alias bomb is generated"),
    "duplicate-key": ("tests/load/test_hostile.py", "a YAML patch cannot write a duplicate key"),
    "integer-too-long": ("tests/load/test_hostile.py", "a 65-digit integer is generated"),
    "path-exists": ("tests/cli/test_cli.py", "a PATH argument that does not exist is not a package patch"),
    "agentic-accuracy": ("tests/rules/test_accuracy.py", "needs a policy edition without agentic targets"),
    "run-folder-recognised": ("tests/rules/test_run_folder.py", "a folder that is not a run folder at all"),
    "submission-checked": ("tests/engine/test_cohort.py", "needs a worker process that dies"),
}


def _failing_cases() -> dict[str, int]:
    out: dict[str, int] = {}
    for path in all_case_files():
        with open(path, encoding="utf-8") as fh:
            case = yaml.safe_load(fh)
        for exp in case.get("expect") or []:
            if exp.get("status") == "FAIL":
                out[exp["rule"]] = out.get(exp["rule"], 0) + 1
    return out


def test_every_rule_has_a_failing_case_or_a_reasoned_exemption():
    failing = _failing_cases()
    ids = {r.id for r in all_rules()}
    missing = sorted(i for i in ids if i not in failing and i not in NO_FAILING_CASE)
    assert not missing, f"rules without a FAIL case: {missing}"
    stale = sorted(i for i in NO_FAILING_CASE if i in failing or i not in ids)
    assert not stale, f"exemptions no longer needed (or for unknown rules): {stale}"
    for rid, (test_file, _why) in NO_FAILING_CASE.items():
        with open(os.path.join(REPO, test_file), encoding="utf-8") as fh:
            assert rid in fh.read(), f"{rid}: {test_file} does not exercise it"


def test_each_case_lives_in_its_rules_family():
    cat = load_catalogue()
    for path in all_case_files():
        rid = case_rel(path).split(os.sep)[0]
        rule = cat.rule(rid)
        assert rule is not None, f"{path}: {rid!r} is not a rule id"
        family_dir = os.path.relpath(path, os.path.join(REPO, "rules")).split(os.sep)[0]
        assert rule.module.split(".")[1] == family_dir, f"{path}: {rid} lives in {rule.module}"


def _py_files(top: str):
    for dirpath, dirnames, files in os.walk(os.path.join(REPO, top)):
        dirnames[:] = [d for d in dirnames if d not in ("cases", "policy", "__pycache__")]
        for fn in files:
            if fn.endswith(".py"):
                yield os.path.join(dirpath, fn)


def _imports(path: str) -> set[str]:
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
    return out


def test_checker_imports_rules_in_exactly_one_module():
    importers = sorted(os.path.relpath(p, REPO) for p in _py_files("checker")
                       if any(m == "rules" or m.startswith("rules.") for m in _imports(p)))
    assert importers == ["checker/engine/catalogue.py"], importers


def test_rules_never_import_the_engine_the_cli_or_a_renderer():
    for path in _py_files("rules"):
        bad = sorted(m for m in _imports(path) if m.startswith(("checker.engine", "checker.cli", "checker.render")))
        assert not bad, f"{os.path.relpath(path, REPO)} imports {bad}"


def test_core_imports_nothing_of_the_project_but_core():
    for path in _py_files(os.path.join("checker", "core")):
        bad = sorted(m for m in _imports(path) if m.startswith(("checker.", "rules")) and not m.startswith("checker.core"))
        assert not bad, f"{os.path.relpath(path, REPO)} imports {bad}"


def test_no_rule_outside_a_family_package():
    cat = load_catalogue()
    families = {f.package for f in cat.families}
    for path in _py_files("rules"):
        rel = os.path.relpath(path, os.path.join(REPO, "rules")).split(os.sep)
        with open(path, encoding="utf-8") as fh:
            holds_rule = "@rule(" in fh.read()
        if holds_rule:
            assert len(rel) == 2 and rel[0] in families, f"rules/{'/'.join(rel)} holds a rule outside a family"
    # and the catalogue found every rule in a listed module
    for r in cat.rules:
        fam = cat.family(r.family)
        assert r.module == f"rules.{fam.package}.{r.module.rsplit('.', 1)[1]}"
        assert r.module.rsplit(".", 1)[1] in fam.modules


def test_every_rule_module_is_listed_by_its_family():
    cat = load_catalogue()
    for fam in cat.families:
        folder = os.path.join(REPO, "rules", fam.package)
        with_rules = set()
        for fn in os.listdir(folder):
            if fn.endswith(".py") and fn != "__init__.py":
                with open(os.path.join(folder, fn), encoding="utf-8") as fh:
                    text = fh.read()
                if "@rule(" in text or "rule(id=" in text:
                    with_rules.add(fn[:-3])
        assert with_rules <= set(fam.modules), f"{fam.package}: {sorted(with_rules - set(fam.modules))} not in MODULES"


def test_every_policy_file_a_rule_reads_is_in_its_metadata(monkeypatch):
    """Run the bundled packages, the real run folders and a cohort, recording each rule's policy reads."""
    import checker.engine.evaluate as ev
    from casefixtures import FIXTURES, REAL_RUNS
    from checker.core.policy import Policy
    from checker.engine.pipeline import run_check

    current: list = [None]
    read: dict[str, set] = {}
    original_eval, original_get, original_avail = ev.evaluate, Policy.get, Policy.available

    def evaluate(rule, obj, ctx, selected=True):
        current[0] = rule
        try:
            return original_eval(rule, obj, ctx, selected)
        finally:
            current[0] = None

    def note(name):
        if current[0] is not None:
            read.setdefault(current[0].id, set()).add(name)

    def get(self, name):
        note(name)
        return original_get(self, name)

    def available(self, name):
        note(name)
        return original_avail(self, name)

    monkeypatch.setattr(ev, "evaluate", evaluate)
    monkeypatch.setattr(Policy, "get", get)
    monkeypatch.setattr(Policy, "available", available)
    runs = [os.path.join(REAL_RUNS, n) for n in sorted(os.listdir(REAL_RUNS))]
    run_check([os.path.join(FIXTURES, "valid")])
    run_check([os.path.join(FIXTURES, "agentic")])
    run_check(runs[:1], options={"max_concurrency": 64, "seed_set": "A", "dataset_size": 100})
    run_check([os.path.join(FIXTURES, "valid"), os.path.join(FIXTURES, "agentic")] + runs, jobs=1)
    run_check([os.path.join(FIXTURES, "runs")])  # run folders assembled into a bundle (bundle family)
    run_check([os.path.join(FIXTURES, "plans")], options={"max_concurrency": 1024, "seed_set": "A"})  # pre-flight
    cat = load_catalogue()
    assert read, "no policy read was recorded"
    undeclared = {rid: sorted(names - set(cat.rule(rid).policies) - {"index"}) for rid, names in read.items()}
    undeclared = {k: v for k, v in undeclared.items() if v}
    assert not undeclared, f"rules reading policy files their metadata does not name: {undeclared}"
