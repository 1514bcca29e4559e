"""One truth in every output (issue 34): a cohort rendered in every format, each parsed back, tells the same
verdicts per submission (the gate, the rules', the Week-0 check's), the same counts per level and the same
(rule, subject) problems as the engine's tally: no output counts or decides anything itself.

The cohort (tests/support/truthcohort.py): a clean submission, one with a reject-points error and a Week-0
reject, a cross-submission flag, a waived warning and a baseline. Each parser below reads only its output's
text. What an output does not carry is not asked of it (SARIF and the language server list problems, not
passes); what it carries must equal the engine's.
"""
from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from collections import Counter
from html.parser import HTMLParser

import pytest

from truthcohort import TODAY, build_cohort, build_eight

LEVEL_OF_SEVERITY = {"reject": "error", "reject-points": "error", "flag": "flag", "warn": "warning"}
WORDS = {"accept": "accept", "reject points": "reject-points", "reject": "reject"}
PROBLEM_LEVELS = ("error", "flag", "warning")


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """The cohort checked with its waivers and baseline, from its parent folder (paths as a user gives them)."""
    from checker.engine.pipeline import run_check

    root = tmp_path_factory.mktemp("truth")
    made = build_cohort(str(root))
    here = os.getcwd()
    os.chdir(root)
    try:
        report = run_check(["cohort"], jobs=1, waivers=made["waivers"], baseline=made["baseline"], today=TODAY)
        outputs = _render_all(report)
    finally:
        os.chdir(here)
    return report, outputs


def _render_all(report) -> dict:
    from checker.lsp.diagnostics import map_report
    from checker.mcp.tools import ALL_LEVELS, result_of
    from checker.render import render
    from checker.render.cohort_html import render_cohort
    from checker.render.github import step_summary

    return {
        "text": render("text", report, tty=False),
        "json": render("json", report),
        "html": render_cohort(report),
        "markdown": render("markdown", report),
        "sarif": render("sarif", report),
        "junit": render("junit", report),
        "github": render("github", report),
        "step-summary": step_summary(report),
        "mcp": result_of(report, list(ALL_LEVELS)).model_dump(mode="json"),
        "lsp": map_report(report, {}, os.path.abspath("cohort"), report.fail_on),
    }


def _truth(report) -> dict:
    """What the engine decided and counted: per-unit verdicts, counts per level, the problems."""
    t = report.tally
    return {
        "units": {label: (v.gate, v.rules, v.week0_verdict) for label, v in t.units.items()},
        "unit_levels": {label: v.counts.levels() for label, v in t.units.items()},
        "levels": t.counts.levels(),
        "waived": t.counts.waived,
        "problems": Counter((f.rule_id, f.subject.label()) for f in t.findings if f.status.value == "FAIL"),
        # the human outputs print one line per root cause (checker.engine.problems): its FAILs at their places,
        # a line's level the highest of what follows from it
        "causes": Counter((f.rule_id, f.subject.label()) for p in t.problems for f in p.findings),
        "cause_levels": {lv: sum(1 for p in t.problems for f in p.findings
                                 if LEVEL_OF_SEVERITY[f.severity.value] == lv) for lv in PROBLEM_LEVELS},
        "leads": Counter((p.lead.rule_id, p.lead.subject.label()) for p in t.problems),
        "line_levels": {lv: sum(len(p.findings) for p in t.problems if LEVEL_OF_SEVERITY[p.severity.value] == lv)
                        for lv in PROBLEM_LEVELS},
        "week0": t.week0["verdict"],
    }


def test_the_cohort_holds_every_case(checked):
    """The cases are there: a clean unit, a reject-points error with a Week-0 reject, a cross-submission flag,
    a waived finding, a baseline with new, unchanged and resolved problems."""
    report, _outputs = checked
    t = _truth(report)
    assert t["units"] == {"alpha/a-01": ("PASSED", "accept", "accept"),
                          "bravo/b-01": ("FAILED", "reject-points", "reject-points"),
                          "bravo/b-02": ("FAILED", "accept", "accept"),
                          "charlie/c-01": ("PASSED", "accept", "accept")}
    rules = {rule for rule, _s in t["problems"]}
    assert {"run-complete", "cohort-hardware-consistency", "value-spelling"} <= rules
    assert t["waived"] == 1 and report.sections["cohort"]["cross_submission_findings"]
    assert report.sections["baseline"]["counts"]["new"] and report.sections["baseline"]["counts"]["resolved"]


# --- parsers: each reads one output's text -----------------------------------------------------------------

_COUNT = re.compile(r"(\d+) (error|flag|warning)s?\b")


def _problem_levels(phrase: str) -> dict:
    """'1 error (1 reject-points), 1 flag, 2 warnings' -> {error: 1, flag: 1, warning: 2}."""
    out = dict.fromkeys(PROBLEM_LEVELS, 0)
    for n, level in _COUNT.findall(phrase.split(" (")[0] + "," + ",".join(
            p.split(")")[-1] for p in phrase.split(" (")[1:])):
        out[level] += int(n)
    return out


def _checks(phrase: str) -> dict:
    """'2484 checks passed, 338 skipped (1 waived)' -> {passed, skipped, waived}."""
    m = re.search(r"(\d+) checks? passed, (\d+) skipped(?: \((\d+) waived\))?", phrase)
    return {"passed": int(m[1]), "skipped": int(m[2]), "waived": int(m[3] or 0)}


_UNIT_LINE = re.compile(r"^\s+(PASSED|FAILED)\s+(\S+)\s+(.*?) · the rules (accept|reject points|reject)"
                        r"(?:; Week-0(?: \(predicted\))? would (accept|reject points|reject))?")


def _unit_lines(lines) -> dict:
    out = {}
    for line in lines:
        m = _UNIT_LINE.match(line)
        if m:
            out[m[2]] = ((m[1], WORDS[m[4]], WORDS[m[5]] if m[5] else None), _problem_levels(m[3]))
    return out


_PROBLEM_LINE = re.compile(r"^(?P<where>\S.*?): (?P<level>error|flag|warning) (?P<rule>[a-z0-9]+(?:-[a-z0-9]+)*)"
                           r"(?: \[\*\])? ")


def parse_text(text: str) -> dict:
    """The terminal output: its problem lines (a cause repeated at other points is one line, 'same at ...'),
    the cohort's unit lines and the summary. A line names the file the user edits, so its problems are read
    back per (rule, submission): the submission is the path's <org>/<id> under cohort/."""
    lines = text.splitlines()
    problems: Counter = Counter()
    levels = dict.fromkeys(PROBLEM_LEVELS, 0)
    current = None
    for line in lines:
        m = _PROBLEM_LINE.match(line)
        if m:
            where = m["where"]
            parts = where.split("/")
            sub = "/".join(parts[1:3]) if parts[0] == "cohort" else "/".join(parts[:2])
            current = (m["rule"], sub, m["level"])
            problems[current[:2]] += 1
            levels[m["level"]] += 1
        elif current and line.startswith("    same at "):
            for name in line[len("    same at "):].split(", "):
                sub = current[1] if "/" not in name else "/".join(name.split("/")[:2])
                problems[(current[0], sub)] += 1
                levels[current[2]] += 1
        elif not line.startswith("    "):
            current = None
    summary = next(ln for ln in lines if " · " in ln and "checks passed" in ln)
    units = _unit_lines(lines)
    week0 = next(ln for ln in lines if ln.startswith("Week-0 automated check"))
    return {"problems_by_submission": problems, "line_levels": levels,
            "levels": {**_problem_levels(summary.split(" in ")[0]), **_checks(summary)},
            "units": {k: v[0] for k, v in units.items()}, "unit_problems": {k: v[1] for k, v in units.items()},
            "week0_line": week0, "gate": lines[-1].split(":")[0]}


def parse_json(text: str) -> dict:
    doc = json.loads(text)
    s = doc["summary"]
    return {"units": {r["label"]: (r["verdict"], r["rules_verdict"], (r["week0"] or {}).get("verdict"))
                      for r in doc["cohort"]["submissions"]},
            "unit_levels": {r["label"]: _levels_of(r["counts"]) for r in doc["cohort"]["submissions"]},
            "levels": _levels_of(s), "waived": s["waived"], "week0": s["week0"]["verdict"],
            "problems": Counter((f["rule_id"], _label(f["subject"])) for f in doc["findings"]
                                if f["status"] == "FAIL")}


def _levels_of(counts: dict) -> dict:
    sev = counts["fail_by_severity"]
    return {"error": sev["reject"] + sev["reject-points"], "flag": sev["flag"], "warning": sev["warn"],
            "skipped": counts["by_status"]["SKIP"], "passed": counts["by_status"]["PASS"]}


def _label(subject: dict) -> str:
    return "/".join(v for v in (subject["submission"], subject["system"], subject["model"], subject["point"],
                                subject["entry"]) if v) or "(package)"


class _Page(HTMLParser):
    """The parts of a report page or the cohort index the test reads: data attributes, tally lines, the finding
    rows (status, the table holding them, rule, subject), the index's rows."""

    def __init__(self):
        super().__init__()
        self.stack: list = []
        self.summary: dict | None = None
        self.tally = ""
        self.rows: list[dict] = []  # finding rows
        self.units: list[dict] = []  # the index's submission rows
        self._row = None
        self._cell = None
        self._tally = False
        self._table = ""

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and a.get("class") == "summary" and "data-rules" in a:
            self.summary = a
        if tag == "p" and a.get("class") == "tally":
            self._tally = True
        if tag == "table":
            self._table = a.get("id", "")
        if tag == "tr" and "data-status" in a:
            self._row = {"status": a["data-status"], "table": self._table, "cells": []}
        if tag == "tr" and "data-rules" in a:
            self._row = {"unit": a, "cells": []}
        if tag == "td" and self._row is not None:
            self._cell = []

    def handle_endtag(self, tag):
        if tag == "p" and self._tally:
            self._tally = False
        if tag == "td" and self._row is not None and self._cell is not None:
            self._row["cells"].append(" ".join(" ".join(self._cell).split()))
            self._cell = None
        if tag == "tr" and self._row is not None:
            (self.units if "unit" in self._row else self.rows).append(self._row)
            self._row = None

    def handle_data(self, data):
        if self._tally:
            self.tally += data
        if self._cell is not None:
            self._cell.append(data)


def _parse_page(html: str) -> _Page:
    p = _Page()
    p.feed(html)
    return p


def _page_levels(tally: str) -> dict:
    out = _problem_levels(tally)
    m = re.search(r"(\d+) skipped · (\d+) passed", tally)
    return {**out, "skipped": int(m[1]), "passed": int(m[2])}


def parse_html(files: dict) -> dict:
    """The cohort folder: the index's rows (verdicts, problems, skipped, passed), its cohort tally and
    cohort-level findings, and each submission's page (its header's verdicts and tally, its findings)."""
    index = _parse_page(files["index.html"])
    units, unit_levels, problems = {}, {}, Counter()
    for row in index.units:
        a, cells = row["unit"], row["cells"]
        label = f"{cells[0]}/{cells[1].split()[0]}"
        units[label] = (a["data-gate"], a["data-rules"], a["data-week0"] or None)
        unit_levels[label] = {**_problem_levels(cells[2]), "skipped": int(cells[-2]), "passed": int(cells[-1])}
    pages = {}
    for name, html in files.items():
        if name == "index.html":
            continue
        page = _parse_page(html)
        fails = [r for r in page.rows if r["status"] == "FAIL" and r["table"] == "findings-table"]  # "All findings"
        label = fails[0]["cells"][3].split("/")[:2] if fails else None
        s = page.summary
        sub = re.search(r'<h2 id="s0-h">Submission (\S+)', html)[1]
        pages[sub] = {"verdicts": (s["data-gate"], s["data-rules"], s["data-week0"] or None),
                      "levels": _page_levels(page.tally)}
        problems.update((r["cells"][2], r["cells"][3]) for r in fails)
        assert label is None or "/".join(label) == sub
    cohort_level = Counter((r["cells"][2], r["cells"][3]) for r in index.rows if r["status"] == "FAIL")
    return {"units": units, "unit_levels": unit_levels, "pages": pages, "problems": problems,
            "cohort_level": cohort_level, "week0_line": re.search(r"The (Week-0[^<]*?) would reject (\d+) of (\d+)",
                                                                  files["index.html"]).groups(),
            "levels": {**_problem_levels(index.tally.split(" · ")[0]), **_checks(index.tally)}}


def parse_markdown(text: str) -> dict:
    lines = text.splitlines()
    head = lines[lines.index("|---:|---:|---:|---:|---:|---:|") + 1]
    reject, points, flag, warn, passed, skipped = (int(x) for x in head.strip("| ").split(" | "))
    units, problems = {}, Counter()
    for line in lines:
        cells = [c.strip() for c in line.strip("|").split(" | ")]
        if len(cells) == 5 and cells[0] in ("PASSED", "FAILED"):
            week0 = cells[4].replace(" (predicted)", "")
            units[cells[1].strip("`")] = (cells[0], WORDS[cells[3]], None if week0 == "—" else WORDS[week0])
        elif len(cells) in (6, 7) and re.match(r"(error \(|flag$|warning$)", cells[0]):  # 7: with a Baseline column
            rule = re.sub(r"^\[(`[^`]+`)\]\(.*\)$", r"\1", cells[1])  # the rule id, linked to its page
            problems[(rule.strip("`"), cells[2].strip("`"))] += 1
    return {"levels": {"error": reject + points, "flag": flag, "warning": warn, "skipped": skipped,
                       "passed": passed}, "units": units, "problems": problems,
            "summary_levels": _problem_levels(lines[2].split(" · ")[0].lower())}


def parse_sarif(text: str) -> dict:
    run = json.loads(text)["runs"][0]
    problems, levels, waived = Counter(), dict.fromkeys(PROBLEM_LEVELS, 0), 0
    for r in run["results"]:
        if r.get("suppressions"):
            waived += 1
            continue
        problems[(r["ruleId"], _label(r["properties"]["subject"]))] += 1
        levels[LEVEL_OF_SEVERITY[r["properties"]["severity"]]] += 1
    units = {label: (u["verdict"], u["rules_verdict"], (u["week0"] or {}).get("verdict"))
             for label, u in run["properties"]["units"].items()}
    return {"problems": problems, "levels": levels, "waived": waived, "units": units,
            "week0": run["properties"]["week0"]["verdict"], "rules": run["properties"]["rules_verdict"]}


def parse_junit(text: str) -> dict:
    root = ET.fromstring(text)
    problems, levels, units = Counter(), dict.fromkeys(PROBLEM_LEVELS, 0), {}
    for suite in root.iter("testsuite"):
        props = {p.get("name"): p.get("value") for p in suite.iter("property")}
        name = suite.get("name")
        if name != "package":
            label = "/".join(name.split("/")[:2])
            got = (props["rules_verdict"], props.get("week0_verdict"))
            assert units.setdefault(label, got) == got, f"{name}: the suites of {label} disagree"
        for case in suite.iter("testcase"):
            failure, out = case.find("failure"), case.find("system-out")
            if failure is not None:
                severity = failure.get("type")
            elif out is not None and " below --fail-on " in (out.text or ""):  # --junit-warnings output (default)
                severity = out.text.split(" ", 1)[0]
            else:
                continue
            rule, *where = case.get("name").split(" [")
            point = [w.rstrip("]") for w in where]
            label = "/".join(p for p in [name if name != "package" else ""] + point if p) or "(package)"
            problems[(rule, label)] += 1
            levels[LEVEL_OF_SEVERITY[severity]] += 1
    return {"problems": problems, "levels": levels, "units": units,
            "totals": {k: int(root.get(k)) for k in ("tests", "failures", "errors", "skipped")}}


_ANNOTATION = re.compile(r"^::(error|warning|notice) (?P<props>.*?)::")


def parse_github(text: str) -> dict:
    problems, levels = Counter(), dict.fromkeys(PROBLEM_LEVELS, 0)
    for line in text.splitlines():
        m = _ANNOTATION.match(line)
        if not m:
            continue
        title = re.search(r"title=([^,]*)", m["props"])[1].replace("%3A", ":").replace("%2C", ",").replace("%25", "%")
        rule, severity, label = re.match(r"(\S+) \((\S+)\) (.*?)(?: \[(?:new|unchanged|waived)[^\]]*\])?$",
                                         title).groups()  # a trailing [new]/[unchanged]: the baseline state
        problems[(rule, label)] += 1
        levels[LEVEL_OF_SEVERITY[severity]] += 1
    lines = text.splitlines()
    last = lines[-1]
    units = _unit_lines(lines)
    return {"problems": problems, "levels": levels, "units": {k: v[0] for k, v in units.items()},
            "summary_levels": {**_problem_levels(last.split(" — ", 1)[1].split(" · ")[0]), **_checks(last)},
            "gate": last.split(" ")[0]}


def parse_mcp(doc: dict) -> dict:
    return {"units": {u["label"]: (u["verdict"], u["rules_verdict"], (u["week0"] or {}).get("verdict"))
                      for u in doc["submissions"]},
            "unit_levels": {u["label"]: u["by_level"] for u in doc["submissions"]},
            "levels": doc["counts"]["by_level"], "week0": doc["week0"]["verdict"],
            "problems": Counter((f["rule_id"], _label(f["subject"])) for f in doc["findings"] if f["status"] == "FAIL"),
            "listed_levels": Counter(f["level"] for f in doc["findings"])}


def parse_lsp(mapped) -> dict:
    """The language server's diagnostics of the report (the same mapping the server publishes): one per problem
    (the information diagnostics pointing back at a disagreement are not problems of their own)."""
    problems, levels = Counter(), dict.fromkeys(PROBLEM_LEVELS, 0)
    by_submission: dict = {}
    for diags in mapped.diagnostics.values():
        for d in diags:
            if d.data.get("related"):
                continue
            problems[(d.data["rule"], d.data["subject"])] += 1
            levels[LEVEL_OF_SEVERITY[d.data["level"]]] += 1
            by_submission.setdefault("/".join(d.data["subject"].split("/")[:2]), set()).add(d.data["level"])
    rules = {sub: "reject" if "reject" in sev else "reject-points" if "reject-points" in sev else "accept"
             for sub, sev in by_submission.items()}
    return {"problems": problems, "levels": levels, "rules": rules}


# --- the assertions --------------------------------------------------------------------------------------------

def _by_submission(problems: Counter) -> Counter:
    out: Counter = Counter()
    for (rule, label), n in problems.items():
        out[(rule, "/".join(label.split("/")[:2]))] += n
    return out


def _problem_levels_of(levels: dict) -> dict:
    return {k: levels[k] for k in PROBLEM_LEVELS}


def test_text(checked):
    report, out = checked
    t, got = _truth(report), parse_text(out["text"])
    assert got["units"] == t["units"]
    assert got["unit_problems"] == {k: _problem_levels_of(v) for k, v in t["unit_levels"].items()}
    assert got["levels"] == {**t["levels"], "waived": t["waived"]}
    assert got["line_levels"] == t["line_levels"]
    assert got["problems_by_submission"] == _by_submission(t["causes"])
    rejected = sorted(k for k, v in t["units"].items() if v[2] not in ("accept", None))
    assert got["week0_line"] == (f"Week-0 automated check (predicted) would REJECT {len(rejected)} of "
                                 f"{len(t['units'])}: {', '.join(rejected)}")
    assert got["gate"] == report.tally.gate


def test_json(checked):
    report, out = checked
    t, got = _truth(report), parse_json(out["json"])
    assert got["units"] == t["units"] and got["unit_levels"] == t["unit_levels"]
    assert got["levels"] == t["levels"] and got["waived"] == t["waived"]
    assert got["problems"] == t["problems"] and got["week0"] == t["week0"]


def test_html_index_and_pages(checked):
    report, out = checked
    t, got = _truth(report), parse_html(out["html"])
    assert got["units"] == t["units"] and got["unit_levels"] == t["unit_levels"]
    assert {k: p["verdicts"] for k, p in got["pages"].items()} == t["units"]
    assert {k: p["levels"] for k, p in got["pages"].items()} == t["unit_levels"]
    assert got["levels"] == {**t["levels"], "waived": t["waived"]}
    # every problem is on its submission's page; the index lists the cross-submission ones (and any of no
    # submission) again, as cohort.cross_submission_findings holds them
    no_submission = Counter({k: n for k, n in t["problems"].items() if k[1] == "(package)"})
    assert got["problems"] + no_submission == t["problems"]
    cross = Counter((f["rule_id"], _label(f["subject"])) for f in report.sections["cohort"]["cross_submission_findings"]
                    if f["status"] == "FAIL")
    assert cross and got["cohort_level"] == cross + no_submission
    rejected = sum(1 for v in t["units"].values() if v[2] not in ("accept", None))
    assert got["week0_line"] == ("Week-0 automated check (predicted)", str(rejected), str(len(t["units"])))


@pytest.mark.parametrize("fmt", ["markdown", "step-summary"])
def test_markdown_and_step_summary(checked, fmt):
    report, out = checked
    t, got = _truth(report), parse_markdown(out[fmt])
    assert got["units"] == t["units"]
    assert got["levels"] == t["levels"] and got["summary_levels"] == _problem_levels_of(t["levels"])
    assert got["problems"] == t["leads"]  # one row per problem line


def test_sarif(checked):
    report, out = checked
    t, got = _truth(report), parse_sarif(out["sarif"])
    assert got["units"] == t["units"] and got["week0"] == t["week0"] and got["rules"] == report.tally.rules
    assert got["levels"] == _problem_levels_of(t["levels"]) and got["waived"] == t["waived"]
    assert got["problems"] == t["problems"]


def test_junit(checked):
    report, out = checked
    t, got = _truth(report), parse_junit(out["junit"])
    assert got["units"] == {k: v[1:] for k, v in t["units"].items()}
    assert got["levels"] == _problem_levels_of(t["levels"]) and got["problems"] == t["problems"]
    c = report.tally.counts
    # a FAIL below --fail-on is a passed test with its text in system-out (--junit-warnings output, the default)
    assert got["totals"] == {"tests": c.total, "failures": report.tally.report.failing, "errors": 0,
                             "skipped": c.skipped}


def test_github_annotations(checked):
    report, out = checked
    t, got = _truth(report), parse_github(out["github"])
    assert got["units"] == t["units"]
    assert got["levels"] == t["line_levels"] and got["problems"] == t["causes"]
    assert got["summary_levels"] == {**t["levels"], "waived": t["waived"]} and got["gate"] == report.tally.gate


def test_mcp_result(checked):
    report, out = checked
    t, got = _truth(report), parse_mcp(out["mcp"])
    assert got["units"] == t["units"] and got["unit_levels"] == t["unit_levels"]
    assert got["levels"] == t["levels"] and got["week0"] == t["week0"] and got["problems"] == t["causes"]
    assert dict(got["listed_levels"]) == {k: n for k, n in t["levels"].items() if n}


def test_language_server_diagnostics(checked):
    """Diagnostics carry no submission verdict (a Week-0 verdict with no finding of ours has no place to show):
    their problems, levels and the rules' verdict they imply are the engine's."""
    report, out = checked
    t, got = _truth(report), parse_lsp(out["lsp"])
    assert got["levels"] == t["cause_levels"] and got["problems"] == t["causes"]
    assert got["rules"] == {k: v[1] for k, v in t["units"].items() if k in got["rules"]}
    assert {k for k, v in t["units"].items() if v[1] != "accept"} <= set(got["rules"])


def test_the_cohort_of_eight_rejects_one_of_eight(tmp_path):
    """The issue's cohort: only gamma/g-02 is rejected at Week 0, and the HTML says so on the index, on its row
    and on its page only; no other page names its point."""
    from checker.engine.pipeline import run_check
    from checker.render.cohort_html import render_cohort

    report = run_check([build_eight(str(tmp_path))], jobs=1)
    # g-02's reject is explained by a week0-check flag, which fails the default gate
    assert report.sections["cohort"]["verdicts"] == {"PASSED": 7, "FAILED": 1}
    files = render_cohort(report)
    index = files["index.html"]
    assert "The Week-0 automated check (predicted) would reject 1 of 8." in index
    got = parse_html(files)
    assert [k for k, v in got["units"].items() if v[2] != "accept"] == ["gamma/g-02"]
    for name, html in files.items():
        if name == "index.html":
            continue
        head = html[:html.index("</header>")]
        if name.endswith("-gamma-g-02.html"):
            assert "Would be rejected" in head and "r1 (system-description-valid)" in head
        else:
            assert "Would be accepted" in head and "Would be rejected" not in head and "r1" not in head, name
