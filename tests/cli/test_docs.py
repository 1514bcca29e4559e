"""The documentation stays true (issue 16, issue 14): the README is a front door of at most 8 KB whose
sample output is what the checker prints, the generated rule pages match the catalogue, every link,
repository path, rule id and option the pages name exists."""
from __future__ import annotations

import glob
import os
import re
import shutil
import subprocess
import sys

import click
import pytest

from checker.cli import rule_docs
from checker.engine.catalogue import load_catalogue

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "README.md")
DOCS = os.path.join(REPO, "docs")

#: the hand-written pages, one per topic (the generated ones are under docs/rules/)
TOPIC_PAGES = ("index", "usage", "submitters", "reviewers", "ci", "run-folders", "reports", "families",
               "decisions", "performance", "troubleshooting", "architecture", "journey", "testing")


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def _all_pages() -> list[str]:
    """README.md and every Markdown page under docs/ (generated ones included)."""
    return [README] + sorted(glob.glob(os.path.join(DOCS, "**", "*.md"), recursive=True))


def _hand_written() -> list[str]:
    return [README] + sorted(p for p in glob.glob(os.path.join(DOCS, "*.md")))


def _rel(path: str) -> str:
    return os.path.relpath(path, REPO)


def _outside_code_blocks(text: str) -> str:
    return re.sub(r"^```.*?^```", "", text, flags=re.S | re.M)


# --- the README ---------------------------------------------------------------------------------

def test_readme_is_a_front_door_of_at_most_8_kb():
    raw = open(README, "rb").read()
    assert len(raw) <= 8 * 1024, f"README.md is {len(raw)} bytes; move detail into docs/"
    text = raw.decode("utf-8")
    first_block = re.search(r"```sh\n(.*?)```", text, re.S).group(1)
    assert first_block.splitlines()[0].startswith("make demo") and "make test" in first_block
    assert text.index("make demo") < text.index("## ")  # the two commands open the README
    for heading in ("## Install", "## Quick start for submitters", "## Reading the verdict",
                    "## What a rule means: `explain`", "## CI in five lines", "## Documentation"):
        assert heading in text
    assert "rules:begin" not in text  # the rule list lives in docs/rules/


def test_readme_ci_example_is_five_lines_of_the_action_in_this_repository():
    text = _read(README)
    section = text.split("## CI in five lines", 1)[1].split("\n## ", 1)[0]
    yaml_block = re.search(r"```yaml\n(.*?)```", section, re.S).group(1)
    assert len(yaml_block.strip().splitlines()) == 5
    action = _read(os.path.join(REPO, "action.yml"))
    for key in re.findall(r"^\s{4}(\w[\w-]*):", yaml_block, re.M):
        assert re.search(rf"^  {re.escape(key)}:", action, re.M), f"action.yml has no input {key!r}"
    assert "id: endpoints-checker" in _read(os.path.join(REPO, ".pre-commit-hooks.yaml"))


def _readme_sample() -> str:
    text = _read(README)
    section = text.split("## Quick start for submitters", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```text\n(.*?)```", section, re.S).group(1)


@pytest.mark.slow
def test_readme_sample_output_is_what_the_checker_prints(tmp_path):
    """The quick start's FAIL is real: r64 ran with one seed off by one (in point.yaml and config.yaml)."""
    pkg = tmp_path / "acme" / "7f3a9c2e"
    shutil.copytree(os.path.join(REPO, "fixtures", "valid"), pkg)
    r64 = pkg / "results" / "H200-SXM-141GBx8_TRT" / "llama3_1-8b" / "r64"
    for name in ("point.yaml", "config.yaml"):
        f = r64 / name
        text = f.read_text()
        assert "10487924139932647040" in text
        f.write_text(text.replace("10487924139932647040", "10487924139932647041"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    # as installed with the [week0] extra (make install): the official checker's verdict, its words on the error
    env.update(NO_COLOR="1", PYTHONPATH=REPO, ENDPOINTS_CHECKER_WEEK0="official")
    p = subprocess.run([sys.executable, "-m", "checker", "check", "acme/7f3a9c2e"], cwd=tmp_path, env=env,
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 1, p.stderr
    assert _counts_masked(p.stdout) == _counts_masked(_readme_sample())


def _counts_masked(text: str) -> str:
    """The summary's PASS and SKIP counts grow with the catalogue: a new rule does not rewrite the README."""
    return re.sub(r"\b\d[\d,]* checks passed, \d[\d,]* skipped", "N checks passed, M skipped", text)


# --- the generated rule pages -------------------------------------------------------------------

def test_rule_pages_are_fresh():
    """docs/rules/ equals what the catalogue generates (in memory); `make docs` fixes a failure."""
    to_write, to_remove = rule_docs.stale_pages(REPO)
    assert not to_write and not to_remove, f"stale rule pages {to_write + to_remove}: run `make docs`"


def test_rule_pages_list_every_rule_in_its_family():
    cat = load_catalogue()
    pages = rule_docs.rule_pages(cat)
    assert set(pages) == {f"docs/rules/{f.name}.md" for f in cat.families} | {"docs/rules/index.md"}
    for r in cat.rules:
        page = pages[f"docs/rules/{r.family}.md"]
        row = next(line for line in page.splitlines() if line.startswith(f'| <a id="{r.id}"></a>`{r.id}` |'))
        assert f"| {r.severity.value} |" in row and ("| yes |" if r.official else "| no |") in row
        for name in r.policies:
            assert f"`{name}`" in row
    for fam in cat.families:
        assert f"[{fam.name}]({fam.name}.md)" in pages["docs/rules/index.md"]
        assert fam.doc.splitlines()[0] in pages[f"docs/rules/{fam.name}.md"]


def test_every_rule_in_the_index_has_its_anchor_on_its_family_page():
    """The link of a diagnostic (docs/rules/<family>.md#<rule-id>) lands on the rule's own row: every rule of
    rules/index.json has exactly one anchor of its id on its family page, and no heading of the page (whose
    GitHub anchor is made from its text) takes the same name."""
    import json
    import re

    from checker.core.rule_pages import rule_anchor, rule_page_ref

    with open(os.path.join(REPO, "rules", "index.json"), encoding="utf-8") as fh:
        index = json.load(fh)
    seen = 0
    for fam in index["families"]:
        with open(os.path.join(REPO, "docs", "rules", f"{fam['family']}.md"), encoding="utf-8") as fh:
            page = fh.read()
        anchors = re.findall(r'<a id="([^"]+)"></a>', page)
        headings = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^#+ (.+)$", page, re.M)}
        assert len(anchors) == len(set(anchors)), fam["family"]
        for r in fam["rules"]:
            assert anchors.count(rule_anchor(r["id"])) == 1, (fam["family"], r["id"])
            assert rule_anchor(r["id"]) not in headings
            assert rule_page_ref(fam["family"], r["id"]) == f"{fam['family']}.md#{r['id']}"
            row = next(line for line in page.splitlines() if f'<a id="{r["id"]}"></a>' in line)
            assert row.startswith(f'| <a id="{r["id"]}"></a>`{r["id"]}` |')  # on the rule's own row
            seen += 1
    assert seen == sum(len(f["rules"]) for f in index["families"]) > 100


def test_update_rule_pages_writes_and_removes_only_generated_pages(tmp_path):
    folder = tmp_path / "docs" / "rules"
    folder.mkdir(parents=True)
    (folder / "gone-family.md").write_text(rule_docs.GENERATED + "\n# Rules: gone-family\n")
    (folder / "notes.md").write_text("# written by hand\n")
    to_write, to_remove = rule_docs.stale_pages(str(tmp_path))
    assert to_remove == ["docs/rules/gone-family.md"]
    assert len(to_write) == len(load_catalogue().families) + 1
    rule_docs.update_rule_pages(str(tmp_path))
    assert rule_docs.stale_pages(str(tmp_path)) == ([], [])
    assert (folder / "notes.md").read_text() == "# written by hand\n"
    assert not (folder / "gone-family.md").exists()


# --- every page: one per topic, linked, and true to the code ------------------------------------

def test_one_page_per_topic_and_the_map_links_every_page():
    index = _read(os.path.join(DOCS, "index.md"))
    for name in TOPIC_PAGES:
        assert os.path.isfile(os.path.join(DOCS, f"{name}.md")), f"docs/{name}.md is missing"
    for path in glob.glob(os.path.join(DOCS, "*.md")):
        name = os.path.basename(path)
        if name != "index.md":
            assert f"]({name})" in index, f"docs/index.md does not link {name}"
    assert "](rules/index.md)" in index
    assert "](docs/index.md)" in _read(README) and "](docs/architecture.md)" in _read(README)


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower().replace("`", ""))
    return text.replace(" ", "-")


def _anchors(path: str) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    for line in _outside_code_blocks(_read(path)).splitlines():
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if m:
            base = _slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            out.add(base if n == 0 else f"{base}-{n}")
    return out


def test_every_relative_link_and_anchor_resolves():
    problems = []
    for page in _all_pages():
        text = _outside_code_blocks(_read(page))
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(dest):
                problems.append(f"{_rel(page)}: {target} (no such file)")
            elif anchor and dest.endswith(".md") and anchor not in _anchors(dest):
                problems.append(f"{_rel(page)}: {target} (no such heading)")
    assert not problems, "\n".join(problems)


def test_every_repository_path_named_exists():
    """A stale module or file name (checker/parallel.py, rules/accuracy.py) fails here."""
    problems = []
    for page in _all_pages():
        for code in re.findall(r"`([^`\n]+)`", _read(page)):
            for token in re.findall(r"(?<![\w.-])((?:checker|rules|schemas|fixtures|bench|tests|docs)/[\w./*<>-]*)", code):
                if "<" in token:
                    continue  # a pattern such as rules/<family>/
                if not glob.glob(os.path.join(REPO, token.rstrip("."))):
                    if token.startswith("docs/drafts/"):
                        continue  # an --exclude example, not a file of this repository
                    problems.append(f"{_rel(page)}: {token}")
    assert not problems, "\n".join(problems)


#: kebab-case words in backticks that are not rule ids or families (severities, SKIP reasons, names)
NOT_RULES = {"reject-points", "endpoints-checker", "endpoints-checker-reports", "endpoints-submission-cli",
             "inference-endpoint", "exit-code", "fail-on", "output-dir", "cohort-id", "rule-id", "seed-set",
             "misspelt-key", "registry-unusable", "8388608-byte",
             "would-fix", "not-fixed",  # the statuses of the fix section (docs/fixes.md)
             "system-out",  # a JUnit element (docs/reports.md)
             "test-fast",  # the make target (docs/testing.md)
             "update-environment",  # actions/setup-python's input (docs/ci.md)
             "endpoints-checker-week0"}  # the pre-commit hook of the Week-0 gate


def _setting_names() -> set[str]:
    """The configuration file's keys and the Action's inputs (docs/usage.md#configuration, docs/ci.md)."""
    import yaml

    from checker.cli.settings import check_settings

    with open(os.path.join(REPO, "action.yml"), encoding="utf-8") as fh:
        inputs = set(yaml.safe_load(fh)["inputs"])
    return set(check_settings().keys) | inputs


def test_every_rule_id_named_exists():
    """A renamed or removed rule id mentioned in the hand-written pages fails here."""
    cat = load_catalogue()
    from checker.core.rule import HAS_INPUTS, NEED_KINDS

    known = {r.id for r in cat.rules} | {f.name for f in cat.families} | NOT_RULES | _setting_names()
    known |= set(NEED_KINDS) | set(HAS_INPUTS)  # the needs a rule declares (``maybe-read:``, ``has:events-log``)
    problems = []
    for page in _hand_written():
        for code in re.findall(r"`([^`\n]+)`", _read(page)):
            for token in re.findall(r"(?<![\w./-])([a-z0-9]+(?:-[a-z0-9]+)+)(?![\w/.*-])", code):
                if token not in known:
                    problems.append(f"{_rel(page)}: {token}")
    assert not problems, "\n".join(problems)


def _cli_options() -> set[str]:
    from checker.cli.main import main
    from checker.cli.maintainer import main as maintainer

    opts = {"--help", "--version"}
    for group in (main, maintainer):
        for cmd in group.commands.values():
            for param in cmd.params:
                if isinstance(param, click.Option):
                    opts.update(o for o in param.opts + param.secondary_opts if o.startswith("--"))
    return opts


#: options of other programs the pages show (pip, the benchmarks)
OTHER_OPTIONS = {"--no-deps", "--scaling", "--freeze",
                 # the reference client's and endpoints-submission-cli's (docs/journey.md)
                 "--mode", "--accuracy-only", "--run-ids", "--division", "--availability", "--dry-run"}


def test_every_option_named_exists():
    """Documented flags are flags of this CLI: nothing documented before it exists, nothing stale."""
    known = _cli_options() | OTHER_OPTIONS
    problems = []
    for page in _all_pages():
        for opt in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", _read(page)):
            if opt not in known:
                problems.append(f"{_rel(page)}: {opt}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("name", ["submitters", "troubleshooting"])
def test_sample_problem_lines_have_the_printed_shape(name):
    """Sample problem lines in the pages keep the `path:line:col: level rule-id message` shape."""
    ids = {r.id for r in load_catalogue().rules}
    lines = [line for block in re.findall(r"```text\n(.*?)```", _read(os.path.join(DOCS, f"{name}.md")), re.S)
             for line in block.splitlines() if re.match(r"^\S+:\d+:\d+: ", line)]
    assert lines
    for line in lines:
        m = re.match(r"^\S+:\d+:\d+: (error|flag|warning) ([a-z0-9-]+) ", line)
        assert m and m.group(2) in ids, line
