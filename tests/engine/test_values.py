"""One definition per domain fact: reading a raw value, showing a value, and "agentic" (issue 14)."""
import ast
import math
import os
from types import SimpleNamespace

import pytest

from checker.core.values import MISSING, file_value, show, show_number, value_at

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_value_at_walks_mappings_and_list_indices_only():
    data = {"a": {"b": [10, {"c": None}]}, "t": True}
    assert value_at(data, ("a", "b", 0)) == 10
    assert value_at(data, ("a", "b", 1, "c"), MISSING) is None  # a null is a value
    assert value_at(data, ("a", "b", 2), MISSING) is MISSING
    assert value_at(data, ("a", "b", -1), MISSING) is MISSING  # no negative indices: paths are positions
    assert value_at(data, ("a", "b", True), MISSING) is MISSING  # a bool is not an index
    assert value_at(data, ("a", "b", "0"), MISSING) is MISSING
    assert value_at(data, ("t", "x"), "d") == "d"  # a step into a scalar
    assert value_at(None, ("a",)) is None
    assert value_at(data, ()) is data


def test_file_value_needs_a_loaded_file():
    ok = SimpleNamespace(ok=True, data={"region": "low"})
    bad = SimpleNamespace(ok=False, data={"region": "low"})
    node = SimpleNamespace(files={"point_yaml": ok, "config": bad})
    assert file_value(node, "point_yaml", "region") == "low"
    assert file_value(node, "config", "region", default=MISSING) is MISSING
    assert file_value(node, "summary", "x", default=7) == 7


@pytest.mark.parametrize("value,shown", [
    (MISSING, "missing"), (None, "null"), (True, "True"), (False, "False"), (0, "0"), (2**64, str(2**64)),
    (10**70, "1" + "0" * 59 + "..."), (1.5, "1.5"), (1e16, "1e+16"), (float("nan"), "NaN"),
    (float("inf"), "infinity"), (-float("inf"), "-infinity"), ("x", "'x'"), ("é" * 61, repr("é" * 60 + "...")),
    ({"a": 1}, "a mapping of 1 keys"), ([1, 2], "a list of 2 items"), (("a", None), "'a', null"),
])
def test_show(value, shown):
    assert show(value) == shown


def test_show_plain_labels_and_limits():
    assert show("cnn_dailymail", quote=False) == "cnn_dailymail"
    assert show(("a", 1, True), quote=False) == "a, 1, True"
    assert show("abcdef", limit=3) == "'abc...'"


@pytest.mark.parametrize("value,shown", [(58.32, "58.32"), (13368.0, "13,368"), (1e7 + 0.25, "10,000,000.2"),
                                         (0.1 + 0.2, "0.3"), (2400, "2400"), (None, "None")])
def test_show_number(value, shown):
    assert show_number(value) == shown
    assert not math.isnan(1.0)


#: helpers that used to be defined several times; each name may now be defined only where it lives
ONE_HOME = {
    "is_agentic": "checker/domain/benchmark.py", "uses_interactivity": "checker/render/view.py",
    "curve_model": "checker/domain/benchmark.py", "value_at": "checker/core/values.py",
    "file_value": "checker/core/values.py", "show": "checker/core/values.py", "show_number": "checker/core/values.py",
}
GONE = {"raw", "raw_value", "_get", "_value_at", "describe", "brief", "_brief", "_show", "_fmt", "fmt"}


def _defs():
    for top in ("checker", "rules"):
        for root, _dirs, files in os.walk(os.path.join(REPO, top)):
            for fn in files:
                if fn.endswith(".py"):
                    path = os.path.join(root, fn)
                    rel = os.path.relpath(path, REPO)
                    with open(path, encoding="utf-8") as fh:
                        tree = ast.parse(fh.read())
                    for node in tree.body:  # module-level functions only (methods may share a name)
                        if isinstance(node, ast.FunctionDef):
                            yield rel, node.name


def test_one_definition_of_each_value_helper_and_of_agentic():
    defs = list(_defs())
    for name, home in ONE_HOME.items():
        where = sorted(rel for rel, n in defs if n == name)
        assert where == [home], f"{name} is defined in {where}, expected only in {home}"
    # other facts that share a name: a region table, a spelling note, a timestamp; and the power
    # model's wording of show() (JSON null reads "nothing" there)
    other = {("checker/domain/regions.py", "describe"), ("checker/load/models/spelling.py", "describe"),
             ("rules/bundle/assembly.py", "_fmt"), ("rules/power/findings.py", "brief"),
             ("checker/render/page.py", "_get")}  # an attribute getter
    stray = sorted((rel, n) for rel, n in defs if n in GONE and (rel, n) not in other)
    assert not stray, f"old value helpers still defined: {stray}"
