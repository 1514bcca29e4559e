"""A real browser (Debian's chromium, headless) runs the HTML report's script and lays the pages out.

The filters, read from the URL hash exactly as a shared link would set them, change which rows
are visible in the DOM after the scripts ran; the hostile package's report executes no script
(a control page with the same payload unescaped proves the detection works). At 1400 and 800 px
wide (tests/cdp.py drives the browser) the verdict and the key columns are inside the viewport,
the page never scrolls sideways, a clean report is short and the charts keep their labels clear.
Chromium is installed with apt when missing; the tests skip only when that is impossible.
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

pytestmark = pytest.mark.slow  # the whole module (a subprocess, a server, a browser or a large input)


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
    frags = ["", "#f:status=FAIL,SKIP,PASS", "#f:status=FAIL", "#f:severity=warn&status=FAIL", "#f:rule=src-readme",
             "#f:family=parsing&status=SKIP", "#f:q=r64", "#f:status=NOPE", "#f:sort=2:desc"]
    doms = dict(zip(frags, dump([(page, f) for f in frags])))

    dom = doms[""]  # the page opens on the errors, flags and warnings
    assert len(dom.rows) == n and {r["data-status"] for r in dom.visible()} == {"FAIL"}
    assert dom.texts.get("filter-count") == f"Showing {len(fails)} of {n}"
    assert not any(t == "form" and "hidden" in a for t, a in dom.elements), "the script shows the filter form"

    dom = doms["#f:status=FAIL,SKIP,PASS"]
    assert len(dom.visible()) == n

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
        # report pages open on their problems (rows without a status are the cohort index's: all shown)
        assert len(dom.rows) > 0 and dom.visible() == [r for r in dom.rows if r.get("data-status", "FAIL") == "FAIL"]


# ---------------------------------------------------------------- layout at 1400 and 800 px (tests/cdp.py)
#: one expression run in the page after its script: boxes of what a reader must see without scrolling sideways
LAYOUT = r"""(() => {
  const de = document.documentElement, vw = de.clientWidth, vh = innerHeight;
  const box = e => { const b = e.getBoundingClientRect(); return {l: b.left, r: b.right, t: b.top, b: b.bottom}; };
  const frame = e => { const s = e.closest('.scroll'); return s ? box(s) : {l: 0, r: vw, t: 0, b: Infinity}; };
  const heads = [...document.querySelectorAll('thead th')].filter(th => th.offsetParent !== null).map(th => ({
    table: th.closest('table').className, text: th.textContent.trim(), box: box(th), frame: frame(th)}));
  const rows = [...document.querySelectorAll('table.points tbody tr')].map(tr => ({
    failing: tr.classList.contains('failing'), h: tr.getBoundingClientRect().height,
    checks: tr.querySelectorAll('td.checks > div').length}));
  const verdict = document.querySelector('.verdict');
  const findings = [...document.querySelectorAll('#findings-table tbody tr')].filter(tr => tr.offsetParent !== null)
    .map(tr => tr.dataset.status);
  const inter = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5 &&
    a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const charts = [...document.querySelectorAll('svg.chart')].filter(s => s.getBoundingClientRect().width > 0).map(s => {
    const pts = [...s.querySelectorAll('.pt')].map(p => p.getBoundingClientRect());
    const others = [...s.querySelectorAll('.pt:not(.rg-margin)')].map(p => p.getBoundingClientRect());
    const labels = [...s.querySelectorAll('.band-labels text')].map(t => t.getBoundingClientRect());
    const margin = [...s.querySelectorAll('.band.rg-margin rect')].map(r => r.getBoundingClientRect());
    return {width: s.getBoundingClientRect().width,
            labelHits: labels.filter(l => pts.some(p => inter(l, p))).length,
            marginHits: margin.filter(m => others.some(p => inter(m, p))).length,
            labelOverlaps: labels.filter((l, i) => labels.some((o, j) => i !== j && inter(l, o))).length};
  });
  return {vw, vh, scrollWidth: de.scrollWidth, height: de.scrollHeight, title: document.title,
          verdict: verdict && {text: verdict.textContent, box: box(verdict)}, heads, rows, findings, charts,
          skipsOpen: document.querySelectorAll('details.skips[open]').length};
})()"""

#: page -> table class -> header texts a reader must see at 1400 and 800 px
POINTS = ["Point", "Checks", "Region (computed)", "System TPS (tok/s)", "TTFT p90 (ms)"]
KEY_COLUMNS = {
    "failing": {"data points": POINTS, "data findings": ["Level", "Severity", "Rule", "Message, evidence, fix"]},
    "valid": {"data points": POINTS},
    "runs": {"data digest": ["Run folder", "Checks", "System TPS (tok/s)", "TTFT p90 (ms)", "TPOT p90 (ms)"]},
    "index": {"data cohort": ["Organisation", "Submission", "Verdict", "Worst findings"]},
}


@pytest.fixture(scope="module")
def pages(failing_page, tmp_path_factory):
    import shutil

    from casefixtures import REAL_RUNS
    from checker.render.cohort_html import write_cohort

    tmp = tmp_path_factory.mktemp("layout")
    out = {"failing": failing_page[0]}
    valid = run_check([os.path.join(golden_render.REPO, "fixtures", "valid")])
    out["valid"] = tmp / "valid.html"
    out["valid"].write_text(render("html", valid), encoding="utf-8")
    runs = run_check([os.path.join(REAL_RUNS, n) for n in sorted(os.listdir(REAL_RUNS))], options={"jobs": 1})
    out["runs"] = tmp / "runs.html"
    out["runs"].write_text(render("html", runs), encoding="utf-8")
    cohort = tmp / "cohort"
    shutil.copytree(os.path.join(golden_render.REPO, "fixtures", "valid"), cohort / "acme" / "sub-1")
    golden_render.make_failing(str(cohort / "globex"), "sub-2")
    out["index"] = pathlib.Path(write_cohort(run_check([str(cohort)]), str(tmp / "site"))[0])
    return out


@pytest.fixture(scope="module")
def browser(chromium):
    from cdp import Browser, CDPError

    try:
        b = Browser(chromium)
    except (CDPError, OSError) as exc:
        pytest.fail(f"chromium did not start with --remote-debugging-pipe: {exc}")
    yield b
    b.close()


@pytest.mark.parametrize("width", [1400, 800])
def test_verdict_and_key_columns_inside_the_viewport(browser, pages, width, tmp_path):
    for name, path in pages.items():
        browser.open(path, width, 900)
        m = browser.eval(LAYOUT)
        browser.screenshot(tmp_path / f"{name}-{width}.png")  # kept for a person debugging a failure
        where = f"{name} at {width} px"
        assert m["scrollWidth"] <= m["vw"], f"{where}: the page scrolls sideways ({m['scrollWidth']} px)"
        v = m["verdict"]["box"]
        assert 0 <= v["l"] and v["r"] <= m["vw"] and v["b"] <= m["vh"] / 3, f"{where}: verdict not on the first screen"
        for table, columns in KEY_COLUMNS[name].items():
            heads = [h for h in m["heads"] if h["table"] == table]
            assert heads, f"{where}: no {table} table"
            for col in columns:
                cells = [h for h in heads if " ".join(h["text"].split()) == col]
                assert cells, f"{where}: no {col!r} column in {table}"
                for h in cells:
                    b, f = h["box"], h["frame"]
                    assert f["l"] - 0.5 <= b["l"] and b["r"] <= min(f["r"], m["vw"]) + 0.5, \
                        f"{where}: {col!r} of {table} is scrolled out of view ({b} in {f})"


@pytest.mark.parametrize("width", [1400, 800])
def test_rows_stay_short_and_the_clean_report_is_short(browser, pages, width):
    browser.open(pages["failing"], width, 900)
    m = browser.eval(LAYOUT)
    plain = max(r["h"] for r in m["rows"] if not r["failing"])
    for r in m["rows"]:
        if r["failing"]:  # one line per failing check, never a column squeezed into many lines
            assert r["h"] <= plain * max(r["checks"], 1) + 2, (width, r, plain)
    assert m["findings"] and set(m["findings"]) == {"FAIL"}, "all findings open filtered to the problems"
    assert m["skipsOpen"] == 0, "skipped checks start collapsed"
    browser.open(pages["valid"], width, 900)
    m = browser.eval(LAYOUT)
    assert m["findings"] == [] and m["height"] <= 4 * m["vh"], f"a clean report is {m['height']} px tall"
    assert m["title"].startswith("valid — would be accepted")  # by the rules and the Week-0 automated check


@pytest.mark.parametrize("width", [1400, 800])
def test_charts_readable_and_labels_clear(browser, pages, width):
    browser.open(pages["failing"], width, 900)
    charts = browser.eval(LAYOUT)["charts"]
    assert len(charts) == 3
    for c in charts:
        assert 12 * c["width"] / 640 >= 10, f"tick labels drawn below 10 px at {width} px ({c['width']} px wide)"
        assert c["labelHits"] == 0, "a point covers a region name"
        assert c["marginHits"] == 0, "a point outside the margin sits on the margin band"
        assert c["labelOverlaps"] == 0, "region names overlap"


def test_link_into_the_collapsed_catalogue_opens_it(browser, pages):
    """Rules without a problem wait in a closed <details>; a link to one (a SKIP row's rule) opens it."""
    import re

    html = pathlib.Path(pages["failing"]).read_text(encoding="utf-8")
    rest = re.search(r'<details id="rules-rest">.*?</details>', html, re.S).group(0)
    rule = re.search(r'<article class="rule" id="(rule-[\w-]+)">', rest).group(1)
    browser.open(pages["failing"], 1400, 900, fragment="#" + rule)
    state = browser.eval(f"""(() => {{ const e = document.getElementById({rule!r}).getBoundingClientRect();
        return [document.getElementById('rules-rest').open, e.top, e.height, innerHeight]; }})()""")
    opened, top, height, vh = state
    assert opened and height > 0 and -1 <= top < vh, state


def test_the_points_table_fits_a_1400_px_page(browser, pages, tmp_path):
    """At 1400 px every column of a curve's points table is in view, the last one included: the table uses the
    page's width and leaves out metric columns no point has a value for (agentic ones on a single-turn curve)."""
    for name in ("failing", "valid"):
        browser.open(pages[name], 1400, 900)
        m = browser.eval(LAYOUT)
        browser.screenshot(tmp_path / f"{name}-points-1400.png")
        heads = [h for h in m["heads"] if h["table"] == "data points"]
        assert heads and "Inline accuracy (agentic) (%)" not in [h["text"] for h in heads]
        for h in heads:
            b, f = h["box"], h["frame"]
            assert f["l"] - 0.5 <= b["l"] and b["r"] <= min(f["r"], m["vw"]) + 0.5, \
                f"{name} at 1400 px: {h['text']!r} of the points table is clipped ({b} in {f})"
        assert m["scrollWidth"] <= m["vw"], f"{name} at 1400 px: the page scrolls sideways"
