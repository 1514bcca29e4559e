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
