"""A real browser (Debian's chromium, headless) runs the HTML report's script.

The filters, read from the URL hash exactly as a shared link would set them, change which rows
are visible in the DOM after the scripts ran; the hostile package's report executes no script
(a control page with the same payload unescaped proves the detection works). Chromium is
installed with apt when missing; the tests skip only when that is impossible.
"""
import os
import pathlib
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

import golden_render
from checker.engine.pipeline import run_check
from checker.render import render


def _chromium() -> str | None:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found or not shutil.which("apt-get"):
        return found
    sudo = [] if os.geteuid() == 0 else (["sudo", "-n"] if shutil.which("sudo") else None)
    if sudo is None:
        return None
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for cmd in (["apt-get", "install", "-y", "-qq", "chromium"], ["apt-get", "update", "-qq"],
                ["apt-get", "install", "-y", "-qq", "chromium"]):
        try:
            subprocess.run(sudo + cmd, capture_output=True, timeout=900, env=env)
        except (OSError, subprocess.TimeoutExpired):
            return None
        found = shutil.which("chromium")
        if found:
            return found
    return None


@pytest.fixture(scope="module")
def chromium():
    exe = _chromium()
    if exe is None:
        pytest.skip("chromium is not installed and cannot be installed here (no apt-get or no privileges)")
    return exe


@pytest.fixture(scope="module")
def dump(chromium, tmp_path_factory):
    """dump(path, fragment) -> Dom, or dump([(path, fragment), ...]) -> [Dom] run side by side."""
    root = tmp_path_factory.mktemp("chromium-profiles")
    counter = iter(range(10**6))

    def one(job) -> "Dom":
        path, fragment = job
        url = pathlib.Path(path).resolve().as_uri() + fragment
        profile = root / f"p{next(counter)}"  # one profile each: chromium locks its profile directory
        cmd = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
               "--disable-background-networking", "--disable-extensions", "--host-resolver-rules=MAP * ~NOTFOUND",
               f"--user-data-dir={profile}", "--virtual-time-budget=500", "--dump-dom", url]
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=90)
        except subprocess.TimeoutExpired:
            pytest.fail(f"chromium hung on {url} (a script opened a dialog?)")
        assert r.returncode == 0 and "<html" in r.stdout, r.stderr[-2000:]
        dom = Dom()
        dom.feed(r.stdout)
        return dom

    def run(path, fragment: str = ""):
        if isinstance(path, list):
            from concurrent.futures import ThreadPoolExecutor

            with ThreadPoolExecutor(max_workers=4) as pool:
                return list(pool.map(one, path))
        return one((path, fragment))

    return run


class Dom(HTMLParser):
    """The serialised DOM: every element's attributes, and the findings/cohort table rows."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements, self.rows, self.texts = [], [], {}
        self._table, self._tbody, self._id = None, False, None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.elements.append((tag, a))
        if tag == "table" and "data-filter-table" in a:
            self._table = a.get("id")
        elif tag == "tbody" and self._table:
            self._tbody = True
        elif tag == "tr" and self._tbody:
            self.rows.append(a)
        if a.get("id") in ("filter-count",):
            self._id = a["id"]

    def handle_endtag(self, tag):
        if tag == "tbody":
            self._tbody = False
            self._table = None

    def handle_data(self, data):
        if self._id:
            self.texts[self._id] = data
            self._id = None

    def visible(self):
        return [r for r in self.rows if "hidden" not in r]

    def body(self):
        return next(a for t, a in self.elements if t == "body")


@pytest.fixture(scope="module")
def failing_page(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("browser")
    report = run_check([golden_render.make_failing(str(tmp))])
    page = tmp / "report.html"
    page.write_text(render("html", report), encoding="utf-8")
    return page, report


def test_filters_change_what_is_visible(dump, failing_page):
    page, report = failing_page
    n = len(report.findings)
    fails = [f for f in report.findings if f.status.value == "FAIL"]
    frags = ["", "#f:status=FAIL", "#f:severity=warn&status=FAIL", "#f:rule=src-readme",
             "#f:family=parsing&status=SKIP", "#f:q=r64", "#f:status=NOPE", "#f:sort=2:desc"]
    doms = dict(zip(frags, dump([(page, f) for f in frags])))

    dom = doms[""]
    assert len(dom.rows) == n and len(dom.visible()) == n
    assert dom.texts.get("filter-count") == f"Showing {n} of {n}"
    assert not any(t == "form" and "hidden" in a for t, a in dom.elements), "the script shows the filter form"

    dom = doms["#f:status=FAIL"]
    assert len(dom.visible()) == len(fails) >= 5
    assert {r["data-status"] for r in dom.visible()} == {"FAIL"}
    assert dom.texts.get("filter-count") == f"Showing {len(fails)} of {n}"

    dom = doms["#f:severity=warn&status=FAIL"]
    assert sorted(r["data-rule"] for r in dom.visible()) == ["point-dirname-concurrency", "unexpected-entry"]

    dom = doms["#f:rule=src-readme"]  # the rule <select> options come from the tojson data
    assert [r["data-rule"] for r in dom.visible()] == ["src-readme"]

    dom = doms["#f:family=parsing&status=SKIP"]
    assert [r["data-rule"] for r in dom.visible()] == ["result-file-valid"]

    dom = doms["#f:q=r64"]
    assert 0 < len(dom.visible()) < n

    dom = doms["#f:status=NOPE"]
    assert dom.visible() == []
    assert not any(a.get("id") == "filter-empty" and "hidden" in a for t, a in dom.elements)

    dom = doms["#f:sort=2:desc"]  # column 2 = rule id
    rules = [r["data-rule"] for r in dom.visible()]
    assert rules == sorted(rules, reverse=True)


def test_hostile_package_executes_no_script(dump, tmp_path):
    report = run_check([golden_render.make_hostile(str(tmp_path))])
    page = tmp_path / "hostile.html"
    page.write_text(render("html", report), encoding="utf-8")
    from checker.render.cohort_html import write_cohort

    index = write_cohort(report, str(tmp_path / "site"))
    control = tmp_path / "control.html"
    payload = golden_render.HOSTILE_TEXT.replace("alert(1)", "void 0")  # an alert would block headless chromium
    control.write_text(f"<!DOCTYPE html><html><body>{payload}</body></html>", encoding="utf-8")

    paths = [control, page] + [pathlib.Path(p) for p in index]
    doms = dump([(p, "") for p in paths])
    assert "data-pwned" in doms[0].body(), "the control page must run the payload, or this test proves nothing"
    for path, dom in zip(paths[1:], doms[1:]):
        assert "data-pwned" not in dom.body(), path
        assert [t for t, _ in dom.elements].count("script") == 2, path
        assert not [t for t, _ in dom.elements if t in ("img", "iframe", "object")], path
        assert not [(t, a) for t, a in dom.elements if any(k.startswith("on") for k in a)], path
        assert len(dom.rows) > 0 and len(dom.visible()) == len(dom.rows), path
