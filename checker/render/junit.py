"""JUnit XML for CI dashboards: a <testsuite> per submission (or run folder, or the package), a <testcase> per
evaluated rule and subject, its ``classname`` the submission, so dashboards keep submissions apart.

A FAIL that fails the gate (at or above ``--fail-on``; with ``--fail-on-new`` only a new one) is a <failure>
(a crashed rule an <error>); a FAIL below it (a warning, by default) is written as ``--junit-warnings`` says:
a passed test with its text in <system-out> (``output``, the default), a <skipped> test, or a <failure>. A SKIP
is <skipped message=reason>, a waived finding's reason naming the waiver.
"""
from __future__ import annotations

import xml.etree.ElementTree as ET
from itertools import groupby

from checker.core.findings import Status
from checker.render.as_written import spell
from checker.render.levels import baseline_mark, official_words

#: --junit-warnings: how a problem below the gate is written
BELOW_GATE = ("output", "skipped", "failure")


def unit_of(f) -> str:
    """The submission the finding belongs to (its classname and suite): the submission, else the run folder,
    else the package."""
    s = f.subject
    if s.submission:
        return s.submission
    if s.point and not s.model:
        return s.point
    return "package"


def test_name(f) -> str:
    """The rule and where in its unit: ``seed-runtime-match [H200/llama3_1-8b/r64]``."""
    s = f.subject
    parts = [s.system, s.model, s.point, s.entry] if s.submission else ([s.entry] if s.point and not s.model else
                                                                         [s.system, s.model, s.point, s.entry])
    where = "/".join(p for p in parts if p)
    return f"{f.rule_id} [{where}]" if where else f.rule_id


def _week0_properties(week0: dict | None) -> list[tuple[str, str]]:
    """The Week-0 verdict as suite properties (tool, verdict, points, rules, source: official or model, version;
    nothing without a submission)."""
    if week0 is None:
        return []
    return [("week0_tool", week0["tool"]), ("week0_verdict", week0["verdict"]),
            ("week0_points", ",".join(week0["points"])), ("week0_rules", ",".join(week0["rules"])),
            ("week0_source", week0.get("source", "model")), ("week0_version", week0.get("version", ""))]


def _body(f) -> str:
    where = f" at {f.location.short()}" if f.location else ""
    said = "".join(f"\nthe automated check says: {w}" for w in official_words(f))
    text = (f"{f.message}{where}\nobserved: {spell(f.observed)}\nexpected: {spell(f.expected)}{said}"
            f"\nfix: {f.fix or ''}")
    if f.caused_by is not None:  # every FAIL stays a failing case; this one names its root cause
        text += f"\nfollows from: {f.caused_by['rule_id']} at {f.caused_by['subject']}"
    if f.also:
        text += "\nalso: " + ", ".join(f"{a['rule_id']} at {a['subject']}" for a in f.also)
    state = baseline_mark(f)
    return text + (f"\nbaseline: {state}" if state else "")


def render(report, junit_warnings: str = "output", **_options) -> str:
    if junit_warnings not in BELOW_GATE:
        raise ValueError(f"junit_warnings must be one of {', '.join(BELOW_GATE)}")
    gating = {id(f) for f in report.failing()}
    root = ET.Element("testsuites", name="endpoints-checker")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    findings = sorted(report.findings, key=lambda f: (unit_of(f), f.sort_key()))
    for unit, items in groupby(findings, key=unit_of):
        suite = ET.SubElement(root, "testsuite", name=unit)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="policy", value=f"{report.policy_edition} {report.policy_version}")
        verdicts = report.tally.units.get(unit) or report.tally.report  # a submission's suite: its own verdicts
        ET.SubElement(props, "property", name="rules_verdict", value=verdicts.rules)
        ET.SubElement(props, "property", name="fail_on", value=report.fail_on)
        for name, value in _week0_properties(verdicts.week0):
            ET.SubElement(props, "property", name=name, value=value)
        for f in items:
            case = ET.SubElement(suite, "testcase", name=test_name(f), classname=unit, time="0")
            counts["tests"] += 1
            if f.status is Status.FAIL:
                mode = "failure" if id(f) in gating or f.reason == "rule-error" else junit_warnings
                if f.reason == "rule-error":
                    counts["errors"] += 1
                    el = ET.SubElement(case, "error", message=f.message, type="rule-error")
                elif mode == "failure":
                    counts["failures"] += 1
                    el = ET.SubElement(case, "failure", message=f.message, type=f.severity.value)
                elif mode == "skipped":
                    counts["skipped"] += 1
                    el = ET.SubElement(case, "skipped", message=f"{f.severity.value} below --fail-on {report.fail_on}: "
                                                                f"{f.message}")
                else:
                    el = ET.SubElement(case, "system-out")
                    el.text = f"{f.severity.value} below --fail-on {report.fail_on}: "
                    el.text += _body(f)
                    continue
                el.text = _body(f)
            elif f.status is Status.SKIP:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"{f.reason or 'skipped'}: {f.message}")
        for k, v in counts.items():
            suite.set(k, str(v))
            totals[k] += v
        suite.set("time", "0")
    for k, v in totals.items():
        root.set(k, str(v))
    root.set("time", "0")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
