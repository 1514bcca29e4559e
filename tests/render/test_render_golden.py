"""The HTML and Markdown reports of fixtures/valid and a failing copy match tests/golden/.

After an intended change (a new rule, a template edit) run ``make golden`` and review the diff.
"""
import difflib
import os

import pytest

import golden_render


@pytest.fixture(scope="module")
def rendered():
    return golden_render.outputs()


@pytest.mark.parametrize("name", ["report-valid.html", "report-valid.md", "report-failing.html", "report-failing.md"])
def test_golden(rendered, name):
    path = os.path.join(golden_render.GOLDEN, name)
    assert os.path.exists(path), f"missing {path}: run `make golden`"
    with open(path, encoding="utf-8") as fh:
        want = fh.read()
    got = rendered[name]
    if got != want:
        lines = difflib.unified_diff(want.splitlines(), got.splitlines(), "golden", "now", lineterm="")
        diff = "\n".join(ln if len(ln) < 240 else ln[:240] + " …" for ln in list(lines)[:60])
        pytest.fail(f"{name} differs from tests/golden (run `make golden` if intended):\n{diff}")


def test_generation_time_is_scrubbed(rendered):
    for name, text in rendered.items():
        assert golden_render.SCRUBBED_TIME in text, name
