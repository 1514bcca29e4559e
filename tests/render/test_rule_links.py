"""Every link the tool prints or emits opens a page that exists (issue 36, item 6).

The links come from one builder (checker.core.rule_pages): a configured documentation base URL, else the
installed rule page as a file:// URI. This test follows every link of the SARIF, HTML (single and cohort),
Markdown, explain and language-server outputs: a file:// link names an existing file whose text carries the
anchor; an http(s) link appears only when a documentation base is configured, and then its path under the base
is a file of docs/ with the anchor on it.
"""
from __future__ import annotations

import json
import os
import re
import shutil
from urllib.parse import unquote, urlparse

import pytest

from casefixtures import FIXTURES, REPO

DOCS = os.path.join(REPO, "docs")
BASE = "https://docs.example.invalid/endpoints-checker/v0/docs"
HREF = re.compile(r'href="([^"]+)"')
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")


def _follow(url: str, base: str | None) -> None:
    """Open the page a link names; fail when it does not exist or has no such anchor."""
    parsed = urlparse(url)
    if parsed.scheme == "file":
        path = unquote(parsed.path)
    elif parsed.scheme in ("http", "https"):
        assert base and url.startswith(base + "/"), f"{url}: an http(s) link without a configured documentation base"
        path = os.path.join(DOCS, *url[len(base) + 1:].split("#")[0].split("/"))
    else:
        raise AssertionError(f"{url}: not a file:// or http(s) link")
    assert os.path.isfile(path), f"{url}: {path} does not exist"
    if parsed.fragment:
        with open(path, encoding="utf-8") as fh:
            assert f'id="{parsed.fragment}"' in fh.read(), f"{url}: no anchor {parsed.fragment!r} on the page"


def _external(urls) -> list[str]:
    """The links that leave the page (in-page anchors, the cohort's own pages and data: URIs stay)."""
    return sorted({u for u in urls if not u.startswith(("#", "data:")) and not u.endswith(".html")})


@pytest.fixture(scope="module")
def failing(tmp_path_factory):
    root = tmp_path_factory.mktemp("links") / "sub"
    shutil.copytree(os.path.join(FIXTURES, "valid"), root)
    os.remove(root / "src" / "trtllm" / "README.md")
    (root / "notes.txt").write_text("x\n")
    return str(root)


def test_every_rule_page_link_exists():
    from checker.core.rule_pages import index_url, rule_url
    from checker.engine.catalogue import load_catalogue

    rules = load_catalogue().rules
    assert len(rules) > 150
    for r in rules:
        url = rule_url(r.family, r.id)
        assert url and url.startswith("file://"), url
        _follow(url, None)
    _follow(index_url(), None)


@pytest.mark.parametrize("base", [None, BASE])
def test_every_emitted_link_opens_a_page(failing, base, monkeypatch, tmp_path):
    from checker.engine.pipeline import run_check
    from checker.render import render
    from checker.render.cohort_html import render_cohort
    from checker.render.explain import explain_family, explain_rule
    from checker.engine.catalogue import get_rule, load_catalogue

    monkeypatch.delenv("ENDPOINTS_CHECKER_DOCS_URL", raising=False)
    report = run_check([failing], docs_url=base or "")
    links: list[str] = []
    sarif = json.loads(render("sarif", report))
    driver = sarif["runs"][0]["tool"]["driver"]
    links += [driver["informationUri"]] + [r["helpUri"] for r in driver["rules"]]
    links += HREF.findall(render("html", report))
    links += MD_LINK.findall(render("markdown", report))
    cohort = run_check([os.path.join(FIXTURES, "valid"), failing], docs_url=base or "")
    for page in render_cohort(cohort).values():
        links += HREF.findall(page)
    if base:
        monkeypatch.setenv("ENDPOINTS_CHECKER_DOCS_URL", base)
    links += re.findall(r"(?:rule|family) page: (\S+)", explain_rule(get_rule("src-readme")) +
                        explain_family("seeds", load_catalogue().rules))
    external = _external(links)
    assert len(external) > 150 and any("#src-readme" in u for u in external)
    for url in external:
        _follow(url, base)
    schemes = {urlparse(u).scheme for u in external}
    assert schemes == ({"https"} if base else {"file"})


def test_the_language_server_links_open_pages(failing, monkeypatch):
    pytest.importorskip("lsprotocol")
    from checker.engine.pipeline import run_check
    from checker.lsp.diagnostics import map_report

    monkeypatch.delenv("ENDPOINTS_CHECKER_DOCS_URL", raising=False)
    report = run_check([failing])
    for base in ("", BASE):
        mapped = map_report(report, {}, failing, "flag", base)
        hrefs = [d.code_description.href for ds in mapped.diagnostics.values() for d in ds if d.code_description]
        assert hrefs
        for url in hrefs:
            _follow(url, base or None)


def test_a_docs_url_must_be_a_url(failing):
    import subprocess
    import sys

    p = subprocess.run([sys.executable, "-m", "checker", "check", failing, "--docs-url", "docs.example/x"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "--docs-url" in p.stderr
