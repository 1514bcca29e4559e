"""Golden whole-package reports: what they contain and how volatile fields are scrubbed."""
import os
import re

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
REPO = os.path.dirname(HERE)
GOLDEN = os.path.join(HERE, "golden")


def golden_cases():
    """(golden file name, format, paths relative to the repo)."""
    return [
        ("valid.json", "json", ["fixtures/valid"]),
        ("valid.txt", "text", ["fixtures/valid"]),
        ("cohort.json", "json", [COHORT]),  # tests/support/cohortfixture.py, built in a temporary directory
        ("cohort.txt", "text", [COHORT]),
        # CI formats (issue 11), on the valid fixture and on the failing package of the HTML goldens
        ("valid.sarif", "sarif", ["fixtures/valid"]),
        ("valid.junit.xml", "junit", ["fixtures/valid"]),
        ("valid.github.txt", "github", ["fixtures/valid"]),
        ("failing.sarif", "sarif", [FAILING]),
        ("failing.junit.xml", "junit", [FAILING]),
        ("failing.github.txt", "github", [FAILING]),
    ]


#: a file:// URI of this checkout (rule pages) or of a temporary folder (a SARIF root) is the machine's own
CHECKOUT_URI = "file:///<checkout>"
TEMP_URI = "file:///<temporary folder>/"


def scrub(text: str) -> str:
    text = re.sub(r'"generated_at": "[^"]*"', '"generated_at": "<scrubbed>"', text)
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^\s\"<]*", "<time>", text)
    return scrub_uris(text)


def scrub_uris(text: str) -> str:
    """The checkout's and the temporary folders' file:// URIs as placeholders (the rest of each link stays)."""
    from pathlib import Path

    text = re.sub(re.escape(Path(REPO).as_uri()) + r'(?=/docs/|/")', CHECKOUT_URI, text)  # rule pages, SARIF root
    return re.sub(r"file://[^\s\"'<>]*?/golden-[a-z]+-[A-Za-z0-9_]+/", TEMP_URI, text)


COHORT = "<three-organisation cohort>"
FAILING = "<failing package>"  # tests/support/golden_render.py make_failing(), built in a temporary directory


def render_case(fmt: str, paths: list) -> str:
    import tempfile

    from checker.engine.pipeline import run_check
    from checker.render import render

    cwd = os.getcwd()
    tmp = None
    if paths == [COHORT]:
        from cohortfixture import build_cohort

        tmp = tempfile.TemporaryDirectory(prefix="golden-cohort-")
        build_cohort(tmp.name)
        paths = ["cohort"]
    elif paths == [FAILING]:
        from golden_render import make_failing

        tmp = tempfile.TemporaryDirectory(prefix="golden-failing-")
        make_failing(tmp.name)
        paths = ["failing"]
    os.chdir(tmp.name if tmp else REPO)
    try:
        report = run_check(paths, jobs=2) if paths == ["cohort"] else run_check(paths)
        return scrub(render(fmt, report, tty=False))
    finally:
        os.chdir(cwd)
        if tmp is not None:
            tmp.cleanup()
