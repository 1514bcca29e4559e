"""The GitHub Action's step (``python -m checker.cli.action``): INPUT_* variables in, reports and
``$GITHUB_OUTPUT`` lines out, the checker's exit code as the step's result."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys

FILE_NAMES = {"sarif": "endpoints-checker.sarif", "json": "endpoints-checker.json",
              "junit": "endpoints-checker.junit.xml", "html": "endpoints-checker.html",
              "markdown": "endpoints-checker.md", "text": "endpoints-checker.txt"}


def build_command(env: dict) -> tuple[list[str], dict[str, str]]:
    """The check command line and the report path per written format."""
    paths = shlex.split(env.get("INPUT_PATH") or ".")
    out_dir = env.get("INPUT_OUTPUT_DIR") or "endpoints-checker-reports"
    formats = [f.strip().lower() for f in (env.get("INPUT_FORMATS") or "github").split(",") if f.strip()]
    from checker.core.gate import DEFAULT_FAIL_ON

    cmd = [sys.executable, "-m", "checker", "check", *paths, "--fail-on", env.get("INPUT_FAIL_ON") or DEFAULT_FAIL_ON]
    if env.get("INPUT_WEEK0"):
        cmd += ["--week0", env["INPUT_WEEK0"]]
    if env.get("INPUT_POLICY"):
        cmd += ["--policy", env["INPUT_POLICY"]]
    outputs: dict[str, str] = {}
    stdout_fmt = "github" if "github" in formats else None
    for fmt in formats:
        if fmt == "github":
            continue
        if fmt not in FILE_NAMES:
            raise SystemExit(f"unknown format {fmt!r} in inputs.formats")
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
    cmd, outputs = build_command(env)
    out_dir = env.get("INPUT_OUTPUT_DIR") or "endpoints-checker-reports"
    os.makedirs(out_dir, exist_ok=True)
    rc = subprocess.run(cmd, env=env).returncode
    gh_out = env.get("GITHUB_OUTPUT")
    if gh_out:
        from checker.cli.output import append_file, encode_output

        lines = f"exit-code={rc}\n" + "".join(f"{fmt}={path}\n" for fmt, path in outputs.items())
        try:  # never blocks on a FIFO without a reader; a failure is a warning, the check's code stands
            append_file(gh_out, encode_output("text", lines))
        except OSError as exc:
            print(f"warning: cannot append to GITHUB_OUTPUT {gh_out}: {exc.strerror or exc}", file=sys.stderr)
    return rc


if __name__ == "__main__":
    sys.exit(main())
