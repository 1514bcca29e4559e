"""The HTML report: self-contained, injection-safe, complete; the cohort folder; the Markdown summary."""
import base64
import hashlib
import json
import os
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

import golden_render
from checker.engine.pipeline import run_check
from checker.render import render

REPO = golden_render.REPO


class Tags(HTMLParser):
    """Collects every start tag with its attributes, and the text of each <script>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.scripts, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._in = [dict(attrs), ""]

    def handle_data(self, data):
        if self._in is not None:
            self._in[1] += data

    def handle_endtag(self, tag):
        if tag == "script" and self._in is not None:
            self.scripts.append(tuple(self._in))
            self._in = None


def parse(text):
    p = Tags()
    p.feed(text)
    return p


@pytest.fixture(scope="module")
def failing(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("failing")
    cwd = os.getcwd()
    golden_render.make_failing(str(tmp))
    os.chdir(tmp)
    try:
        yield run_check(["failing"])
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile")
    return run_check([golden_render.make_hostile(str(tmp))])


def sha(text):
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_self_contained_and_csp(failing):
    """Nothing is loaded from anywhere; the only absolute URLs are the links (a user's click, never a load) to
    the rule pages (checker.core.rule_pages; tests/render/test_rule_links.py follows them)."""
    from checker.core.rule_pages import rule_url

    pages = {rule_url(r.family, r.id) for r in failing.rules}
    html = render("html", failing)
    p = parse(html)
    for tag, attrs in p.tags:
        assert tag not in ("link", "iframe", "object", "embed", "img", "base"), tag
        for k in ("src", "href", "action", "srcset", "data"):
            v = attrs.get(k)
            if v is not None and not (tag == "a" and k == "href" and v in pages):
                assert not re.match(r"^\s*([a-z][a-z0-9+.-]*:|//)", v, re.I), (tag, k, v)
    assert "@import" not in html and not re.search(r"url\((?!#)", html)
    csp = [a["content"] for t, a in p.tags if t == "meta" and a.get("http-equiv") == "Content-Security-Policy"]
    assert len(csp) == 1 and "default-src 'none'" in csp[0]
    code = [s for attrs, s in p.scripts if "type" not in attrs]
    assert len(code) == 1 and sha(code[0]) in csp[0]
    style = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    assert sha(style) in csp[0]


def test_header_sections_and_catalogue(failing):
    html = render("html", failing)
    assert 'class="verdict v-reject">Would be rejected<' in html
    assert "Week-0 automated check (predicted) rejects it" in html  # the suite predicts (tests/conftest.py)
    assert "policy v1.0" in html and "<code>failing</code>" in html
    for rid in ("src-readme", "result-summary-present", "point-dirname-concurrency"):
        assert f'id="rule-{rid}"' in html and f'href="#rule-{rid}"' in html
    for rule in failing.rules:
        assert f'id="rule-{rule.id}"' in html
    assert html.count('<svg class="chart') == 3 and 'role="img"' in html
    assert "Offline ceiling" in html and 'class="step"' in html
    # failing points ringed, failing cells marked
    assert html.count('class="ring"') == 3 * 2  # r64 and r256 in each chart; r8 has no values to plot
    row = re.search(r'<tr class="failing"><th scope="row">r64</th>.*?</tr>', html, re.S).group(0)
    assert re.search(r'class="num bad">65<', row)
    data = json.loads(re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S).group(1))
    assert data["total"] == len(failing.findings) and "structure" in data["families"]
    # every finding is in the server-rendered table, failures first
    table = re.search(r'<table class="data findings" id="findings-table".*?</table>', html, re.S).group(0)
    statuses = re.findall(r'<tr data-status="(\w+)"', table)
    assert len(statuses) == len(failing.findings)
    assert statuses == sorted(statuses, key=lambda s: {"FAIL": 0, "SKIP": 1, "PASS": 2}[s])


def test_hostile_strings_render_as_text(hostile):
    html = render("html", hostile)
    p = parse(html)
    assert [t for t, _ in p.tags].count("script") == 2
    for tag, attrs in p.tags:
        assert tag != "img"
        assert not [k for k in attrs if k.startswith("on")], (tag, attrs)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&#34;&gt;&lt;img src=x onerror=" in html and "&lt;svg onload=" in html
    data = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', html, re.S).group(1)
    assert "<" not in data
    json.loads(data)
    md = render("markdown", hostile)
    outside_code = re.sub(r"(`+)(?:(?!\1).)*?\1", "", md)
    assert "<" not in outside_code and ">" not in outside_code.replace("> ", "")


@pytest.mark.slow
def test_hostile_cohort_folder(tmp_path):
    from checker.render.cohort_html import write_cohort

    cohort = tmp_path / "cohort"
    (cohort / "acme").mkdir(parents=True)
    (cohort / "globex").mkdir()
    import shutil

    shutil.copytree(os.path.join(REPO, "fixtures", "valid"), cohort / "acme" / "sub-1")
    golden_render.make_failing(str(cohort / "globex"), "sub-2")
    golden_render.make_hostile(str(cohort / "globex"), "sub-3")
    report = run_check([str(cohort)])
    written = write_cohort(report, str(tmp_path / "out"))
    names = [os.path.basename(w) for w in written]
    assert names == ["index.html", "001-acme-sub-1.html", "002-globex-sub-2.html", "003-globex-sub-3.html"]
    index = (tmp_path / "out" / "index.html").read_text()
    for n in names[1:]:
        assert f'href="{n}"' in index
        page = (tmp_path / "out" / n).read_text()
        assert 'href="index.html"' in page
    p = parse(index)
    assert [t for t, _ in p.tags].count("script") == 2
    assert not any(k.startswith("on") for _t, a in p.tags for k in a) and "img" not in [t for t, _ in p.tags]
    # the bundled fixture passes both verdicts; the failing and the hostile submissions are rejected
    assert index.count('data-verdict="reject"') == 2 and index.count('data-verdict="pass"') == 1
    assert index.count('<svg class="chart overlay"') == 2  # llama3_1-8b and the hostile model name
    assert "Pareto curves: llama3_1-8b" in index
    # each page holds exactly its submission's findings
    from checker.render.cohort_html import split_report

    parts = split_report(report)
    assert [len(p.package.submissions) for p in parts] == [1, 1, 1]
    assert sum(len(p.findings) for p in parts) == sum(1 for f in report.findings if f.subject.submission)


@pytest.mark.slow
def test_cli_html_file_folder_and_markdown(tmp_path):
    exe = [sys.executable, "-m", "checker"]
    valid = os.path.join(REPO, "fixtures", "valid")
    r = subprocess.run(exe + ["check", valid, "-o", str(tmp_path / "r.html"), "-o", str(tmp_path / "r.md"),
                              "-f", "html", "-f", "markdown"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    r = subprocess.run(exe + ["check", valid, "-o", str(tmp_path / "r.html"), "-o", str(tmp_path / "r.md"),
                              "-o", str(tmp_path / "site") + "/"], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")
    assert (tmp_path / "r.md").read_text().startswith("## ✅ endpoints-checker: PASSED")
    assert sorted(os.listdir(tmp_path / "site")) == ["001-x-valid.html", "index.html"]
    r = subprocess.run(exe + ["check", valid, "-f", "json", "-o", str(tmp_path / "site")],
                       capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 2 and "only --format html writes a folder" in r.stderr


@pytest.mark.slow
def test_check_path_does_not_import_jinja2():
    code = ("import sys, checker.cli.main, checker.engine.pipeline, checker.render;"
            "checker.engine.pipeline.run_check(['fixtures/valid']);"
            "checker.render.render('text', checker.engine.pipeline.run_check(['fixtures/valid']), tty=False);"
            "checker.render.render('markdown', checker.engine.pipeline.run_check(['fixtures/valid']));"
            "assert 'jinja2' not in sys.modules and 'markupsafe' not in sys.modules, 'jinja2 imported'")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO)
    assert r.returncode == 0, r.stderr


def test_markdown_summary(failing):
    md = render("markdown", failing)
    n = sum(1 for f in failing.findings if f.status.value == "FAIL")
    assert n >= 5  # the failing package's own five defects, plus what other families see in them
    assert md.startswith("## ❌ endpoints-checker: FAILED")
    assert "would **REJECT** the submission" in md and f"### Problems ({n})" in md
    rows = [ln for ln in md.splitlines() if ln.startswith(("| error", "| flag", "| warning"))]
    assert len(rows) == n and rows[0].startswith("| error (reject) |") and rows[-1].startswith("| warning |")
    assert "flag (flag)" not in md and "warning (warn)" not in md  # the severity only where the word hides it
    assert "| Level | Rule | Subject | Message | Fix | Location |" in md
    assert all(ln.count(" | ") == 5 for ln in rows)
    assert all(ln.split(" | ")[4].strip() for ln in rows)  # every problem has its fix
    assert "(`--fix` applies it)" in md or not any(f.edits for f in failing.findings)
    assert "FAIL |" not in md  # levels in words: errors, flags, warnings
    short = render("markdown", failing, max_rows=2)
    assert f"… and {n - 2} more problems" in short


def test_markdown_escaping():
    from checker.render.markdown import _code, md_escape

    s = md_escape("<b>x</b> | *y* _z_ [a](b) `c` @org\nline")
    assert "<" not in s and "\n" not in s and "|" not in s.replace("\\|", "")
    assert "\\*y\\*" in s and "\\[a\\]" in s and "@\u2060org" in s
    assert _code("a`b|c") == "`` a`b\\|c ``" and _code("x\ny") == "`x y`" and _code("") == ""


def test_cohort_from_per_submission_reports(tmp_path):
    """Parallel workers hand over one Report per submission: the same folder comes out."""
    import shutil

    from checker.render.cohort_html import render_cohort

    for org, sub in (("zeta", "b"), ("alpha", "a")):
        shutil.copytree(os.path.join(REPO, "fixtures", "valid"), tmp_path / "c" / org / sub)
    reports = [run_check([str(tmp_path / "c" / "zeta")]), run_check([str(tmp_path / "c" / "alpha")])]
    files = render_cohort(reports)
    assert sorted(files) == ["001-alpha-a.html", "002-zeta-b.html", "index.html"]
    index = files["index.html"]
    assert index.index('href="001-alpha-a.html"') < index.index('href="002-zeta-b.html"')
    assert index.count('<svg class="chart overlay"') == 1 and "2 curves overlaid" in index
    # the badge follows the Week-0 verdict: both copies of the bundled example are accepted
    assert 'data-verdict="pass"' in index and 'data-verdict="reject"' not in index
    assert "Cohort-level findings" not in index


def _check(tmp_path, patch):
    from casefixtures import materialise

    return run_check([materialise({"base": "valid", "patch": patch}, str(tmp_path))])


#: a config_summary of 3 characters is an official ERROR (it wants 4+) that the rules allow (R§8.2 sets no length)
SHORT_CONFIG_SUMMARY = {"set": {"file": "{curve}/r1/system_desc.json", "path": ["config_summary"], "value": "DP8"}}


def test_badge_says_week0_rejects_what_the_rules_allow(tmp_path):
    """The reverse case: the rules accept the package, the official rejects its short config_summary (and the
    page says the verdict is predicted, as the suite predicts it)."""
    report = _check(tmp_path, [SHORT_CONFIG_SUMMARY])
    head = _header(render("html", report))
    assert report.rules_verdict == "accept" and report.week0["verdict"] == "reject-points"
    assert '<span class="verdict v-reject">Would be rejected</span>' in head
    assert "the rules do not reject" in head and "(predicted)" in head


def test_badge_says_the_rules_reject_what_week0_accepts(tmp_path):
    """complete: false at one point: the rules reject it (run-complete), the official never reads the flag."""
    report = _check(tmp_path, [{"set": {"file": "{curve}/r64/result_summary.json", "path": ["complete"],
                                        "value": False}}])
    assert report.week0["verdict"] == "accept" and report.rules_verdict != "accept"
    head = _header(render("html", report))
    assert "Accepted at Week 0, the rules reject" in head and "reviewers can reject for it" in head


def _header(html):
    return re.search(r"<header>.*?</header>", html, re.S).group(0)


def test_a_flag_and_a_warning_read_as_accepted_not_failed(tmp_path):
    """The issue's case: a package the Week-0 check accepts (one flag, one warning) got a red FAILED badge."""
    report = _check(tmp_path, [{"set": {"file": "{curve}/r64/point.yaml", "path": ["concurrency"], "value": 65}}])
    assert report.verdict == "FAILED" and not report.week0_reject  # --fail-on flag: exit status 1
    html = render("html", report)
    head = _header(html)
    assert '<span class="verdict v-flag">Would be accepted</span>' in head
    assert "The Week-0 automated check (predicted) accepts it; 1 flag for a reviewer, 1 warning (advice)." in head
    assert "FAIL" not in re.sub(r"<[^>]+>", "", head) and "exit status 1 with --fail-on flag" in head
    # the warn-level finding is a warning in every badge, summary and row
    assert '<span class="lv-warning" title="advice: nothing is rejected or flagged">1 warning</span>' in head
    assert '<span class="badge lv-flag">1 flag</span><span class="badge lv-warning">1 warning</span>' in html
    assert '<td class="lv-warning">warning</td><td>warn</td>' in html
    assert '<div class="lv-flag">flag <a href="#rule-point-config-agreement">' in html
    assert '<div class="lv-warning">warning <a href="#rule-point-dirname-concurrency">' in html
    assert 'class="badge FAIL"' not in html and ">FAIL<" not in html


def test_warning_only_package_is_accepted_with_advice(tmp_path):
    report = _check(tmp_path, [{"write": {"file": "notes.txt", "text": "x\n"}}])
    head = _header(render("html", report))
    assert '<span class="verdict v-warning">Would be accepted</span>' in head
    assert "The Week-0 automated check (predicted) accepts it, 1 warning (advice)." in head


def test_page_is_titled_for_what_was_checked(failing):
    from casefixtures import REAL_RUNS

    html = render("html", failing)
    assert "<title>failing — would be rejected · endpoints-checker</title>" in html
    assert '<h1><span class="kind">Submission</span> failing</h1>' in html
    html = render("html", run_check([os.path.join(REAL_RUNS, "var_concurrency_allchunks")], options={"jobs": 1}))
    assert "<title>var_concurrency_allchunks — would be accepted · endpoints-checker</title>" in html
    assert '<h1><span class="kind">Run folder</span> var_concurrency_allchunks</h1>' in html


def test_run_folder_metrics_digest(tmp_path):
    """system TPS, TTFT p90, TPOT p90, region and duration per run folder, flat layout included."""
    import shutil

    from casefixtures import REAL_RUNS, make_writable

    flat = tmp_path / "flat_run"
    shutil.copytree(os.path.join(REAL_RUNS, "var_concurrency_allchunks"), flat)
    make_writable(str(flat))
    os.rename(flat / "performance" / "result_summary.json", flat / "result_summary.json")
    paths = [os.path.join(REAL_RUNS, "var_concurrency_allchunks"), os.path.join(REAL_RUNS, "echo_accuracy_only"),
             str(flat)]
    html = render("html", run_check(paths, options={"jobs": 1}))
    table = re.search(r'<table class="data digest">.*?</table>', html, re.S).group(0)
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', table)
    assert heads[:7] == ["Run folder", "Checks", "System TPS (tok/s)", "TTFT p90 (ms)", "TPOT p90 (ms)",
                         "Region (declared)", "Duration (s)"]
    rows = {re.search(r">([\w_]+)</a></th>", r).group(1): re.findall(r"<td[^>]*>(.*?)</td>", r)
            for r in re.findall(r"<tr[^>]*><th scope=\"row\">.*?</tr>", table, re.S)}
    assert rows["var_concurrency_allchunks"][1:6] == ["6,348", "65.09", "1.02", "—", "19.97"]
    assert rows["flat_run"][1:6] == ["6,348", "65.09", "1.02", "—", "19.97"]
    assert rows["echo_accuracy_only"][1:6] == ["—", "—", "—", "—", "—"]  # an accuracy-only run has no numbers
    assert 'class="badge lv-flag">3 flags<' in "".join(rows["var_concurrency_allchunks"])
    # checked on its own, the accuracy-only folder is refused as `runs create` refuses it (duration_ns null)
    assert 'class="badge lv-error">1 error<' in rows["echo_accuracy_only"][0]


def test_points_table_scrolls_in_its_box_with_the_checks_first(failing):
    html = render("html", failing)
    box = re.search(r'<div class="scroll points-box" role="region"[^>]*>\s*<table class="data points">.*?</table>\s*</div>',
                    html, re.S)
    assert box, "the points table scrolls inside its own box"
    heads = re.findall(r'<th scope="col"[^>]*>(.*?)</th>', box.group(0))
    assert heads[:2] == ["Point", "Checks"]
    digest = ["System TPS (tok/s)", "TPS/user (tok/s)", "TTFT p90 (ms)", "Duration (s)", "Concurrency"]
    assert [heads.index(h) for h in digest] == sorted(heads.index(h) for h in digest) < [heads.index("Offline")] * 5
    row = re.search(r'<tr class="failing"><th scope="row">r64</th><td class="checks">(.*?)</td>', html, re.S).group(1)
    assert row.index("point-config-agreement") < row.index("point-dirname-concurrency")  # flag before warning


def test_findings_open_filtered_to_problems_with_skips_collapsed(failing):
    html = render("html", failing)
    form = re.search(r'<form class="filters".*?</form>', html, re.S).group(0)
    assert re.findall(r'name="status" value="(\w+)"( checked)?>', form) == [("FAIL", " checked"), ("SKIP", ""),
                                                                           ("PASS", "")]
    assert "<details class=\"skips\" open" not in html
    skips = re.findall(r'<details class="skips"><summary>(\d+) checks? skipped \(([^)]*)\)</summary>(.*?)</details>',
                       html, re.S)
    assert skips and all(re.findall(r'<tr data-status="(\w+)"', body) == ["SKIP"] * int(n) for n, _r, body in skips)
    assert any("a file it reads is missing" in reasons for _n, reasons, _b in skips)
    from checker.render.levels import SKIP_WHY

    assert not any(code in reasons for code in SKIP_WHY for _n, reasons, _b in skips)  # words, not reason codes
    assert '<div class="ev">reason:' not in html
    # section tables before "all findings" hold only the problems
    main = html[html.index("<main>"):html.index('<section id="findings"')]
    outside = re.sub(r'<details class="skips">.*?</details>', "", main, flags=re.S)
    assert set(re.findall(r'<tr data-status="(\w+)"', outside)) == {"FAIL"}
    # the catalogue: rules with a problem first, the others in a closed <details>
    rules = html[html.index('<section id="rules"'):]
    rest = re.search(r'<details id="rules-rest"><summary>The other (\d+) rules</summary>(.*?)</details>', rules, re.S)
    assert 'id="rule-src-readme"' in rules[:rules.index("rules-rest")]
    assert 'id="rule-src-readme"' not in rest.group(2) and int(rest.group(1)) == rest.group(2).count('class="rule"')
