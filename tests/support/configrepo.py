"""A submission repository that holds its settings in ``[tool.endpoints-checker]`` (tests of the
configuration file): a copy of fixtures/valid as ``acme-7f3a/`` beside LICENSE, CONTRIBUTING.md and
scripts/, with five problems of which the file's ``ignore``, ``exclude`` and waivers account for four
and its ``fail-on = "warn"`` makes the fifth (a warning) fail the gate."""
from __future__ import annotations

import os
import shutil

from casefixtures import FIXTURES

SUBMISSION = "acme-7f3a"
CURVE = os.path.join("results", "H200-SXM-141GBx8_TRT", "llama3_1-8b")
PYPROJECT = """\
[project]
name = "acme-submission"

[tool.endpoints-checker]
ignore = ["src-readme"]          # a reject, ignored
exclude = ["r8_old", "review"]   # an unexpected entry, and the review folder, left out
fail-on = "warn"                 # the empty docs file fails the gate
waivers = "review/waivers.yaml"  # relative to this file's folder
"""
WAIVERS = """\
version: 1
waivers:
  - rule: point-config-agreement
    subject: "*/r8"
    reason: the run's target concurrency was raised after the config was captured
    approver: J. Doe (review)
    expires: 2099-12-31
  - rule: point-dirname-concurrency
    subject: "*/r8"
    reason: renamed at the next run
    approver: J. Doe (review)
    expires: 2099-12-31
"""
#: (rule id, point) of every FAIL the configured check leaves: the warning of the empty docs file
EXPECTED_FAILS = {("empty-file", "")}
#: what the same check without the file fails on
UNCONFIGURED_FAILS = {("src-readme", ""), ("empty-file", ""), ("point-config-agreement", "r8"),
                      ("point-dirname-concurrency", "r8"), ("unexpected-entry", "")}


def make_repo(top) -> str:
    """The repository at ``top`` (a new folder); its path."""
    top = str(top)
    sub = os.path.join(top, SUBMISSION)
    shutil.copytree(os.path.join(FIXTURES, "valid"), sub)
    curve = os.path.join(sub, CURVE)
    os.remove(os.path.join(sub, "src", "trtllm", "README.md"))
    shutil.copytree(os.path.join(curve, "r8"), os.path.join(curve, "r8_old"))
    point = os.path.join(curve, "r8", "point.yaml")
    with open(point, encoding="utf-8") as fh:
        text = fh.read()
    with open(point, "w", encoding="utf-8") as fh:
        fh.write(text.replace("concurrency: 8\n", "concurrency: 9\n", 1))
    open(os.path.join(sub, "docs", "empty.md"), "w").close()
    for name, body in (("pyproject.toml", PYPROJECT), ("LICENSE", "Apache-2.0\n"), ("CONTRIBUTING.md", "PRs welcome\n"),
                       (os.path.join("scripts", "upload.sh"), "#!/bin/sh\n"),
                       (os.path.join("review", "waivers.yaml"), WAIVERS)):
        os.makedirs(os.path.dirname(os.path.join(top, name)) or top, exist_ok=True)
        with open(os.path.join(top, name), "w", encoding="utf-8") as fh:
            fh.write(body)
    return top


def fails(findings) -> set:
    """(rule id, point) of the FAIL findings of a JSON report's (or a tool's) findings."""
    return {(f["rule_id"], f["subject"].get("point", "")) for f in findings if f["status"] == "FAIL"}
