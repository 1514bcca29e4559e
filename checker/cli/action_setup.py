"""The GitHub Action's install steps (action.yml), run as a script by the interpreter actions/setup-python
found without putting it on the job's PATH, before the checker is installed: standard library only.

``key``: where the checker's own virtual environment goes (``$RUNNER_TEMP/endpoints-checker-venv``) and the
cache key of its contents (the platform, the exact Python, and the pip requirement or the action's own
sources, and whether the official checker is installed beside it: the ``week0`` input is not ``model``), written
to ``$GITHUB_OUTPUT`` for actions/cache. ``install``: unless the restored environment already imports the
checker, create it and pip-install the checker into it, with the ``[week0]`` extra (the official checker,
endpoints-submission-cli) unless ``week0`` is ``model``. The caller's Python and PATH are never touched.
"""
from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sys

#: what pip installs from the action's checkout (the cache key changes when one of them does)
SOURCES = ("checker", "rules", "pyproject.toml", "setup.py", "MANIFEST.in", "README.md")
VENV_NAME = "endpoints-checker-venv"
#: the official checker, as pyproject's [week0] extra pins it (tests/cli/test_action.py holds them equal)
OFFICIAL_REQUIREMENT = "endpoints-submission-cli==1.5.3.0"


def venv_dir(env: dict) -> str:
    import tempfile

    return os.path.join(env.get("RUNNER_TEMP") or tempfile.gettempdir(), VENV_NAME)


def venv_python(venv: str) -> str:
    return os.path.join(venv, "Scripts", "python.exe") if os.name == "nt" else os.path.join(venv, "bin", "python")


def with_official(env: dict) -> bool:
    """Install the official checker beside ours: the ``week0`` input is auto (the default) or official."""
    return (env.get("INPUT_WEEK0") or "auto").strip().lower() != "model"


def sources(top: str, requirement: str, official: bool) -> list[str]:
    """What pip installs: ``requirement`` (and the official checker through the extra), else the checkout."""
    if requirement:
        return [requirement] + ([OFFICIAL_REQUIREMENT] if official else [])
    return [top + ("[week0]" if official else "")]


def cache_key(top: str, requirement: str = "", official: bool = False) -> str:
    """The key of an environment holding ``requirement`` (a pip requirement), else the checkout at ``top``,
    with or without the official checker."""
    h = hashlib.sha256(f"{platform.system()}-{platform.machine()}-{sys.version}-{official}".encode())
    if requirement:
        h.update(b"requirement\0" + requirement.encode())
    else:
        for name in SOURCES:
            path = os.path.join(top, name)
            files = [path] if os.path.isfile(path) else sorted(
                os.path.join(d, f) for d, ds, fs in os.walk(path) for f in fs if "__pycache__" not in d)
            for f in files:
                h.update(os.path.relpath(f, top).encode() + b"\0")
                with open(f, "rb") as fh:
                    h.update(hashlib.sha256(fh.read()).digest())
    return f"endpoints-checker-venv-{platform.system()}-{sys.version_info[0]}.{sys.version_info[1]}-{h.hexdigest()[:32]}"


def usable(venv: str) -> bool:
    """The environment runs and imports the checker (a restored cache can be stale or broken)."""
    py = venv_python(venv)
    if not os.path.exists(py):
        return False
    return subprocess.run([py, "-c", "import checker.cli.action"], capture_output=True).returncode == 0


def install(venv: str, source: "list[str]") -> None:
    """A fresh virtual environment at ``venv`` with ``source`` (requirements or a folder) installed."""
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv_python(venv), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *source],
                   check=True)


def main(argv: list[str], env: dict | None = None) -> int:
    env = dict(os.environ if env is None else env)
    top = env.get("GITHUB_ACTION_PATH") or os.getcwd()
    requirement = (env.get("INPUT_VERSION") or "").strip()
    official = with_official(env)
    venv = venv_dir(env)
    if argv[:1] == ["key"]:
        lines = f"dir={venv}\npython={venv_python(venv)}\nkey={cache_key(top, requirement, official)}\n"
        out = env.get("GITHUB_OUTPUT")
        if out:
            with open(out, "a", encoding="utf-8") as fh:
                fh.write(lines)
        else:
            sys.stdout.write(lines)
        return 0
    if argv[:1] == ["install"]:
        if usable(venv):
            print(f"endpoints-checker: using the cached environment {venv}")
            return 0
        try:
            install(venv, sources(top, requirement, official))
        except (OSError, subprocess.CalledProcessError) as exc:
            print(f"::error title=endpoints-checker::cannot install {' '.join(sources(top, requirement, official))} "
                  f"into {venv}: {exc}")
            return 1
        if not usable(venv):
            print(f"::error title=endpoints-checker::{venv} does not import the checker after the install")
            return 1
        return 0
    print("usage: action_setup.py key|install", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
