"""The wheel carries every schema of schemas/ as checker/schemas/ (setup.py's build step), and
``endpoints-checker schema KIND`` run from the unpacked wheel, away from the checkout, prints it."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile

import pytest

from conftest import REPO

SCHEMAS = os.path.join(REPO, "schemas")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> str:
    out = tmp_path_factory.mktemp("wheel")
    run = subprocess.run([sys.executable, "-m", "pip", "wheel", REPO, "--no-deps", "-q", "-w", str(out)],
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0 and "setuptools" in run.stderr and "No matching distribution" in run.stderr:
        pytest.skip("no setuptools for pip's isolated build on this machine")
    assert run.returncode == 0, run.stderr[-2000:]
    (whl,) = [p for p in os.listdir(out) if p.endswith(".whl")]
    return os.path.join(out, whl)


def _schema_files() -> list[str]:
    out = []
    for dirpath, _dirs, files in os.walk(SCHEMAS):
        out += [os.path.relpath(os.path.join(dirpath, f), SCHEMAS).replace(os.sep, "/") for f in files]
    return sorted(out)


def test_the_wheel_holds_every_schema_as_it_is_in_schemas(wheel):
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        files = _schema_files()
        assert "point.schema.json" in files and "policy/models.schema.json" in files
        for rel in files:
            assert f"checker/schemas/{rel}" in names, f"schemas/{rel} is not in the wheel"
            with open(os.path.join(SCHEMAS, rel), "rb") as fh:
                assert zf.read(f"checker/schemas/{rel}") == fh.read(), f"checker/schemas/{rel} differs"
        assert not [n for n in names if n.startswith("schemas/")], "schemas/ must ship inside the package"


def test_the_schema_command_works_from_the_unpacked_wheel(wheel, tmp_path):
    site = tmp_path / "site"
    with zipfile.ZipFile(wheel) as zf:
        zf.extractall(site)
    env = {**os.environ, "PYTHONPATH": str(site)}
    code = "import sys; sys.argv = ['endpoints-checker', 'schema', 'point']; from checker.cli.entry import run; run()"
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    with open(os.path.join(SCHEMAS, "point.schema.json"), encoding="utf-8") as fh:
        assert run.stdout == fh.read()
    where = subprocess.run([sys.executable, "-c", "from checker.lsp.schemas import schema_dir; print(schema_dir())"],
                           cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert where.stdout.strip() == str(site / "checker" / "schemas")


def test_the_wheel_ships_the_rule_pages_and_links_point_at_them(wheel, tmp_path):
    """docs/rules ships as checker/docs/rules (setup.py), and a rule link from the unpacked wheel, away from the
    checkout, is a file:// URI of that installed page, with the rule's anchor on it."""
    pages = os.path.join(REPO, "docs", "rules")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        for name in sorted(os.listdir(pages)):
            assert f"checker/docs/rules/{name}" in names, f"docs/rules/{name} is not in the wheel"
            with open(os.path.join(pages, name), "rb") as fh:
                assert zf.read(f"checker/docs/rules/{name}") == fh.read()
        zf.extractall(tmp_path / "site")
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site")}
    env.pop("ENDPOINTS_CHECKER_DOCS_URL", None)
    code = "from checker.core.rule_pages import rule_url; print(rule_url('seeds', 'seed-runtime-match'))"
    run = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    page = tmp_path / "site" / "checker" / "docs" / "rules" / "seeds.md"
    assert run.stdout.strip() == page.as_uri() + "#seed-runtime-match", run.stderr
    assert 'id="seed-runtime-match"' in page.read_text(encoding="utf-8")
