"""Golden whole-package reports: what they contain and how volatile fields are scrubbed."""
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
        ("cohort.json", "json", [COHORT]),  # tests/cohortfixture.py, built in a temporary directory
        ("cohort.txt", "text", [COHORT]),
    ]


def scrub(text: str) -> str:
    text = re.sub(r'"generated_at": "[^"]*"', '"generated_at": "<scrubbed>"', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^\s\"<]*", "<time>", text)
    return text


COHORT = "<three-organisation cohort>"


def render_case(fmt: str, paths: list) -> str:
    import tempfile

    from checker.api import run_check
    from checker.render import render

    cwd = os.getcwd()
    tmp = None
    if paths == [COHORT]:
        from cohortfixture import build_cohort

        tmp = tempfile.TemporaryDirectory(prefix="golden-cohort-")
        build_cohort(tmp.name)
        paths = ["cohort"]
    os.chdir(tmp.name if tmp else REPO)
    try:
        report = run_check(paths, jobs=2) if tmp else run_check(paths)
        return scrub(render(fmt, report, tty=False))
    finally:
        os.chdir(cwd)
        if tmp is not None:
            tmp.cleanup()
