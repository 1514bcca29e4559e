"""Golden whole-package reports: what they contain and how volatile fields are scrubbed."""
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GOLDEN = os.path.join(HERE, "golden")


def golden_cases():
    """(golden file name, format, paths relative to the repo)."""
    return [
        ("valid.json", "json", ["fixtures/valid"]),
        ("valid.txt", "text", ["fixtures/valid"]),
    ]


def scrub(text: str) -> str:
    text = re.sub(r'"generated_at": "[^"]*"', '"generated_at": "<scrubbed>"', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^\s\"<]*", "<time>", text)
    return text


def render_case(fmt: str, paths: list) -> str:
    from checker.api import run_check
    from checker.render import render

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        report = run_check(paths)
        return scrub(render(fmt, report, tty=False))
    finally:
        os.chdir(cwd)
