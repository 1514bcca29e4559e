"""Golden whole-package reports: what they contain and how volatile fields are scrubbed.

A golden report does not list every rule of the catalogue: it is the report of a check whose catalogue holds
the rules the goldens were written against (``GOLDEN_RULES``) and every rule that FAILs on its package. So a
rule added to a family changes no golden unless it finds a problem there. What each rule finds on
fixtures/valid, PASS and SKIP included, is its family's own golden: ``rules/<family>/golden-valid.txt``.
"""
import contextlib
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


#: the rules every golden report shows, whatever they find (the loading, layout and parsing rules the
#: renderers were first tested with); the others show only where they FAIL (``golden_check``)
GOLDEN_RULES = (
    "file-unreadable", "symlink-escape", "file-too-large", "file-encoding", "nesting-too-deep", "alias-budget",
    "duplicate-key", "integer-too-long", "empty-file", "policy-registry",
    "path-exists", "required-dir", "src-dir", "src-readme", "system-results-dir", "benchmark-model-dir",
    "point-dirs", "duplicate-point", "measurement-points-present", "result-summary-present", "config-file-present",
    "point-dirname-concurrency", "shared-path-resolution", "unexpected-entry",
    "point-config-valid", "result-file-valid",
)


@contextlib.contextmanager
def pinned_catalogue(rule_ids, metrics=None):
    """Every check in this block sees only these rules (and, given, these point metrics): the catalogue's
    cached lists narrowed, restored afterwards. Worker processes forked inside inherit it."""
    from checker.engine.catalogue import load_catalogue

    cat = load_catalogue()
    saved = cat.rules, cat.by_id, cat.point_metrics
    try:
        cat.rules = [r for r in cat.rules if r.id in set(rule_ids)]
        cat.by_id = {r.id: r for r in cat.rules}
        if metrics is not None:
            cat.point_metrics = [m for m in cat.point_metrics if m[0] in metrics]
        yield
    finally:
        cat.rules, cat.by_id, cat.point_metrics = saved


def golden_check(paths, **kw):
    """The report a golden holds: checked with ``GOLDEN_RULES`` and every rule that FAILs on ``paths``."""
    from checker.core.findings import Status
    from checker.engine.pipeline import run_check

    failing = {f.rule_id for f in run_check(paths, **kw).findings if f.status is Status.FAIL}
    with pinned_catalogue(set(GOLDEN_RULES) | failing):
        return run_check(paths, **kw)


COHORT = "<three-organisation cohort>"
FAILING = "<failing package>"  # tests/support/golden_render.py make_failing(), built in a temporary directory


def render_case(fmt: str, paths: list) -> str:
    import tempfile

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
        report = golden_check(paths, jobs=2) if paths == ["cohort"] else golden_check(paths)
        return scrub(render(fmt, report, tty=False))
    finally:
        os.chdir(cwd)
        if tmp is not None:
            tmp.cleanup()


# --- each family's own golden: what its rules find on fixtures/valid ---------------------------------------

def family_golden_path(package: str) -> str:
    return os.path.join(REPO, "rules", package, "golden-valid.txt")


def family_goldens() -> dict[str, str]:
    """rules/<family>/golden-valid.txt -> its text: one line per finding of the family's rules on
    fixtures/valid (status, subject, message), in report order."""
    from checker.engine.catalogue import family_table
    from checker.engine.pipeline import run_check

    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        report = run_check(["fixtures/valid"])
    finally:
        os.chdir(cwd)
    lines: dict[str, list[str]] = {}
    for f in report.findings:
        lines.setdefault(f.family, []).append(f"{f.rule_id} {f.status.value} {f.subject.label()}: {f.message}")
    out = {}
    for fam in family_table().families:
        head = (f"# What the {fam.name} rules find on fixtures/valid (`make golden` writes this file; "
                "tests/render/test_golden.py compares it)\n")
        out[family_golden_path(fam.package)] = head + "".join(ln + "\n" for ln in lines.get(fam.name, []))
    return out
