"""The GitHub Action's step (``python -m checker.cli.action``): INPUT_* variables in, reports and
``$GITHUB_OUTPUT`` lines out, the checker's exit code as the step's result.

An input named as a key of the configuration file (``fail-on``, ``select``, ``waivers``, ...; action.yml
maps each to ``INPUT_<KEY>``) is passed as that option of ``check`` when it is not empty, so the
repository's configuration file (read by ``check`` itself) holds everything an input leaves empty. ``args``
adds any other option. The reports go to ``output-dir``, by default a folder of the runner's temporary
directory, outside the checked tree; a folder given inside a checked path is left out of the check.
"""
from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile

FILE_NAMES = {"sarif": "endpoints-checker.sarif", "json": "endpoints-checker.json",
              "junit": "endpoints-checker.junit.xml", "html": "endpoints-checker.html",
              "markdown": "endpoints-checker.md", "text": "endpoints-checker.txt"}
#: the action's own inputs (the others are keys of the configuration file)
OWN = ("path", "formats", "output-dir", "args", "version", "python-version")
#: inputs that are check options but not settings of the file
OPTIONS = ("config", "isolated")
#: keys the action's own inputs stand for (formats, output-dir)
AS_OWN = ("format", "output")
TRUE = ("true", "yes", "1", "on")
FALSE = ("false", "no", "0", "off", "")


class ActionInputError(Exception):
    """An input the action cannot use: said as a workflow error, exit code 2."""


def env_name(key: str) -> str:
    return "INPUT_" + key.upper().replace("-", "_").replace(" ", "_")


def _settings():
    from checker.cli.settings import check_settings

    return check_settings()


def option_args(env: dict) -> list[str]:
    """The ``check`` options of the non-empty inputs named as configuration keys (or --config/--isolated)."""
    from checker.engine.check_settings import key_of

    out: list[str] = []
    params = {key_of(p): p for p in _settings().command.params if p.name != "paths"}
    for key, param in params.items():
        raw = (env.get(env_name(key)) or "").strip()
        if not raw or key in AS_OWN or (key not in _settings().keys and key not in OPTIONS):
            continue
        if param.is_flag:
            word = raw.lower()
            if word not in TRUE + FALSE:
                raise ActionInputError(f"input {key}: {raw!r} is not true or false")
            if word in TRUE:
                out.append(f"--{key}")
            elif param.secondary_opts:
                out.append(param.secondary_opts[0])
            continue
        values = [line.strip() for line in raw.splitlines() if line.strip()] if param.multiple else [raw]
        for v in values:  # a repeatable option: one value a line (select and ignore also split on commas)
            out += [f"--{key}", v]
    return out


def output_dir(env: dict) -> str:
    """``output-dir``, else a fresh folder in the runner's temporary directory (never the checked tree)."""
    given = (env.get("INPUT_OUTPUT_DIR") or "").strip()
    if given:
        return os.path.abspath(given)
    base = env.get("RUNNER_TEMP") or tempfile.gettempdir()
    return os.path.join(os.path.abspath(base), "endpoints-checker-reports")


def _inside(path: str, top: str) -> bool:
    try:
        return os.path.commonpath([os.path.realpath(path), os.path.realpath(top)]) == os.path.realpath(top)
    except ValueError:
        return False


def build_command(env: dict) -> tuple[list[str], dict[str, str]]:
    """The check command line and the report path per written format."""
    paths = shlex.split(env.get("INPUT_PATH") or ".")
    out_dir = output_dir(env)
    formats = [f.strip().lower() for f in (env.get("INPUT_FORMATS") or "github").split(",") if f.strip()]
    cmd = [sys.executable, "-m", "checker", "check", *paths, *option_args(env)]
    if any(_inside(out_dir, p) for p in paths if "://" not in p):
        cmd += ["--extend-exclude", out_dir]  # the reports of this or an earlier run are not package entries
    cmd += shlex.split(env.get("INPUT_ARGS") or "")
    outputs: dict[str, str] = {}
    stdout_fmt = "github" if "github" in formats else None
    for fmt in formats:
        if fmt == "github":
            continue
        if fmt not in FILE_NAMES:
            raise ActionInputError(f"unknown format {fmt!r} in inputs.formats (one of github, {', '.join(FILE_NAMES)})")
        outputs[fmt] = os.path.join(out_dir, FILE_NAMES[fmt])
    fmt_args: list[str] = []
    out_args: list[str] = []
    for fmt, path in outputs.items():
        fmt_args += ["-f", fmt]
        out_args += ["-o", path]
    if stdout_fmt:
        fmt_args += ["-f", stdout_fmt]
        out_args += ["-o", "-"]
    return cmd + fmt_args + out_args, outputs


def main(env: dict | None = None) -> int:
    env = dict(os.environ if env is None else env)
    try:
        cmd, outputs = build_command(env)
    except ActionInputError as exc:
        print(f"::error title=endpoints-checker::{exc}", flush=True)
        return 2
    out_dir = output_dir(env)
    os.makedirs(out_dir, exist_ok=True)
    rc = subprocess.run(cmd, env=env).returncode
    gh_out = env.get("GITHUB_OUTPUT")
    if gh_out:
        from checker.cli.output import append_file, encode_output

        lines = (f"exit-code={rc}\noutput-dir={out_dir}\n"
                 + "".join(f"{fmt}={path}\n" for fmt, path in outputs.items()))
        try:  # never blocks on a FIFO without a reader; a failure is a warning, the check's code stands
            append_file(gh_out, encode_output("text", lines))
        except OSError as exc:
            print(f"warning: cannot append to GITHUB_OUTPUT {gh_out}: {exc.strerror or exc}", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
