"""The layout the project promises: one family per package, one importer of ``rules``, cases for every rule."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib

import grimp
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


def _contracts() -> dict:
    """The import-linter contracts of pyproject.toml, by id."""
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as fh:
        conf = tomllib.load(fh)["tool"]["importlinter"]
    return {c["id"]: c for c in conf["contracts"]}


def _graph(*packages: str):
    """grimp's graph of ``packages``: every import statement, at module level or inside a function."""
    return grimp.build_graph(*packages, cache_dir=None)


def _module_cycles(graph, ignored=()) -> list[list[str]]:
    """Every import cycle between modules (a package's ``__init__`` counts as a module), as sorted SCCs."""
    edges = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    for imp in ignored:
        importer, imported = (x.strip() for x in imp.split("#")[0].split("->"))
        edges.get(importer, set()).discard(imported)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles = []
    for root in sorted(edges):  # Tarjan, iteratively (no recursion limit on a long chain)
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    cycles.append(sorted(comp))
    return sorted(cycles)


def test_import_contracts_are_kept():
    """The layers of docs/architecture.md and no cycle between siblings, checked by import-linter."""
    lint = os.path.join(os.path.dirname(sys.executable), "lint-imports")
    proc = subprocess.run([lint, "--no-cache", "--config", os.path.join(REPO, "pyproject.toml")], cwd=REPO,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 kept, 0 broken" in proc.stdout, proc.stdout


def test_no_import_cycle_between_modules():
    """A cycle through a package's own ``__init__`` is not one between siblings: found here, lazy imports included."""
    ignored = _contracts()["acyclic"].get("ignore_imports", [])
    cycles = _module_cycles(_graph("checker", "rules"), ignored)
    assert not cycles, f"import cycles: {cycles}"


def test_every_package_of_checker_has_a_layer():
    layers = {name.strip() for layer in _contracts()["layers"]["layers"] for name in layer.split("|")}
    graph = _graph("checker", "rules")
    packages = {m for m in graph.find_children("checker") if graph.find_children(m)}
    assert packages <= layers, f"packages without a layer in pyproject.toml: {sorted(packages - layers)}"
    assert layers <= packages | {"rules"}, f"layers naming no package: {sorted(layers - packages - {'rules'})}"


def test_the_import_graph_sees_function_level_imports(tmp_path, monkeypatch):
    """grimp reads an import inside a function: a cycle made only of such imports is found."""
    pkg = tmp_path / "cyclepkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from cyclepkg import b\n    return b\n")
    (pkg / "b.py").write_text("def g():\n    from cyclepkg.a import f\n    return f\n")
    (pkg / "c.py").write_text("import cyclepkg.a\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert _module_cycles(_graph("cyclepkg")) == [["cyclepkg.a", "cyclepkg.b"]]
    # and in the project: discovery imports the mirror builder inside a function only
    details = _graph("checker").get_import_details(importer="checker.load.discovery",
                                                   imported="checker.load.mirror_build")
    with open(os.path.join(REPO, "checker", "load", "discovery.py"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert details and all(lines[d["line_number"] - 1].startswith("    ") for d in details), details


def test_checker_imports_rules_in_exactly_one_module():
    graph = _graph("checker", "rules")
    importers = sorted({m for r in graph.find_descendants("rules") | {"rules"}
                        for m in graph.find_modules_that_directly_import(r) if m.startswith("checker")})
    assert importers == ["checker.engine.catalogue"], importers


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


#: what only the engine writes, from a rule's needs (``checker.core.rule.NEED_KINDS``): a rule module holding one
#: hand-writes a missing-input skip the needs should declare
_ENGINE_SKIPS = {
    "a SKIP in the engine's words for a file or directory": re.compile(r'Skip(ped)?\(f"input (missing|not loaded|not valid): \{'),
    "the engine's input-not-loaded reason": re.compile(r'reason="input-not-loaded"'),
    "an outcome tested for being a SKIP to hand back": re.compile(r"isinstance\(\w+, Outcome\)"),
    "a (value, SKIP) pair": re.compile(r"return [\w.]+(, [\w.]+)*, Skip\("),
    "a helper's SKIP handed back": re.compile(r"if skip( is not None)?:\n\s+return skip\b"),
    "a directory listing checked (has:dir)": re.compile(r"\.dir_error is not None"),
    "a parse error told from a refusal (read:/maybe-read:)": re.compile(
        r'error\.code [!=]= "parse-error"\)?:\n\s+return Skip\('),
}
#: the one judgement left that reads like one: offline-point-present finds no Offline point among the point.yaml
#: files that loaded while others did not (a need could only SKIP the whole curve, even where it can judge)
_JUDGED_SKIPS = {("rules/curve/shape.py", "the engine's input-not-loaded reason")}


def test_no_rule_hand_writes_a_missing_input_skip():
    """The engine SKIPs a rule whose declared needs are not met (and turns a ``Skipped`` into its SKIP): no rule
    module repeats that check, hands a SKIP back from a helper or tests an outcome for one."""
    found = []
    for path in _py_files("rules"):
        rel = os.path.relpath(path, REPO).replace(os.sep, "/")
        if rel.endswith("/week0.py") or rel.startswith("rules/shared/official"):
            continue  # the Week-0 model reads files as the official checker does, and judges no rule
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        found += [f"{rel}: {what}" for what, pattern in _ENGINE_SKIPS.items()
                  if pattern.search(text) and (rel, what) not in _JUDGED_SKIPS]
    assert not found, "hand-written missing-input skips (declare the need, or raise Skipped):\n" + "\n".join(found)


def test_the_hand_written_skip_patterns_match_what_they_name():
    """Each pattern of ``_ENGINE_SKIPS`` finds the preamble it forbids (so the test above cannot pass vacuously)."""
    samples = {
        "a SKIP in the engine's words for a file or directory": 'return Skip(f"input not loaded: {lf.rel}")',
        "the engine's input-not-loaded reason": 'Skip("no file", reason="input-not-loaded")',
        "an outcome tested for being a SKIP to hand back": "if isinstance(p, Outcome):",
        "a (value, SKIP) pair": 'return None, Skip("no block", reason="missing-input")',
        "a helper's SKIP handed back": "    skip = _perf_only(rf)\n    if skip:\n        return skip\n",
        "a directory listing checked (has:dir)": "if point.dir_error is not None:",
        "a parse error told from a refusal (read:/maybe-read:)":
            '    if lf.error.code != "parse-error":\n        return Skip(f"{lf.rel} was refused")\n',
    }
    assert set(samples) == set(_ENGINE_SKIPS)
    for what, text in samples.items():
        assert _ENGINE_SKIPS[what].search(text), what


class _RecordingFiles(dict):
    """A node's ``files`` that notes each kind a rule asks for by name."""

    note = staticmethod(lambda kind: None)

    def __getitem__(self, kind):
        _RecordingFiles.note(kind)
        return super().__getitem__(kind)

    def get(self, kind, default=None):
        _RecordingFiles.note(kind)
        return super().get(kind, default)


def _record_files(pkg) -> None:
    """Swap every node's ``files`` for a recording one (the package tree's plain dicts)."""
    nodes = list(pkg.submissions) + list(pkg.run_folders)
    for sub in pkg.submissions:
        nodes += list(sub.systems) + list(sub.curves()) + list(sub.points())
    for node in nodes:
        files = getattr(node, "files", None)
        if isinstance(files, dict) and not isinstance(files, _RecordingFiles):
            node.files = _RecordingFiles(files)


class _Reads:
    """Each rule's reads while real runs are checked: the policy files it asks for and the file kinds it takes
    from any node's ``files`` by name (and a system's ``power``), its own and those made for it through a
    memoised helper (``Node.cached``): a memo's reads are kept with its value and credited to every rule that
    uses it."""

    def __init__(self, monkeypatch):
        import checker.engine.evaluate as ev
        from checker.core.policy import Policy
        from checker.load.package_tree import Node, Submission, System

        self.policies: dict[str, set] = {}
        self.files: dict[str, set] = {}
        self.rules: dict = {}
        current: list = [None]
        frames: list = []  # (files, policies) read by the memoised computations under way, innermost last
        original_eval, original_get, original_avail = ev.evaluate, Policy.get, Policy.available
        original_cached = Node.cached
        wrapped: set = set()

        def evaluate(rule, obj, ctx, selected=True):
            if id(ctx.package) not in wrapped:
                wrapped.add(id(ctx.package))
                _record_files(ctx.package)
            current[0] = rule
            self.rules[rule.id] = rule
            try:
                return original_eval(rule, obj, ctx, selected)
            finally:
                current[0] = None

        def credit(files=(), policies=()):
            if current[0] is not None:
                self.files.setdefault(current[0].id, set()).update(files)
                self.policies.setdefault(current[0].id, set()).update(policies)
            for f, p in frames:
                f.update(files)
                p.update(policies)

        def cached(node, key, compute):
            memo = ("recorded-reads", key)  # kept beside the value, for as long as the node lives
            if key in node._cache and memo in node._cache:
                credit(*node._cache[memo])
                return node._cache[key]
            frame: tuple = (set(), set())
            frames.append(frame)
            try:
                value = original_cached(node, key, compute)
            finally:
                frames.remove(frame)
            node._cache[memo] = frame
            credit(*frame)
            return value

        def get(policy, name):
            credit(policies=(name,))
            return original_get(policy, name)

        def available(policy, name):
            credit(policies=(name,))
            return original_avail(policy, name)

        monkeypatch.setattr(ev, "evaluate", evaluate)
        monkeypatch.setattr(Policy, "get", get)
        monkeypatch.setattr(Policy, "available", available)
        monkeypatch.setattr(Node, "cached", cached)
        # system_power.json is a System attribute, not in a ``files`` dict; a rule walking every file
        # (``Submission.all_files``, like ``files.values()``) names no kind
        slot, walking, all_files = System.__dict__["power"], [0], Submission.all_files

        def power(system):
            if not walking[0]:
                credit(files=("power",))
            return slot.__get__(system)

        def walk(sub):
            walking[0] += 1
            try:
                return all_files(sub)
            finally:
                walking[0] -= 1

        monkeypatch.setattr(System, "power", property(power, slot.__set__))
        monkeypatch.setattr(Submission, "all_files", walk)
        monkeypatch.setattr(_RecordingFiles, "note", staticmethod(lambda kind: credit(files=(kind,))))

    def undeclared(self) -> tuple[dict, dict]:
        """({rule id: policy files it read that its metadata does not name}, {rule id: file kinds likewise})."""
        policies = {rid: sorted(names - set(self.rules[rid].policies) - {"index"})
                    for rid, names in self.policies.items()}
        files = {rid: sorted(kinds - set(self.rules[rid].files)) for rid, kinds in self.files.items()}
        return {k: v for k, v in policies.items() if v}, {k: v for k, v in files.items() if v}


def test_every_input_a_rule_reads_is_in_its_metadata(monkeypatch):
    """Run the bundled packages, the real run folders and a cohort, recording each rule's reads (``_Reads``)."""
    from casefixtures import FIXTURES, REAL_RUNS
    from checker.engine.pipeline import run_check

    reads = _Reads(monkeypatch)
    runs = [os.path.join(REAL_RUNS, n) for n in sorted(os.listdir(REAL_RUNS))]
    run_check([os.path.join(FIXTURES, "valid")])
    run_check([os.path.join(FIXTURES, "agentic")])
    run_check(runs[:1], options={"max_concurrency": 64, "seed_set": "A", "dataset_size": 100})
    run_check([os.path.join(FIXTURES, "valid"), os.path.join(FIXTURES, "agentic")] + runs, jobs=1)
    run_check([os.path.join(FIXTURES, "runs")])  # run folders assembled into a bundle (bundle family)
    run_check([os.path.join(FIXTURES, "plans")], options={"max_concurrency": 1024, "seed_set": "A"})  # pre-flight
    assert reads.policies and reads.files, "no read was recorded"
    policies, files = reads.undeclared()
    assert not policies, f"rules reading policy files their metadata does not name: {policies}"
    assert not files, f"rules reading files their needs do not name: {files}"


def test_a_read_through_a_memoised_helper_is_credited_to_every_rule_using_it(monkeypatch):
    """Two planted rules read the point files through one memoised helper: the first declares them and fills
    the memo, the second declares nothing and only takes the memoised value. The recorder names the second."""
    import checker.engine.pipeline as pipeline
    from casefixtures import FIXTURES
    from checker.core.rule import Pass, Rule
    from checker.core.findings import Severity

    def sysdesc_names(curve):  # a memoised helper reading every point's system_desc.json
        return curve.cached("planted:names", lambda: [p.files.get("system_desc") is not None for p in curve.points])

    def fills(curve, ctx):
        sysdesc_names(curve)
        return Pass("read")

    def takes(curve, ctx):
        sysdesc_names(curve)
        return Pass("read")

    planted = [Rule(id="planted-fills", title="t", clause="-", family="structure", severity=Severity("warn"),
                    scope="curve", func=fills, needs=("maybe:system_desc",)),
               Rule(id="planted-takes", title="t", clause="-", family="structure", severity=Severity("warn"),
                    scope="curve", func=takes)]
    monkeypatch.setattr(pipeline, "rules_for", lambda select, ignore=None: planted)
    reads = _Reads(monkeypatch)
    pipeline.run_check([os.path.join(FIXTURES, "valid")])
    assert reads.files == {"planted-fills": {"system_desc"}, "planted-takes": {"system_desc"}}
    assert reads.undeclared() == ({}, {"planted-takes": ["system_desc"]})
