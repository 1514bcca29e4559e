"""Run action.yml's steps as a GitHub runner would, on this machine: each ``run:`` step in bash with the
runner's variables (GITHUB_ACTION_PATH, GITHUB_WORKSPACE, RUNNER_TEMP, GITHUB_OUTPUT per step, the step's
``env:`` with its ``${{ inputs.* }}`` and ``${{ steps.*.outputs.* }}`` expressions evaluated); the two
``uses:`` steps stand in for what they do (setup-python: its interpreter's path, PATH untouched;
actions/cache: a miss, or the environment already in RUNNER_TEMP)."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_EXPR = re.compile(r"\$\{\{\s*([^}]+?)\s*\}\}")


class ActionRun:
    def __init__(self, rc: int, outputs: dict, stdout: str, stderr: str, steps: dict, logs: dict):
        self.rc, self.outputs, self.stdout, self.stderr, self.steps = rc, outputs, stdout, stderr, steps
        self.logs = logs  # each run step's standard output, by step id


def action() -> dict:
    with open(os.path.join(REPO, "action.yml"), encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def _eval(text: str, inputs: dict, steps: dict) -> str:
    def one(m):
        expr = m.group(1)
        if expr.startswith("inputs."):
            return str(inputs.get(expr[7:], ""))
        if expr.startswith("steps."):
            step, _, out = expr[6:].split(".", 2)
            return str(steps.get(step, {}).get(out[len("outputs."):] if out.startswith("outputs.") else out, ""))
        if expr == "runner.temp":
            return inputs["__runner_temp"]
        raise AssertionError(f"expression the harness does not know: {expr}")
    return _EXPR.sub(one, str(text))


def run_action(inputs: dict, workspace: str, runner_temp: str, env: dict | None = None,
               python: str = sys.executable) -> ActionRun:
    """Every step of action.yml with ``inputs`` (the others at their defaults), in ``workspace``."""
    spec = action()
    given = {k: ("" if v.get("default") is None else str(v["default"])) for k, v in spec["inputs"].items()}
    unknown = set(inputs) - set(given)
    assert not unknown, f"inputs action.yml does not declare: {unknown}"
    given.update({k: str(v) for k, v in inputs.items()})
    given["__runner_temp"] = runner_temp
    base = {k: v for k, v in (env or os.environ).items() if not k.startswith(("INPUT_", "GITHUB_"))}
    base.update(GITHUB_ACTION_PATH=REPO, GITHUB_WORKSPACE=workspace, RUNNER_TEMP=runner_temp, RUNNER_OS="Linux",
                GITHUB_ACTIONS="true")
    base.pop("GITHUB_STEP_SUMMARY", None)
    steps: dict[str, dict] = {}
    logs: dict[str, str] = {}
    last = None
    for i, step in enumerate(spec["runs"]["steps"]):
        sid = step.get("id", f"step{i}")
        uses = step.get("uses", "")
        if uses.startswith("actions/setup-python@"):
            assert str(step["with"].get("update-environment")).lower() == "false", "setup-python must leave PATH alone"
            steps[sid] = {"python-path": python, "python-version": "%d.%d.%d" % sys.version_info[:3]}
            continue
        if uses.startswith("actions/cache@"):
            path = _eval(step["with"]["path"], given, steps)
            steps[sid] = {"cache-hit": "true" if os.path.exists(path) else "false"}
            continue
        assert not uses, f"a step the harness cannot stand in for: {uses}"
        out_file = os.path.join(runner_temp, f"github_output_{i}")
        open(out_file, "w").close()
        step_env = dict(base, GITHUB_OUTPUT=out_file)
        step_env.update({k: _eval(v, given, steps) for k, v in (step.get("env") or {}).items()})
        script = _eval(step["run"], given, steps)
        last = subprocess.run(["bash", "-e", "-c", script], cwd=workspace, env=step_env, capture_output=True,
                              text=True, timeout=900)
        logs[sid] = last.stdout
        with open(out_file, encoding="utf-8") as fh:
            steps[sid] = dict(line.split("=", 1) for line in fh.read().splitlines() if "=" in line)
        if last.returncode != 0 and sid != "check":
            raise AssertionError(f"step {sid} failed ({last.returncode}): {last.stdout}\n{last.stderr}")
    outputs = {k: _eval(v["value"], given, steps) for k, v in spec["outputs"].items()}
    return ActionRun(last.returncode, outputs, last.stdout, last.stderr, steps, logs)


def cached_environment(runner_temp: str, python: str = sys.executable) -> str:
    """An environment in RUNNER_TEMP as actions/cache restores it: here, one that runs this checkout's
    interpreter (the test environment, where the checker is installed)."""
    from checker.cli.action_setup import venv_dir, venv_python

    venv = venv_dir({"RUNNER_TEMP": runner_temp})
    py = venv_python(venv)
    os.makedirs(os.path.dirname(py), exist_ok=True)
    with open(py, "w") as fh:
        fh.write(f'#!/bin/sh\nexec "{python}" "$@"\n')
    os.chmod(py, 0o755)
    return venv
